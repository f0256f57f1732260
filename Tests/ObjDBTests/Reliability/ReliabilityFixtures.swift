import Foundation
import TestSupport

@testable import ObjDB

/// A store whose trees have every page shape LMDB writes: branch levels, overflow values,
/// duplicates in sub-pages and in sub-databases, and a free list from deletes.
func makeVariedStore(at path: String, seed: UInt64 = 1) throws {
    var random = SeededGenerator(seed: seed)
    let (environment, _) = try StoreFormat.open(path: path)
    try environment.write { transaction in
        let plain = try transaction.openDatabase(named: "plain", options: .create)
        let duplicates = try transaction.openDatabase(named: "duplicates", options: [.create, .duplicateSort])
        for number in 0..<3_000 {
            let key = Array("key \(number)".utf8)
            let size =
                number % 97 == 0
                ? Int.random(in: 5_000...20_000, using: &random) : Int.random(in: 1...200, using: &random)
            let value = [UInt8](repeating: UInt8(number & 0xFF), count: size)
            try key.withUnsafeBytes { key in
                try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: plain) }
            }
        }
        // One key with a few duplicates (a sub-page), one with many (a sub-database).
        for (key, count) in [("few", 5), ("many", 2_000), ("some", 40)] {
            for number in 0..<count {
                let value = Array("value \(number) of \(key)".utf8)
                try Array(key.utf8).withUnsafeBytes { key in
                    try value.withUnsafeBytes { _ = try transaction.put($0, forKey: key, in: duplicates) }
                }
            }
        }
    }
    // Deletes free pages, so the free list has records.
    try environment.write { transaction in
        let plain = try transaction.openDatabase(named: "plain")
        for number in stride(from: 0, to: 3_000, by: 3) {
            try Array("key \(number)".utf8).withUnsafeBytes { _ = try transaction.delete($0, in: plain) }
        }
    }
}

/// The file's bytes, changed by `edit`, written back.
func editFile(_ path: String, _ edit: (inout [UInt8]) -> Void) throws {
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
    edit(&bytes)
    try Data(bytes).write(to: URL(fileURLWithPath: path))
}
