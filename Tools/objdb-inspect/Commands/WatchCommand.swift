import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `watch TYPE`: the count, then each committed change to the matching objects, from any process.
///
/// Polls the store's last committed transaction every `interval` milliseconds (a read
/// of LMDB's meta page, no transaction) and diffs the results only when it moved. It also
/// notices when the store file is replaced (a new inode) and reopens it.
struct WatchCommand: Subcommand {
    static let spec = CommandSpec(
        name: "watch", abstract: "the count, then every change as any process commits",
        discussion: """
            Prints the count, then every committed change by any process: + inserted, - deleted,
            ~ modified with the changed properties. Polls every MS milliseconds (100; 1 to 3600000).
            A store file replaced by another (a new inode) is reopened. Ctrl-C stops (in the shell,
            back to the prompt).
            """,
        operands: [.init("TYPE")],
        options: [
            .value("where", "PREDICATE", "only the objects that match"),
            .value("interval", "MS", "poll every MS milliseconds (default 100)"),
        ])

    let type: String
    let filter: String?
    let interval: Int

    init(parsing arguments: ParsedCommand) throws(UsageError) {
        type = arguments.operands[0]
        filter = arguments.value("where")
        interval = try arguments.integer("interval", in: 1...3_600_000) ?? 100
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        if !context.inShell {
            // "Until interrupted": a parent may have started us with these signals blocked.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            sigprocmask(SIG_UNBLOCK, &signals, nil)
        }
        Interrupt.reset()
        var database: Database? = try context.open()
        guard database!.schema[type] != nil else { throw ObjDBError.unknownType(type) }
        var identity = Self.identity(of: context.path)
        var (previous, version) = try snapshot(database!)
        context.print("\(previous.count) \(type)")
        try context.output.flush()
        var saidGone = false
        while true {
            if sleepInterrupted() { return .success }
            let current = Self.identity(of: context.path)
            if current != identity {
                guard let current else {
                    if !saidGone { context.print("the store file is gone; waiting for a new one at \(context.path)") }
                    saidGone = true
                    try context.output.flush()
                    continue
                }
                // Replaced: let go of the old file before opening the new one.
                database = nil
                database = try context.open()
                identity = current
                saidGone = false
                guard database!.schema[type] != nil else { throw ObjDBError.unknownType(type) }
                let next: [String: [String: StoredValue]]
                (next, version) = try snapshot(database!)
                context.print("the store file was replaced; reopened \(context.path) at version \(version)")
                report(previous, next, version: version, context: context)
                previous = next
                try context.output.flush()
                continue
            }
            guard let database else { continue }
            guard try database.lastCommittedVersion() != version else { continue }
            let next: [String: [String: StoredValue]]
            (next, version) = try snapshot(database)
            report(previous, next, version: version, context: context)
            previous = next
            try context.output.flush()
        }
    }

    /// Waits one interval; `true` when Ctrl-C ended the wait.
    private func sleepInterrupted() -> Bool {
        var request = timespec(tv_sec: interval / 1000, tv_nsec: (interval % 1000) * 1_000_000)
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0, errno == EINTR {
            if Interrupt.isRaised { break }
            request = remaining
        }
        if Interrupt.isRaised {
            Interrupt.reset()
            // After the terminal's "^C", so the prompt starts a line of its own.
            FileHandle.standardOutput.write(Data("\n".utf8))
            return true
        }
        return false
    }

    private func report(
        _ previous: [String: [String: StoredValue]], _ next: [String: [String: StoredValue]], version: Int,
        context: InspectContext
    ) {
        let inserted = next.keys.filter { previous[$0] == nil }.sorted()
        let deleted = previous.keys.filter { next[$0] == nil }.sorted()
        var lines = inserted.map { "+ \(type)(\($0))" } + deleted.map { "- \(type)(\($0))" }
        for key in next.keys.sorted() {
            guard let old = previous[key], let new = next[key], old != new else { continue }
            let changed = Set(old.keys).union(new.keys).filter { old[$0] != new[$0] }.sorted()
            lines.append("~ \(type)(\(key)) " + changed.joined(separator: ", "))
        }
        guard !lines.isEmpty else { return }
        context.print("version \(version): \(next.count) \(type)")
        for line in lines { context.print(DisplayText.escapedString(line)) }
    }

    /// The matching objects and the version they were read at, from one read transaction:
    /// a version read apart from the objects could already count a commit they miss.
    private func snapshot(_ database: Database) throws -> ([String: [String: StoredValue]], version: Int) {
        try database.read { view in
            var objects: [String: [String: StoredValue]] = [:]
            for object in try view.dynamicObjects(type, filter: filter) {
                objects[object.objectKey.plain] = try object.values()
            }
            return (objects, view.version)
        }
    }

    /// The device and inode of the file at `path`, or `nil` when there is none.
    private static func identity(of path: String) -> [UInt64]? {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        return [UInt64(status.st_dev), UInt64(status.st_ino)]
    }
}
