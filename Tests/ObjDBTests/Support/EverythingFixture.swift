import Foundation
import ObjDB
import TestSupport
import Testing

/// A test that stores `Everything`s told apart by their position, kept in `key` (UUIDs ascending).
protocol EverythingFixture {
    var directory: TemporaryDirectory { get }
}

extension EverythingFixture {
    /// One object per configuration, in order.
    func store(_ configurations: [(Everything) -> Void]) throws -> Results<Everything> {
        let db = try makeDatabase(directory)
        try db.write { transaction in
            for (position, configure) in configurations.enumerated() {
                let object = Everything()
                object.key = UUID(uuidString: String(format: "00000000-0000-0000-0000-%012d", position))!
                configure(object)
                try transaction.add(object)
            }
        }
        return try db.view().objects(Everything.self)
    }

    /// The positions of the objects in `results`, in its order.
    func positions(_ results: Results<Everything>) -> [Int] {
        results.map { Int($0.key.uuidString.suffix(12))! }
    }

    /// The syntax error `predicate` gets, recording an issue when it is accepted.
    func syntaxError(_ predicate: String) throws -> ObjDBError? {
        try rejection(of: predicate, code: .predicateSyntax)
    }

    /// The schema error (`invalidQuery`) `predicate` gets, recording an issue when it is accepted.
    func queryError(_ predicate: String) throws -> ObjDBError? {
        try rejection(of: predicate, code: .invalidQuery)
    }

    private func rejection(of predicate: String, code: ObjDBError.Code) throws -> ObjDBError? {
        let all: Results<Everything> = try store([])
        do {
            _ = try all.filter(predicate)
        } catch let error as ObjDBError where error.code == code {
            return error
        }
        Issue.record("\(predicate) was accepted")
        return nil
    }
}
