import Foundation
import ObjDB

// The demo grows with the product. Today: create a store, write a thousand
// records in one transaction, read them back, and leave the store for
// `objdb-inspect PATH info` (make demo runs it next).

let path = CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "demo.objdb"
try? FileManager.default.removeItem(atPath: path)
try? FileManager.default.removeItem(atPath: path + "-lock")

do {
    let (environment, version) = try StoreFormat.open(path: path)
    print("Created \(path) (ObjDB format \(version))")

    let greetings = try environment.write { transaction in
        try transaction.openDatabase(named: "greetings", options: .create)
    }
    try environment.write { transaction in
        for number in 1...1_000 {
            let key = withUnsafeBytes(of: UInt32(number).bigEndian) { Array($0) }
            let value = Array("hello #\(number)".utf8)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { value in _ = try transaction.put(value, forKey: key, in: greetings) }
            }
        }
    }
    print("Wrote 1000 records in one transaction")

    try environment.read { transaction in
        let cursor = try transaction.cursor(greetings)
        var count = 0
        var last = ""
        try cursor.forEach { entry in
            count += 1
            last = String(decoding: entry.value, as: UTF8.self)
            return true
        }
        print("Read \(count) records back in key order; the last says \"\(last)\"")
    }
} catch {
    FileHandle.standardError.write(Data("objdb-demo: \(error)\n".utf8))
    exit(1)
}
