/// Verifies a whole store: every record decodes, every index entry points at an object holding
/// its value and every object is indexed, every link reaches an existing object, and the
/// backlinks are exactly the links.
///
/// `objdb-inspect check` prints what this finds; tests run it after every step.
///
/// It reads each database once, in key order, and keeps no entries: what the records say the
/// indexes and backlinks must hold is folded into an order-independent digest (a count and two
/// 64-bit sums of a hash per entry), and so is what they hold; equal digests mean equal contents.
/// Whether each link's target exists is a merge of the backlinks (in target-key order) with the
/// target's table. Only an index or the backlinks whose digests differ are read again, entry by
/// entry, to name each problem. Memory stays flat whatever the size of the store.
package struct StoreCheck {
    let database: Database

    package init(database: Database) {
        self.database = database
    }

    /// Progress through a check: the database being read, entries read in it, and its entries in all.
    package typealias Progress = (_ database: String, _ done: Int, _ total: Int) -> Void

    /// Every problem found, one sentence each; empty for a sound store.
    package func problems() throws -> [String] {
        var problems: [String] = []
        try run { problems.append($0) }
        return problems
    }

    /// Reports every problem to `report` as it is found, each once, and returns how many there were.
    @discardableResult
    package func run(progress: Progress? = nil, report: (String) -> Void) throws -> Int {
        // LMDB's own pages first: the passes below let LMDB walk every tree.
        let pageProblems = try PageCheck(environment: database.environment).problems()
        guard pageProblems.isEmpty else {
            for problem in pageProblems { report(problem.description) }
            return pageProblems.count
        }
        return try withoutActuallyEscaping(report) { report in
            try database.read { view in
                var pass = try CheckPass(
                    database: database, source: try view.snapshot.source(), progress: progress, report: report)
                try pass.run()
                return pass.problemCount
            }
        }
    }
}

/// One run of ``StoreCheck`` over one snapshot.
private struct CheckPass {
    let database: Database
    let source: RecordSource
    let progress: StoreCheck.Progress?
    let report: (String) -> Void
    let transaction: Transaction
    let residency: ResidentMap
    private(set) var problemCount = 0
    /// Objects whose record does not decode: reported once, then left out of the index and link checks.
    private var damaged = Set<[UInt8]>()
    private var expectedBacklinks = EntryDigest()

    init(
        database: Database, source: RecordSource, progress: StoreCheck.Progress?, report: @escaping (String) -> Void
    ) throws {
        self.database = database
        self.source = source
        self.progress = progress
        self.report = report
        transaction = source.transaction
        residency = ResidentMap(path: database.configuration.path)
    }

    mutating func run() throws {
        let bindings = database.bindings.values.sorted { $0.schema.name < $1.schema.name }
            .filter { !$0.schema.isEmbedded && $0.table != nil }
        for binding in bindings {
            let indexes = try checkRecords(of: binding)
            for (property, expected) in indexes { try checkIndex(property, of: binding, expected: expected) }
            for property in binding.properties where property.schema.index == .fullText && property.index != nil {
                let check = FullTextCheck(
                    transaction: transaction, binding: binding, property: property, damaged: damaged)
                for text in try check.problems() { problem(text) }
            }
        }
        try checkBacklinks()
    }

    private mutating func problem(_ text: String) {
        problemCount += 1
        report(text)
    }

    // MARK: Records

    /// Reads every record of `binding`'s table; returns the digest of each index's expected entries.
    private mutating func checkRecords(of binding: TypeBinding) throws -> [(BoundProperty, EntryDigest)] {
        let table = binding.table!
        let name = binding.schema.name
        let total = try transaction.statistics(of: table).entries
        let indexed = binding.properties.filter {
            $0.schema.isIndexed && $0.index != nil && $0.schema.index != .fullText
        }
        var digests = [EntryDigest](repeating: EntryDigest(), count: indexed.count)
        var done = 0
        var problems: [String] = []
        var damagedHere: [[UInt8]] = []
        var backlinks = expectedBacklinks
        try transaction.cursor(table).forEach { entry in
            done += 1
            residency.note(entry.key.count + entry.value.count)
            if done & 0x3FFF == 0 { progress?("obj.\(name)", done, total) }
            guard let key = ObjectKeyCodec.decode(entry.key, primaryKeyType: binding.primaryKey?.schema.type) else {
                problems.append("\(name): a key of \(entry.key.count) bytes does not decode")
                damagedHere.append(BacklinkCodec.targetKey(type: name, key: entry.key))
                return true
            }
            guard let reader = RecordReader(validating: entry.value) else {
                problems.append("\(name)(\(key)): the record does not decode")
                damagedHere.append(BacklinkCodec.targetKey(type: name, key: entry.key))
                return true
            }
            let values = source.values(of: reader, in: binding)
            if let primaryKey = binding.primaryKey, values[primaryKey.position] != key.storedValue {
                problems.append("\(name)(\(key)): the primary-key property holds \(values[primaryKey.position])")
            }
            for (slot, property) in indexed.enumerated() {
                guard let indexKey = try Self.indexKey(values[property.position], for: property, in: binding, source)
                else { continue }
                indexKey.withUnsafeBytes { digests[slot].add($0, entry.key) }
            }
            if binding.hasLinks {
                for link in binding.links(in: values) {
                    let target = BacklinkCodec.targetKey(type: link.targetType, key: link.targetKey)
                    let source = BacklinkCodec.sourceValue(type: name, propertyID: link.propertyID, key: entry.key)
                    target.withUnsafeBytes { target in source.withUnsafeBytes { backlinks.add(target, $0) } }
                }
            }
            return true
        }
        expectedBacklinks = backlinks
        for text in problems { problem(text) }
        damaged.formUnion(damagedHere)
        return Array(zip(indexed, digests))
    }

    // MARK: Indexes

    private mutating func checkIndex(_ property: BoundProperty, of binding: TypeBinding, expected: EntryDigest) throws {
        guard let index = property.index else { return }
        let label = "index \(binding.schema.name).\(property.schema.name)"
        let total = try transaction.statistics(of: index).entries
        var stored = EntryDigest()
        var done = 0
        let name = "idx.\(binding.schema.name).\(property.schema.name)"
        try transaction.cursor(index).forEach { entry in
            done += 1
            residency.note(entry.key.count + entry.value.count)
            if done & 0x3FFF == 0 { progress?(name, done, total) }
            stored.add(entry.key, entry.value)
            return true
        }
        guard stored != expected else { return }
        // The contents differ: find each entry that is missing, extra or wrong.
        let before = problemCount
        var problems: [String] = []
        let table = binding.table!
        try transaction.cursor(index).forEach { entry in
            residency.note(entry.key.count + entry.value.count)
            guard let record = try transaction.get(entry.value, in: table) else {
                problems.append("\(label): an entry points at a missing object")
                return true
            }
            // A damaged record is reported once, with the objects.
            guard let reader = RecordReader(validating: record) else { return true }
            let value = source.values(of: reader, in: binding)[property.position]
            if try Self.indexKey(value, for: property, in: binding, source).map({ entry.key.elementsEqual($0) }) != true
            {
                problems.append("\(label): an entry does not match its object's value \(value)")
            }
            return true
        }
        let cursor = try transaction.cursor(index)
        try transaction.cursor(table).forEach { entry in
            residency.note(entry.key.count + entry.value.count)
            guard let reader = RecordReader(validating: entry.value),
                let key = ObjectKeyCodec.decode(entry.key, primaryKeyType: binding.primaryKey?.schema.type)
            else { return true }
            let value = source.values(of: reader, in: binding)[property.position]
            guard let indexKey = try Self.indexKey(value, for: property, in: binding, source) else { return true }
            var found = false
            try cursor.forEach(from: KeyBound(indexKey), to: KeyBound(indexKey)) { indexEntry in
                found = indexEntry.value.elementsEqual(entry.key)
                return !found
            }
            if !found {
                problems.append("\(binding.schema.name)(\(key)): \(property.schema.name) is missing from its index")
            }
            return true
        }
        for text in problems { problem(text) }
        if problemCount == before && damaged.isEmpty {
            problem("\(label): holds \(stored.count) entries that do not match its objects' \(expected.count)")
        }
    }

    // MARK: Links and backlinks

    private mutating func checkBacklinks() throws {
        guard let backlinks = database.backlinks else { return }
        let total = try transaction.statistics(of: backlinks).entries
        var stored = EntryDigest()
        var done = 0
        var problems: [String] = []
        // The merge: backlinks come grouped by target type and in target-key order, as each table's keys do.
        var targetType: [UInt8] = []
        var targetCursor: Cursor?
        var targetEntry: CursorEntry?
        var targetBinding: TypeBinding?
        try transaction.cursor(backlinks).forEach { entry in
            done += 1
            residency.note(entry.key.count + entry.value.count)
            if done & 0x3FFF == 0 { progress?("objdb.backlinks", done, total) }
            guard let target = Self.split(entry.key), let source = Self.split(entry.value), source.rest.count >= 2
            else {
                problems.append(
                    "backlinks: an entry of \(entry.key.count) + \(entry.value.count) bytes does not decode")
                return true
            }
            stored.add(entry.key, entry.value)
            if !target.name.elementsEqual(targetType) {
                targetType = Array(target.name)
                targetBinding = database.bindings[String(decoding: target.name, as: UTF8.self)]
                targetCursor = try targetBinding?.table.map { try transaction.cursor($0) }
                targetEntry = try targetCursor?.first()
            }
            guard let targetBinding, let targetCursor else {
                problems.append(
                    "backlinks: an entry names the unknown type \(String(decoding: target.name, as: UTF8.self))")
                return true
            }
            while let current = targetEntry, targetCursor.compare(current.key, target.rest) < 0 {
                targetEntry = try targetCursor.next()
            }
            let exists = targetEntry.map { targetCursor.compare($0.key, target.rest) == 0 } ?? false
            if !exists {
                let sourceName = String(decoding: source.name, as: UTF8.self)
                let sourceKey = UnsafeRawBufferPointer(rebasing: source.rest[2...])
                if damaged.contains(BacklinkCodec.targetKey(type: sourceName, key: sourceKey)) {
                    // A damaged record is reported once, with the objects.
                } else if let sourceBinding = database.bindings[sourceName],
                    let key = ObjectKeyCodec.decode(sourceKey, primaryKeyType: sourceBinding.primaryKey?.schema.type)
                {
                    problems.append("\(sourceName)(\(key)): a link to a missing \(targetBinding.schema.name)")
                } else {
                    problems.append(
                        "backlinks: an entry from an unknown \(sourceName) to a missing \(targetBinding.schema.name)")
                }
            }
            return true
        }
        for text in problems { problem(text) }
        guard stored != expectedBacklinks else { return }
        try findBacklinkDifferences()
    }

    /// Reads the links and the backlinks again, one by one: which links have no backlink, and which
    /// backlinks no link explains.
    private mutating func findBacklinkDifferences() throws {
        guard let backlinks = database.backlinks else { return }
        var missing = 0
        var missingTargets: [String] = []
        let backlinkCursor = try transaction.cursor(backlinks)
        for binding in database.bindings.values.sorted(by: { $0.schema.name < $1.schema.name })
        where binding.hasLinks && binding.table != nil && !binding.schema.isEmbedded {
            try transaction.cursor(binding.table!).forEach { entry in
                residency.note(entry.key.count + entry.value.count)
                guard let reader = RecordReader(validating: entry.value) else { return true }
                let values = source.values(of: reader, in: binding)
                for link in binding.links(in: values) {
                    let target = BacklinkCodec.targetKey(type: link.targetType, key: link.targetKey)
                    let source = BacklinkCodec.sourceValue(
                        type: binding.schema.name, propertyID: link.propertyID, key: entry.key)
                    var found = false
                    try backlinkCursor.forEach(from: KeyBound(target), to: KeyBound(target)) { backlink in
                        found = backlink.value.elementsEqual(source)
                        return !found
                    }
                    guard !found else { continue }
                    missing += 1
                    // Without its backlink, the merge did not see this link: check its target here.
                    if let targetBinding = database.bindings[link.targetType], let table = targetBinding.table,
                        try link.targetKey.withUnsafeBytes({ try transaction.get($0, in: table) }) == nil,
                        let key = ObjectKeyCodec.decode(entry.key, primaryKeyType: binding.primaryKey?.schema.type)
                    {
                        missingTargets.append("\(binding.schema.name)(\(key)): a link to a missing \(link.targetType)")
                    }
                }
                return true
            }
        }
        var extra = 0
        try transaction.cursor(backlinks).forEach { entry in
            residency.note(entry.key.count + entry.value.count)
            guard let target = Self.split(entry.key), let from = Self.split(entry.value), from.rest.count >= 2,
                let sourceBinding = database.bindings[String(decoding: from.name, as: UTF8.self)],
                let table = sourceBinding.table
            else { return true }
            let propertyID = UInt16(from.rest[0]) << 8 | UInt16(from.rest[1])
            let sourceKey = UnsafeRawBufferPointer(rebasing: from.rest[2...])
            guard let record = try transaction.get(sourceKey, in: table) else {
                extra += 1
                return true
            }
            // A damaged record is reported once, with the objects.
            guard let reader = RecordReader(validating: record) else { return true }
            let links = sourceBinding.links(in: source.values(of: reader, in: sourceBinding))
            let explained = links.contains { link in
                link.propertyID == propertyID && link.targetType.utf8.elementsEqual(target.name)
                    && link.targetKey.elementsEqual(target.rest)
            }
            if !explained { extra += 1 }
            return true
        }
        for text in missingTargets { problem(text) }
        if missing > 0 { problem("backlinks: \(missing) link(s) have no backlink") }
        if extra > 0 { problem("backlinks: \(extra) backlink(s) match no link") }
    }

    // MARK: Helpers

    /// A backlink key or value taken apart in place, with no copy per entry: its type name (a
    /// length-prefixed name, as ``BacklinkCodec`` writes it) and the bytes after it.
    private static func split(_ bytes: UnsafeRawBufferPointer) -> (
        name: UnsafeRawBufferPointer, rest: UnsafeRawBufferPointer
    )? {
        guard let length = bytes.first.map(Int.init), bytes.count >= 1 + length else { return nil }
        return (
            UnsafeRawBufferPointer(rebasing: bytes[1..<1 + length]),
            UnsafeRawBufferPointer(rebasing: bytes[(1 + length)...])
        )
    }
}

/// An order-independent digest of a multiset of entries: their number and two sums of 64-bit
/// hashes of each entry's bytes. Two multisets with equal digests are equal, but for a chance of
/// about 2⁻¹²⁸ per difference.
struct EntryDigest: Equatable {
    private(set) var count = 0
    private var first: UInt64 = 0
    private var second: UInt64 = 0

    /// Adds the entry whose bytes are `part1` then `part2`.
    @inline(__always)
    mutating func add(_ part1: UnsafeRawBufferPointer, _ part2: UnsafeRawBufferPointer) {
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15
        var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        Self.absorb(part1, &a, &b)
        Self.absorb(part2, &a, &b)
        finish(a, b)
    }

    /// Adds the entry whose bytes are `part1`, `part2`, then `part3`.
    @inline(__always)
    mutating func add(_ part1: UnsafeRawBufferPointer, _ part2: UnsafeRawBufferPointer, _ part3: UnsafeRawBufferPointer)
    {
        var a: UInt64 = 0x9E37_79B9_7F4A_7C15
        var b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
        Self.absorb(part1, &a, &b)
        Self.absorb(part2, &a, &b)
        Self.absorb(part3, &a, &b)
        finish(a, b)
    }

    @inline(__always)
    private mutating func finish(_ a: UInt64, _ b: UInt64) {
        count += 1
        first &+= Self.finish(a)
        second &+= Self.finish(b ^ a >> 17)
    }

    @inline(__always)
    private static func absorb(_ part: UnsafeRawBufferPointer, _ a: inout UInt64, _ b: inout UInt64) {
        mix(part, &a, &b)
        a = round(a ^ UInt64(part.count) &* 0xFF51_AFD7_ED55_8CCD)
        b = round(b &+ UInt64(part.count))
    }

    @inline(__always)
    private static func mix(_ bytes: UnsafeRawBufferPointer, _ a: inout UInt64, _ b: inout UInt64) {
        var index = 0
        while index + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            a = round(a ^ word)
            b = round(b &+ word &* 0x9FB2_1C65_1E98_DF25)
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < bytes.count {
            tail |= UInt64(bytes[index]) << shift
            shift += 8
            index += 1
        }
        a = round(a ^ tail)
        b = round(b &+ tail &* 0x9FB2_1C65_1E98_DF25)
    }

    @inline(__always)
    private static func round(_ value: UInt64) -> UInt64 {
        var x = value &* 0xBF58_476D_1CE4_E5B9
        x ^= x >> 31
        return x
    }

    @inline(__always)
    private static func finish(_ value: UInt64) -> UInt64 {
        var x = value
        x ^= x >> 33
        x = x &* 0xFF51_AFD7_ED55_8CCD
        x ^= x >> 33
        x = x &* 0xC4CE_B9FE_1A85_EC53
        x ^= x >> 33
        return x
    }
}

extension CheckPass {
    /// The key the index of `property` holds for `value`, as the write path puts it.
    fileprivate static func indexKey(
        _ value: StoredValue, for property: BoundProperty, in binding: TypeBinding, _ source: RecordSource
    ) throws -> [UInt8]? {
        switch IndexKeyCodec.entry(
            for: value, unique: property.schema.index == .unique, maxKeySize: source.catalog.maxKeySize)
        {
        case .key(let key): return key
        case .none: return nil
        case .tooLarge(let size):
            throw ObjDBError.keyTooLarge(
                size: size, maximum: source.catalog.maxKeySize,
                operation: "unique index \(binding.schema.name).\(property.schema.name)")
        }
    }
}
