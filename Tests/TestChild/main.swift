import CLMDB
import Foundation
import ObjDB
import ObjDBInspection

// A second process for tests that need one on the same store:
//   objdb-test-child hold-reader PATH      opens a read transaction, prints "ready", waits to be killed
//   objdb-test-child write PATH DB COUNT   writes COUNT records (big-endian UInt32 keys) to database DB
//   objdb-test-child set-counter PATH ID VALUE   sets Counter ID's value through ObjDB (creating it)
//   objdb-test-child watch PATH            observes the counters, prints "watching" once it hears the
//                                          first delivery, waits to be killed
//   objdb-test-child crash-writer PATH SEED DURABLE   random write transactions until killed, "commit N" after each
//   objdb-test-child crash-verify PATH SEED REPORTED DURABLE   compares the store with the workload's model
//   objdb-test-child fts-writer PATH SEED DURABLE   full-text indexed writes until killed, "commit N" after each
//   objdb-test-child transfer-writer PATH NAME COUNT   COUNT transfer transactions (the concurrency suite's model)
//   objdb-test-child fill-disk PATH BYTES   with files limited to BYTES (ulimit -f), writes until a write fails
//   objdb-test-child crash-ledger PATH     prints how many crash-workload commits the store holds
//   objdb-test-child check-files PATH…     for each file: prints "file N", opens it read-only,
//                                          checks it, reads every object, prints "ok", "damaged" or "error"
//   objdb-test-child observe-first PATH KIND RUNS   observes on the main thread as a command-line
//                                          program does (ObserveFirst.swift); prints "heard" per run

/// The model the cross-process notification tests share with this process (same name and properties).
final class Counter: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted var value = 0
    @Persisted var label = ""
}

let arguments = CommandLine.arguments
guard arguments.count >= 3 else {
    FileHandle.standardError.write(Data("usage: objdb-test-child hold-reader|write PATH …\n".utf8))
    exit(2)
}

do {
    switch arguments[1] {
    case "hold-reader":
        let (environment, _) = try StoreFormat.open(path: arguments[2])
        let transaction = try environment.beginRead()
        FileHandle.standardOutput.write(Data("ready \(transaction.id)\n".utf8))
        while true { sleep(60) }
    case "write":
        guard arguments.count == 5 else { exit(2) }
        let (environment, _) = try StoreFormat.open(path: arguments[2])
        let count = Int(arguments[4]) ?? 0
        try environment.write { transaction in
            let database = try transaction.openDatabase(named: arguments[3], options: .create)
            for number in 0..<UInt32(count) {
                let value = Array("child \(number)".utf8)
                try withUnsafeBytes(of: number.bigEndian) { key in
                    try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: database) }
                }
            }
        }
        print("wrote \(count)")
    case "set-counter":
        guard arguments.count == 5, let id = Int(arguments[3]), let value = Int(arguments[4]) else { exit(2) }
        let database = try Database(path: arguments[2], types: [Counter.self])
        try database.write { transaction in
            try transaction.create(Counter.self, value: ["id": id, "value": value], update: .modified)
        }
        print("set \(id) = \(value)")
    case "watch":
        let database = try Database(path: arguments[2], types: [Counter.self])
        let queue = DispatchQueue(label: "watcher")
        let token = try queue.sync {
            try database.view(queue: queue).objects(Counter.self).observe { _ in say("watching") }
        }
        withExtendedLifetime(token) { while true { sleep(60) } }
    case "crash-writer":
        guard arguments.count == 5, let seed = UInt64(arguments[3]) else { exit(2) }
        try runCrashWriter(path: arguments[2], seed: seed, durable: arguments[4] == "1")
    case "fts-writer":
        guard arguments.count == 5, let seed = UInt64(arguments[3]) else { exit(2) }
        try runFullTextWriter(path: arguments[2], seed: seed, durable: arguments[4] == "1")
    case "crash-verify":
        guard arguments.count == 6, let seed = UInt64(arguments[3]), let reported = Int(arguments[4]) else { exit(2) }
        let outcome = try verifyCrashStore(
            path: arguments[2], seed: seed, reported: reported, durable: arguments[5] == "1")
        say(outcome)
        exit(outcome.hasPrefix("verified") ? 0 : 1)
    case "transfer-writer":
        guard arguments.count == 5, let count = Int(arguments[4]) else { exit(2) }
        try runTransferWriter(path: arguments[2], writer: arguments[3], count: count)
    case "fill-disk":
        guard arguments.count == 4, let limit = Int(arguments[3]) else { exit(2) }
        fillDisk(path: arguments[2], limit: limit)
    case "crash-ledger":
        let database = try openCrashStore(arguments[2], durable: true)
        say("\(try database.view().object(ofType: CrashLedger.self, forPrimaryKey: 0)?.commits ?? 0)")
    case "check-files":
        for (number, path) in arguments.dropFirst(2).enumerated() {
            say("file \(number)")
            say(checkDamagedFile(path))
        }
    case "observe-first":
        guard arguments.count == 5, let runs = Int(arguments[4]) else { exit(2) }
        try observeFirst(path: arguments[2], kind: arguments[3], runs: runs)
    default:
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("objdb-test-child: \(error)\n".utf8))
    exit(1)
}

/// Opens a possibly damaged store read-only, checks it, and when the check finds nothing reads
/// every property of every object: whatever the damage, an answer, never a crash.
func checkDamagedFile(_ path: String) -> String {
    do {
        var configuration = Configuration(path: path)
        configuration.readOnly = true
        let database = try Database(configuration: configuration)
        let problems = try StoreCheck(database: database).problems()
        guard problems.isEmpty else { return "damaged \(problems.count)" }
        let view = try database.view()
        for type in database.schema.types where !type.isEmbedded {
            for object in try view.dynamicObjects(type.name, filter: nil) {
                _ = try object.values()
            }
        }
        return "ok"
    } catch {
        return "error \(String(describing: error).prefix(200).replacingOccurrences(of: "\n", with: " "))"
    }
}

/// Prints a line at once (unbuffered), so a parent sees it even if the next step kills this process.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

/// Writes transactions of about 40 KB under a file-size limit until one fails, printing
/// `committed N` after each commit and `error CODE: message` for the failure.
func fillDisk(path: String, limit: Int) {
    // A write past the limit then fails with EFBIG instead of killing the process (SIGXFSZ).
    signal(SIGXFSZ, SIG_IGN)
    var rlimit = rlimit(rlim_cur: rlim_t(limit), rlim_max: rlim_t(limit))
    setrlimit(Int32(RLIMIT_FSIZE.rawValue), &rlimit)
    do {
        let database = try openCrashStore(path, durable: true)
        var commits = 0
        while true {
            try database.write { transaction in
                for number in 0..<40 {
                    let id = commits * 40 + number
                    try transaction.create(
                        CrashItem.self, value: ["id": id, "name": String(repeating: "n", count: 1_000), "score": id])
                }
                try transaction.create(CrashLedger.self, value: ["id": 0, "commits": commits + 1], update: .modified)
            }
            commits += 1
            say("committed \(commits)")
        }
    } catch let error as ObjDBError {
        say("error \(error.code): \(error.message)")
    } catch {
        say("error other: \(error)")
    }
}
