import TestSupport

@testable import ObjDB

/// Test shorthands over the pointer-based storage API: keys and values as strings or integers.
extension Transaction {
    @discardableResult
    func put(_ value: String, forKey key: String, in database: DatabaseHandle, options: PutOptions = []) throws
        -> Bool
    {
        try Array(key.utf8).withUnsafeBytes { key in
            try Array(value.utf8).withUnsafeBytes { try put($0, forKey: key, in: database, options: options) }
        }
    }

    func string(forKey key: String, in database: DatabaseHandle) throws -> String? {
        try Array(key.utf8).withUnsafeBytes { key in
            try get(key, in: database).map { String(decoding: $0, as: UTF8.self) }
        }
    }

    @discardableResult
    func delete(_ key: String, in database: DatabaseHandle) throws -> Bool {
        try Array(key.utf8).withUnsafeBytes { try delete($0, in: database) }
    }

    /// Every key and value of `database`, in key order or reversed, between the bounds.
    func entries(
        in database: DatabaseHandle, from lower: KeyBound? = nil, to upper: KeyBound? = nil, reverse: Bool = false
    ) throws -> [String] {
        let cursor = try cursor(database)
        var result: [String] = []
        try cursor.forEach(from: lower, to: upper, reverse: reverse) { entry in
            result.append(
                String(decoding: entry.key, as: UTF8.self) + "=" + String(decoding: entry.value, as: UTF8.self))
            return true
        }
        return result
    }
}

extension KeyBound {
    init(_ key: String, inclusive: Bool = true) {
        self.init(Array(key.utf8), inclusive: inclusive)
    }
}
