import Foundation
import Testing

@testable import ObjDB

/// Replacing one field of a record copies the others byte for byte: the result is the record
/// the whole values would encode to, whatever the new value's length or `nil`-ness.
@Suite("Record edits")
struct RecordEditTests {
    @Test(arguments: 0..<8 as Range<UInt64>)
    func replacingAFieldGivesTheRecordOfTheNewValues(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        let values = ValueCodec(schema: records.schema)
        for _ in 0..<20 {
            var input = records.values(of: records.root)
            let old = try codec.encode(input)
            let field = codec.fields.randomElement(using: &records.random)!
            input[field.position] = records.value(of: field.property)
            let expected = try codec.encode(input)
            let replacement = input[field.position]
            try old.withUnsafeBytes { bytes in
                let reader = try #require(RecordReader(validating: bytes))
                let edit = try RecordEdit(reader, slot: field.slot) {
                    try values.encodeField(replacement, of: field.property, in: "Root", into: &$0)
                }
                #expect(edit.byteCount == expected.count)
                var edited = [UInt8](repeating: 0, count: edit.byteCount)
                try edited.withUnsafeMutableBytes { buffer in
                    try edit.write(into: buffer) {
                        try values.encodeField(replacement, of: field.property, in: "Root", into: &$0)
                    }
                }
                #expect(edited == expected, "\(field.property.name) ← \(replacement)")
            }
        }
    }

    @Test func aValueAsLongAsTheOldOneChangesOnlyItsBytes() throws {
        let type = ObjectSchema(
            name: "T",
            properties: [
                PropertySchema(id: 0, name: "count", type: .int), PropertySchema(id: 1, name: "name", type: .string),
                PropertySchema(id: 2, name: "score", type: .double),
            ])
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        let old = try codec.encode([.int(100), .string("abc"), .double(1.5)])
        try old.withUnsafeBytes { bytes in
            let reader = try #require(RecordReader(validating: bytes))
            for (slot, value, expected) in [
                (0, StoredValue.int(101), [StoredValue.int(101), .string("abc"), .double(1.5)]),
                (1, .string("xyz"), [.int(100), .string("xyz"), .double(1.5)]),
                (2, .double(3.5), [.int(100), .string("abc"), .double(3.5)]),
            ] {
                let values = ValueCodec(schema: codec.schema)
                let edit = try RecordEdit(reader, slot: slot) {
                    try values.encodeField(value, of: type.properties[slot], in: "T", into: &$0)
                }
                #expect(edit.byteCount == old.count, "slot \(slot)")
                var edited = [UInt8](repeating: 0, count: edit.byteCount)
                try edited.withUnsafeMutableBytes { buffer in
                    try edit.write(into: buffer) {
                        try values.encodeField(value, of: type.properties[slot], in: "T", into: &$0)
                    }
                }
                #expect(edited == (try codec.encode(expected)))
                #expect(zip(edited, old).filter { $0 != $1 }.count <= 8, "only the field's bytes change")
            }
        }
    }

    @Test func anIntegerThatGrowsMovesTheFieldsAfterIt() throws {
        let type = ObjectSchema(
            name: "T",
            properties: [
                PropertySchema(id: 0, name: "count", type: .int), PropertySchema(id: 1, name: "name", type: .string),
                PropertySchema(id: 2, name: "note", type: .string, isOptional: true),
            ])
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        let old = try codec.encode([.int(182), .string("abc"), .null])
        try old.withUnsafeBytes { bytes in
            let reader = try #require(RecordReader(validating: bytes))
            for (slot, value, expected) in [
                (0, StoredValue.int(183), [StoredValue.int(183), .string("abc"), .null]),
                (2, .string("n"), [.int(182), .string("abc"), .string("n")]),
            ] {
                let edit = RecordEdit(reader, slot: slot) { sink in
                    if case .int(let number) = value {
                        sink.writeInteger(slot, number)
                    } else {
                        sink.writeString(slot, "n")
                    }
                }
                let edited = [UInt8](unsafeUninitializedCapacity: edit.byteCount) { buffer, count in
                    edit.write(into: UnsafeMutableRawBufferPointer(buffer)) { sink in
                        if case .int(let number) = value {
                            sink.writeInteger(slot, number)
                        } else {
                            sink.writeString(slot, "n")
                        }
                    }
                    count = edit.byteCount
                }
                #expect(edited == (try codec.encode(expected)))
            }
        }
    }
}

/// Keys encoded into reused buffers, without `StoredValue`s, are the keys the general encoders make.
@Suite("Typed keys")
struct TypedKeyTests {
    @Test func typedIndexKeysEqualTheStoredValueOnes() {
        var random = SeededGenerator(seed: 3)
        var key: [UInt8] = []
        for _ in 0..<2_000 {
            let number = Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random)
            IndexKeyCodec.encode(integer: number, into: &key)
            #expect(.key(key) == IndexKeyCodec.entry(for: .int(number), unique: false, maxKeySize: 511))
            let double = Double(bitPattern: UInt64.random(in: 0 ... .max, using: &random))
            IndexKeyCodec.encode(double: double, into: &key)
            #expect(.key(key) == IndexKeyCodec.entry(for: .double(double), unique: false, maxKeySize: 511))
        }
        for flag in [false, true] {
            IndexKeyCodec.encode(bool: flag, into: &key)
            #expect(.key(key) == IndexKeyCodec.entry(for: .bool(flag), unique: false, maxKeySize: 511))
        }
        IndexKeyCodec.encodeNil(into: &key)
        #expect(.key(key) == IndexKeyCodec.entry(for: .null, unique: false, maxKeySize: 511))
        for text in ["", "jack", String(repeating: "é", count: 400)] {
            for unique in [false, true] {
                let fits = Array(text.utf8).withUnsafeBytes {
                    IndexKeyCodec.encode(bytes: $0, into: &key, unique: unique, maxKeySize: 511)
                }
                switch IndexKeyCodec.entry(for: .string(text), unique: unique, maxKeySize: 511) {
                case .key(let expected): #expect(fits && key == expected)
                case .tooLarge(let size): #expect(!fits && key.count == size)
                case .none: Issue.record("a string is always indexed")
                }
            }
        }
    }

    @Test func tableKeysIntoReusedAndStackBuffersEqualNewOnes() {
        var buffer: [UInt8] = []
        let keys: [ObjectKey] = [
            .int(0), .int(.min), .int(.max), .internalID(1), .internalID(.max), .string(""),
            .string(String(repeating: "k", count: 300)), .uuid(UUID()),
        ]
        for key in keys {
            ObjectKeyCodec.encode(key, into: &buffer)
            #expect(buffer == ObjectKeyCodec.encode(key))
            #expect(ObjectKeyCodec.withEncoded(key) { Array($0) } == ObjectKeyCodec.encode(key))
            #expect(ObjectKeyCodec.encodedSize(key) == buffer.count)
        }
    }
}
