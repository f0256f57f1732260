extension Results {
    /// The integer primary keys of the objects, in order, read from their table keys: no object is
    /// made and no record read. For tools and benchmarks that compare answers with other engines.
    package func integerPrimaryKeys() -> [Int64] {
        let keys = keyList.current()
        var values: [Int64] = []
        values.reserveCapacity(keys.count)
        if let flat = keys.flat {
            for index in 0..<flat.count { values.append(flat.withKey(at: index) { OrderedVarInt.decode($0) ?? 0 }) }
        } else {
            for key in keys { values.append(key.withUnsafeBytes { OrderedVarInt.decode($0) ?? 0 }) }
        }
        return values
    }
}
