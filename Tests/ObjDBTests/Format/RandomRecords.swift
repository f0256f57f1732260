import Foundation

@testable import ObjDB

/// Random schemas and values of every property type, for the codec's differential tests:
/// a `Root` type with random properties (some IDs skipped, as a removed property leaves
/// them), an embedded `Inner` type, and a `Target` type that links point at, whose primary
/// key (or internal ID) is of a random kind.
struct RandomRecords {
    var random: SeededGenerator
    let schema: SchemaIndex
    let root: ObjectSchema
    let targetKey: PropertyType?

    static let scalarTypes: [PropertyType] = [
        .bool, .int, .int8, .int16, .int32, .int64, .float, .double, .string, .data, .date, .uuid, .decimal,
    ]

    init(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        let targetKey = [PropertyType.int64, .string, .uuid, nil].randomElement(using: &random)!
        var targetProperties = [PropertySchema(id: 1, name: "name", type: .string)]
        if let targetKey {
            targetProperties.insert(PropertySchema(id: 0, name: "key", type: targetKey, isPrimaryKey: true), at: 0)
        }
        let target = ObjectSchema(name: "Target", properties: targetProperties)
        var innerProperties: [PropertySchema] = []
        for id in 0..<Int.random(in: 1...4, using: &random) {
            innerProperties.append(
                Self.randomProperty(id: UInt16(id * 2), embeddedAllowed: false, using: &random))
        }
        let inner = ObjectSchema(name: "Inner", properties: innerProperties, isEmbedded: true)
        var rootProperties: [PropertySchema] = []
        var id: UInt16 = UInt16.random(in: 0...2, using: &random)
        for _ in 0..<Int.random(in: 1...14, using: &random) {
            rootProperties.append(Self.randomProperty(id: id, embeddedAllowed: true, using: &random))
            id += UInt16.random(in: 1...3, using: &random)
        }
        rootProperties.shuffle(using: &random)  // declaration order need not be ID order
        root = ObjectSchema(name: "Root", properties: rootProperties)
        schema = SchemaIndex(Schema(version: 0, types: [inner, root, target]))
        self.targetKey = targetKey
        self.random = random
    }

    static func randomProperty(id: UInt16, embeddedAllowed: Bool, using random: inout SeededGenerator)
        -> PropertySchema
    {
        let name = "p\(id)"
        switch Int.random(in: 0..<20, using: &random) {
        case 0:
            return PropertySchema(id: id, name: name, type: .object, isOptional: true, objectType: "Target")
        case 1:
            let collection = [CollectionKind.list, .set].randomElement(using: &random)!
            return PropertySchema(id: id, name: name, type: .object, collection: collection, objectType: "Target")
        case 2 where embeddedAllowed:
            return PropertySchema(id: id, name: name, type: .embedded, isOptional: true, objectType: "Inner")
        case 3 where embeddedAllowed:
            return PropertySchema(id: id, name: name, type: .embedded, collection: .list, objectType: "Inner")
        case 4:
            return PropertySchema(id: id, name: name, type: .linkingObjects, objectType: "Target", originProperty: "x")
        default:
            let collection = [CollectionKind.single, .single, .single, .list, .set, .map].randomElement(using: &random)!
            return PropertySchema(
                id: id, name: name, type: scalarTypes.randomElement(using: &random)!, collection: collection,
                isOptional: Bool.random(using: &random))
        }
    }

    /// Values for every property of `type`, parallel to its properties.
    mutating func values(of type: ObjectSchema) -> [StoredValue] {
        type.properties.map { value(of: $0) }
    }

    mutating func value(of property: PropertySchema) -> StoredValue {
        switch property.collection {
        case .single:
            if property.type == .linkingObjects { return .null }
            if property.isOptional || property.type == .object || property.type == .embedded,
                Int.random(in: 0..<4, using: &random) == 0
            {
                return .null
            }
            return element(of: property)
        case .list, .set:
            var elements: [StoredValue] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                elements.append(property.isOptional && Bool.random(using: &random) ? .null : element(of: property))
            }
            return .list(elements)
        case .map:
            var entries: [String: StoredValue] = [:]
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                let key = ["", "a", "b", "é", "😀 key", "long" + String(repeating: "k", count: 200)].randomElement(
                    using: &random)!
                entries[key] = property.isOptional && Bool.random(using: &random) ? .null : element(of: property)
            }
            return .map(entries)
        }
    }

    /// One non-nil value of the property's element type, often an extreme.
    mutating func element(of property: PropertySchema) -> StoredValue {
        switch property.type {
        case .bool: return .bool(Bool.random(using: &random))
        case .int, .int64: return .int(integer(in: .min ... .max))
        case .int32: return .int(integer(in: Int64(Int32.min)...Int64(Int32.max)))
        case .int16: return .int(integer(in: Int64(Int16.min)...Int64(Int16.max)))
        case .int8: return .int(integer(in: Int64(Int8.min)...Int64(Int8.max)))
        case .float:
            let special: [Float] = [
                0, -0.0, .nan, -.nan, .infinity, -.infinity, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1, -1,
            ]
            return .float(
                Bool.random(using: &random)
                    ? special.randomElement(using: &random)!
                    : Float(bitPattern: UInt32.random(in: 0 ... .max, using: &random)))
        case .double: return .double(double())
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double()))
        case .string: return .string(string())
        case .data:
            let count = [0, 1, 7, 300].randomElement(using: &random)!
            return .data(Data((0..<count).map { _ in UInt8.random(in: 0 ... .max, using: &random) }))
        case .uuid: return .uuid(UUID())
        case .decimal:
            let values = ["0", "-1234567890.0987654321", "3.14", "1e100", "-0.000001", "9223372036854775807"]
            return .decimal(
                Decimal(string: values.randomElement(using: &random)!, locale: Locale(identifier: "en_US_POSIX"))!)
        case .object: return .link(type: "Target", key: targetObjectKey())
        case .embedded:
            let inner = schema["Inner"]!
            var values: [String: StoredValue] = [:]
            for property in inner.properties { values[property.name] = value(of: property) }
            return .embedded(values)
        case .linkingObjects: return .null
        }
    }

    mutating func targetObjectKey() -> ObjectKey {
        switch targetKey {
        case .int64?: return .int(integer(in: .min ... .max))
        case .string?: return .string(string(maximum: 40))
        case .uuid?: return .uuid(UUID())
        default:
            return .internalID(
                [1, 182, 183, 12_471, .max, UInt64.random(in: 0 ... .max, using: &random)].randomElement(
                    using: &random)!)
        }
    }

    /// An integer in `range`, half the time one at an edge of the encoding's length classes.
    mutating func integer(in range: ClosedRange<Int64>) -> Int64 {
        let edges: [Int64] = [
            .min, .max, 0, -1, 1, 182, 183, 12_470, 12_471, 78_006, 78_007, -256, -257, -65_536, -65_537,
            1 << 31, -(1 << 31), 1 << 48, 1 << 56, -(1 << 56) - 1,
        ]
        if Bool.random(using: &random), let edge = edges.filter(range.contains).randomElement(using: &random) {
            return edge
        }
        return Int64.random(in: range, using: &random)
    }

    mutating func double() -> Double {
        let special: [Double] = [
            0, -0.0, .nan, -.nan, Double(bitPattern: 0x7FF0_0000_0000_1234), .infinity, -.infinity,
            .leastNonzeroMagnitude, .greatestFiniteMagnitude, 1, -1, 1.5, 281_474_976_710_655, 281_474_976_710_656,
            -281_474_976_710_655, 9_007_199_254_740_992, 3.2e8,
        ]
        switch Int.random(in: 0..<3, using: &random) {
        case 0: return special.randomElement(using: &random)!
        case 1: return Double(Int64.random(in: -1_000_000...1_000_000, using: &random))
        default: return Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random))
        }
    }

    mutating func string(maximum: Int = 5_000) -> String {
        let pieces = ["a", "Z", " ", "é", "ü", "€", "😀", "\u{0}", "ß"]
        let count = [0, 1, 3, 20, maximum].randomElement(using: &random)!
        return String((0..<count).map { _ in pieces.randomElement(using: &random)! }.joined().prefix(maximum))
    }
}

/// Stored values compared exactly: floating-point values by their bits (NaN payloads, `-0.0`).
func sameStoredValue(_ left: StoredValue, _ right: StoredValue) -> Bool {
    switch (left, right) {
    case (.float(let a), .float(let b)): return a.bitPattern == b.bitPattern
    case (.double(let a), .double(let b)): return a.bitPattern == b.bitPattern
    case (.date(let a), .date(let b)):
        return a.timeIntervalSinceReferenceDate.bitPattern == b.timeIntervalSinceReferenceDate.bitPattern
    case (.list(let a), .list(let b)): return a.count == b.count && zip(a, b).allSatisfy(sameStoredValue)
    case (.map(let a), .map(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameStoredValue(value, $0) } ?? false }
    case (.embedded(let a), .embedded(let b)):
        return a.count == b.count && a.allSatisfy { key, value in b[key].map { sameStoredValue(value, $0) } ?? false }
    default: return left == right
    }
}

/// What a value reads back as: sets without their repeats (kept in first-insertion order), nested too.
func storedForm(_ value: StoredValue, of property: PropertySchema, in schema: SchemaIndex) -> StoredValue {
    switch value {
    case .list(let elements) where property.collection == .set:
        // As the encoder drops repeats: by `Hashable`, so NaNs never repeat and -0.0 repeats 0.0.
        var seen = Set<StoredValue>()
        let kept = elements.filter { seen.insert($0).inserted }
        return .list(kept.map { storedForm($0, of: elementProperty(property), in: schema) })
    case .list(let elements):
        return .list(elements.map { storedForm($0, of: elementProperty(property), in: schema) })
    case .map(let entries):
        return .map(entries.mapValues { storedForm($0, of: elementProperty(property), in: schema) })
    case .embedded(let values):
        guard let inner = property.objectType.flatMap({ schema[$0] }) else { return value }
        var stored: [String: StoredValue] = [:]
        for innerProperty in inner.properties where innerProperty.isStored {
            stored[innerProperty.name] = storedForm(values[innerProperty.name] ?? .null, of: innerProperty, in: schema)
        }
        return .embedded(stored)
    default:
        return value
    }
}

private func elementProperty(_ property: PropertySchema) -> PropertySchema {
    var element = property
    element.collection = .single
    return element
}
