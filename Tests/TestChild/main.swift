import CLMDB
import Foundation
import ObjDB

// A second process for tests that need one on the same store:
//   objdb-test-child hold-reader PATH      opens a read transaction, prints "ready", waits to be killed
//   objdb-test-child write PATH DB COUNT   writes COUNT records (big-endian UInt32 keys) to database DB
//   objdb-test-child set-counter PATH ID VALUE   sets Counter ID's value through ObjDB (creating it)
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
