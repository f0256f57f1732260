import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Every property type, optional and not, in collections, embedded, and links to every kind of key.
final class LosslessOwner: Object {
    @Persisted(primaryKey: true) var id: String
    @Persisted var flag: Bool
    @Persisted var int: Int
    @Persisted var int8: Int8
    @Persisted var int16: Int16
    @Persisted var int32: Int32
    @Persisted var int64: Int64
    @Persisted var float: Float
    @Persisted(indexed: true) var double: Double
    @Persisted var text: String
    @Persisted var data: Data
    @Persisted(indexed: true) var date: Date
    @Persisted var uuid: UUID
    @Persisted var decimal: Decimal
    @Persisted var maybeInt: Int?
    @Persisted var maybeFloat: Float?
    @Persisted var maybeText: String?
    @Persisted var maybeDate: Date?
    @Persisted var maybeData: Data?
    @Persisted var maybeDecimal: Decimal?
    @Persisted var maybeUUID: UUID?
    @Persisted var doubles: List<Double>
    @Persisted var texts: List<String>
    @Persisted var dates: List<Date>
    @Persisted var maybeInts: List<Int?>
    @Persisted var tags: MutableSet<String>
    @Persisted var scores: Map<String, Double>
    @Persisted var address: LosslessAddress?
    @Persisted var addresses: List<LosslessAddress>
    @Persisted var note: LosslessNote?
    @Persisted var notes: List<LosslessNote>
    @Persisted var numbered: LosslessNumbered?
    @Persisted var keyed: LosslessUUIDKeyed?
}

final class LosslessAddress: EmbeddedObject {
    @Persisted var street: String
    @Persisted var floor: Int?
    @Persisted var at: Date
}

/// A type without a primary key: its objects go by internal IDs.
final class LosslessNote: Object {
    @Persisted var body: String
    @Persisted var stamp: Double
}

final class LosslessNumbered: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted(indexed: true) var label: String
}

final class LosslessUUIDKeyed: Object {
    @Persisted(primaryKey: true) var id: UUID
    @Persisted var amount: Decimal
}

/// #16 item 3: export, then import into an empty store, gives the same store byte for byte.
@Suite("export and import are lossless")
struct ExportImportLosslessTests {
    let directory = TemporaryDirectory()
    static let types: [ObjectBase.Type] = [
        LosslessOwner.self, LosslessAddress.self, LosslessNote.self, LosslessNumbered.self, LosslessUUIDKeyed.self,
    ]

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func randomStoresOfEveryTypeRoundTripByteForByte(seed: UInt64) throws {
        let source = directory.store("source-\(seed).objdb")
        let target = directory.store("target-\(seed).objdb")
        var random = TestRandom(seed: seed)
        do {
            let database = try Database(path: source, types: Self.types)
            try database.write { transaction in try Self.fill(transaction, &random, count: 40) }
            _ = try Database(path: target, types: Self.types)
        }
        for format in ["ndjson", "json"] {
            let export = directory.path + "/export-\(seed).\(format)"
            let exported = try run("objdb-inspect", [source, "export", "--format", format, "--output", export])
            #expect(exported.status == 0, "\(exported.error)")
            let imported = try run("objdb-inspect", [target, "import", export])
            #expect(imported.status == 0, "\(imported.error)")
            let difference = Self.difference(try Self.contents(of: source), try Self.contents(of: target))
            #expect(difference == nil, "seed \(seed), \(format): \(difference ?? "")")
            let again = directory.path + "/again-\(seed).\(format)"
            #expect(try run("objdb-inspect", [target, "export", "--format", format, "--output", again]).status == 0)
            #expect(FileManager.default.contents(atPath: again) == FileManager.default.contents(atPath: export))
        }
        #expect(try run("objdb-inspect", [target, "check"]).status == 0)
    }

    @Test func valuesAtTheEdgesRoundTripExactly() throws {
        let source = directory.store("edges.objdb")
        let target = directory.store("edges-copy.objdb")
        do {
            let database = try Database(path: source, types: Self.types)
            try database.write { transaction in
                let edges: [(Double, Float, Double)] = [
                    (1.000001, 1.1, 10.850000000000001), (-0.0, -0.0, -0.3),
                    (.infinity, -.infinity, .leastNonzeroMagnitude),
                    (Double(nan: 7, signaling: false), Float.nan, 1.7976931348623157e308),
                    (0.1 + 0.2, .leastNonzeroMagnitude, -978_307_200.000_001),
                ]
                for (index, edge) in edges.enumerated() {
                    let owner = LosslessOwner()
                    owner.id = "edge\(index)"
                    owner.double = edge.0
                    owner.float = edge.1
                    owner.date = Date(timeIntervalSinceReferenceDate: edge.2)
                    owner.maybeDate = Date(timeIntervalSince1970: 1.000001)
                    owner.int64 = index % 2 == 0 ? .min : .max
                    owner.decimal = Decimal(string: "12345678901234567890.123456789")!
                    owner.text = "\"quote\" \\ \u{1}\u{1F}\u{7F}\u{85} é 👩‍👩‍👧 \u{2028}"
                    owner.data = Data((0..<256).map { UInt8($0) })
                    owner.scores["\u{0}key"] = edge.0
                    try transaction.add(owner)
                }
            }
            _ = try Database(path: target, types: Self.types)
        }
        let export = directory.path + "/edges.ndjson"
        #expect(try run("objdb-inspect", [source, "export", "--output", export]).status == 0)
        let text = try String(contentsOfFile: export, encoding: .utf8)
        #expect(text.contains("\"double\":1.000001,"))
        #expect(text.contains("\"date\":\"2001-01-01T00:00:10.850000000000001Z\""))
        #expect(text.contains("\"maybeDate\":\"1970-01-01T00:00:01.000001Z\""))
        let imported = try run("objdb-inspect", [target, "import", export])
        #expect(imported.status == 0, "\(imported.error)")
        let difference = Self.difference(try Self.contents(of: source), try Self.contents(of: target))
        #expect(difference == nil, "\(difference ?? "")")
    }

    /// The first entry that differs, in words; `nil` when the stores hold the same bytes.
    static func difference(_ source: [String: [[UInt8]]], _ target: [String: [[UInt8]]]) -> String? {
        for name in Set(source.keys).union(target.keys).sorted() {
            let left = source[name] ?? []
            let right = target[name] ?? []
            if left == right { continue }
            for (index, pair) in zip(left, right).enumerated() where pair.0 != pair.1 {
                let at = pair.0.indices.first { $0 >= pair.1.count || pair.0[$0] != pair.1[$0] } ?? pair.0.count
                return "\(name) entry \(index) (\(pair.0.count) and \(pair.1.count) bytes) differs at byte \(at): "
                    + "\(pair.0[max(0, at - 8)..<min(pair.0.count, at + 24)]) became "
                    + "\(pair.1[max(0, at - 8)..<min(pair.1.count, at + 24)]); key \(pair.0.prefix(24))"
            }
            return "\(name): \(left.count) entries became \(right.count)"
        }
        return nil
    }

    /// Every object, index and backlink entry of a store, by database, as bytes.
    static func contents(of path: String) throws -> [String: [[UInt8]]] {
        let environment = try Environment.open(path: path)
        return try environment.read { transaction in
            var contents: [String: [[UInt8]]] = [:]
            for name in try environment.databaseNames()
            where name.hasPrefix("obj.") || name.hasPrefix("idx.") || name.hasPrefix("uidx.")
                || name == "objdb.backlinks"
            {
                var entries: [[UInt8]] = []
                try transaction.cursor(try transaction.openDatabase(named: name)).forEach { entry in
                    entries.append(Array(entry.key) + [0xFF, 0xFE] + Array(entry.value))
                    return true
                }
                contents[name] = entries
            }
            return contents
        }
    }

    static func fill(_ transaction: WriteTransaction, _ random: inout TestRandom, count: Int) throws {
        var notes: [LosslessNote] = []
        for _ in 0..<8 {
            let note = LosslessNote()
            note.body = random.text()
            note.stamp = random.double()
            try transaction.add(note)
            notes.append(note)
        }
        var numbered: [LosslessNumbered] = []
        for index in 0..<5 {
            let object = LosslessNumbered()
            object.id = index == 0 ? .min : Int64.random(in: .min ... .max, using: &random)
            object.label = random.text()
            try transaction.add(object, update: .modified)
            numbered.append(object)
        }
        var keyed: [LosslessUUIDKeyed] = []
        for _ in 0..<3 {
            let object = LosslessUUIDKeyed()
            object.id = random.uuid()
            object.amount = random.decimal()
            try transaction.add(object)
            keyed.append(object)
        }
        for index in 0..<count {
            let owner = LosslessOwner()
            owner.id = "\(index)-" + random.text()
            owner.flag = random.next() & 1 == 0
            owner.int = Int(bitPattern: UInt(random.next()))
            owner.int8 = Int8(truncatingIfNeeded: random.next())
            owner.int16 = Int16(truncatingIfNeeded: random.next())
            owner.int32 = Int32(truncatingIfNeeded: random.next())
            owner.int64 = Int64(bitPattern: random.next())
            owner.float = random.float()
            owner.double = random.double()
            owner.text = random.text()
            owner.data = random.data()
            owner.date = Date(timeIntervalSinceReferenceDate: random.double())
            owner.uuid = random.uuid()
            owner.decimal = random.decimal()
            if random.next() & 1 == 0 {
                owner.maybeInt = Int(truncatingIfNeeded: random.next())
                owner.maybeFloat = random.float()
                owner.maybeText = random.text()
                owner.maybeDate = Date(timeIntervalSince1970: random.double())
                owner.maybeData = random.data()
                owner.maybeDecimal = random.decimal()
                owner.maybeUUID = random.uuid()
            }
            for _ in 0..<Int(random.next() % 4) {
                owner.doubles.append(random.double())
                owner.texts.append(random.text())
                owner.dates.append(Date(timeIntervalSinceReferenceDate: random.double()))
                owner.maybeInts.append(random.next() & 1 == 0 ? nil : Int(truncatingIfNeeded: random.next()))
                owner.tags.insert(random.text())
                owner.scores[random.text()] = random.double()
                let address = LosslessAddress()
                address.street = random.text()
                address.floor = random.next() & 1 == 0 ? nil : Int(truncatingIfNeeded: random.next())
                address.at = Date(timeIntervalSinceReferenceDate: random.double())
                owner.addresses.append(address)
                owner.notes.append(notes[Int(random.next() % UInt64(notes.count))])
            }
            if random.next() & 1 == 0 {
                let address = LosslessAddress()
                address.street = random.text()
                address.at = Date(timeIntervalSinceReferenceDate: random.double())
                owner.address = address
                owner.note = notes[Int(random.next() % UInt64(notes.count))]
                owner.numbered = numbered[Int(random.next() % UInt64(numbered.count))]
                owner.keyed = keyed[Int(random.next() % UInt64(keyed.count))]
            }
            try transaction.add(owner)
        }
    }
}

/// Seeded values that reach the edges: any bit pattern of a double, any Unicode.
struct TestRandom: RandomNumberGenerator {
    private var state: UInt64
    // Not a multiple of the increment: each seed's stream is not another's, shifted.
    init(seed: UInt64) { state = seed &* 0xD1B5_4A32_D192_ED03 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Half any bit pattern (NaNs with payloads, subnormals, infinities), half ordinary numbers.
    mutating func double() -> Double {
        switch next() % 4 {
        case 0: return Double(bitPattern: next())
        case 1: return Double(Int64(bitPattern: next()) % 1_000_000) / 1000
        case 2:
            return [0.0, -0.0, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude][Int(next() % 6)]
        default: return Double.random(in: -4e9...4e9, using: &self)
        }
    }

    mutating func float() -> Float {
        next() & 1 == 0 ? Float(bitPattern: UInt32(truncatingIfNeeded: next())) : Float(double())
    }

    mutating func text() -> String {
        let pool: [Unicode.Scalar] = [
            "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\r", "\t", "\u{0}", "\u{1B}", "\u{7F}", "\u{85}", "\u{9B}", "é",
            "\u{301}", "中", "👩", "\u{200D}", "\u{2028}", "\u{FEFF}", "\u{10FFFF}", ",",
        ]
        return String(
            String.UnicodeScalarView((0..<Int(next() % 12)).map { _ in pool[Int(next() % UInt64(pool.count))] }))
    }

    mutating func data() -> Data {
        Data((0..<Int(next() % 20)).map { _ in UInt8(truncatingIfNeeded: next()) })
    }

    mutating func uuid() -> UUID {
        let high = next()
        let low = next()
        return withUnsafeBytes(of: (high, low)) { bytes in
            UUID(uuid: bytes.load(as: uuid_t.self))
        }
    }

    mutating func decimal() -> Decimal {
        let significand = Decimal(Int64(truncatingIfNeeded: next() % 1_000_000_000_000))
        let exponent = Int(next() % 40) - 20
        let sign: FloatingPointSign = next() & 1 == 0 ? .plus : .minus
        return Decimal(sign: sign, exponent: exponent, significand: significand)
    }
}
