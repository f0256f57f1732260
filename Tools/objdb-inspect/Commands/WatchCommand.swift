import Foundation
import ObjDB
import ToolSupport

/// `watch TYPE`: the count, then each committed change to the matching objects, from any process.
///
/// Polls the store's last committed transaction every `interval` milliseconds (a read
/// of LMDB's meta page, no transaction) and diffs the results only when it moved.
struct WatchCommand {
    let path: String
    let type: String
    let filter: String?
    let interval: Int

    func run() throws -> ToolExitCode {
        // "Until interrupted": a parent may have started us with these signals blocked.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &signals, nil)
        let database = try InspectCommand.open(path)
        guard database.schema[type] != nil else { throw ObjDBError.unknownType(type) }
        var previous = try snapshot(database)
        print("\(previous.count) \(type)")
        fflushStandardOutput()
        var version = try database.lastCommittedVersion()
        while true {
            usleep(useconds_t(max(interval, 10) * 1_000))
            let current = try database.lastCommittedVersion()
            guard current != version else { continue }
            version = current
            let next = try snapshot(database)
            let inserted = next.keys.filter { previous[$0] == nil }.sorted()
            let deleted = previous.keys.filter { next[$0] == nil }.sorted()
            var lines = inserted.map { "+ \(type)(\($0))" } + deleted.map { "- \(type)(\($0))" }
            for key in next.keys.sorted() {
                guard let old = previous[key], let new = next[key], old != new else { continue }
                let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
                lines.append("~ \(type)(\(key)) " + changed.joined(separator: ", "))
            }
            if !lines.isEmpty {
                print("version \(version): \(next.count) \(type)")
                lines.forEach { print($0) }
                fflushStandardOutput()
            }
            previous = next
        }
    }

    private func snapshot(_ database: Database) throws -> [String: [String: StoredValue]] {
        try database.read { view in
            var objects: [String: [String: StoredValue]] = [:]
            for object in try view.dynamicObjects(type, filter: filter) {
                objects[object.objectKey.plain] = try object.values()
            }
            return objects
        }
    }
}

func fflushStandardOutput() {
    fflush(nil)
}
