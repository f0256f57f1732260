import Foundation
import Testing

@testable import ObjDB

/// The record codec against itself on random schemas and values of every type: what is
/// encoded decodes to the same values, every way of encoding writes the same bytes, and typed
/// reads and writes agree with the `StoredValue` ones.
@Suite("Record codec: random schemas and values")
struct RecordCodecDifferentialTests {
    static let recordsPerSchema = 30

    @Test(arguments: 0..<8 as Range<UInt64>)
    func encodingThenDecodingGivesTheValuesBack(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        for _ in 0..<Self.recordsPerSchema {
            let values = records.values(of: records.root)
            let bytes = try codec.encode(values)
            try bytes.withUnsafeBytes { buffer in
                let reader = try #require(RecordReader(validating: buffer))
                #expect(reader.slotCount == codec.slotCount)
                let decoded = codec.decode(reader)
                for (position, property) in records.root.properties.enumerated() {
                    let expected =
                        property.isStored ? storedForm(values[position], of: property, in: records.schema) : .null
                    #expect(
                        sameStoredValue(decoded[position], expected),
                        "\(property.name) (\(property.typeDescription)): \(decoded[position]) ≠ \(expected)")
                }
            }
        }
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func everyWayOfEncodingWritesTheSameBytes(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        let values = ValueCodec(schema: records.schema)
        for _ in 0..<Self.recordsPerSchema {
            let input = records.values(of: records.root)
            let array = try codec.encode(input)

            let size = try codec.size(of: input)
            #expect(size.byteCount == array.count)
            var reserved = [UInt8](repeating: 0xEE, count: size.byteCount)
            try reserved.withUnsafeMutableBytes { try codec.encode(input, into: $0, size: size) }
            #expect(reserved == array)

            var writer = RecordWriter(slotCount: codec.slotCount)
            for field in codec.fields {
                try values.encodeField(input[field.position], of: field.property, in: "Root", into: &writer)
            }
            #expect(writer.finish() == array)

            // Typed writes for the scalars, stored values for the rest, on both passes.
            var typedSize = codec.recordSize()
            try writeTyped(input, codec: codec, into: &typedSize)
            #expect(typedSize.byteCount == array.count)
            var typed = [UInt8](repeating: 0, count: typedSize.byteCount)
            try typed.withUnsafeMutableBytes { buffer in
                var encoder = RecordEncoder(into: buffer, size: typedSize)
                try writeTyped(input, codec: codec, into: &encoder)
                encoder.finish()
            }
            #expect(typed == array)
        }
    }

    @Test(arguments: 0..<8 as Range<UInt64>)
    func typedReadsEqualTheStoredValueDecode(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        let codec = TypeCodec(type: records.root, schema: records.schema)
        for _ in 0..<Self.recordsPerSchema {
            let bytes = try codec.encode(records.values(of: records.root))
            try bytes.withUnsafeBytes { buffer in
                let reader = try #require(RecordReader(header: buffer))
                for field in codec.fields {
                    let stored = codec.decode(field, from: reader)
                    let slot = field.slot
                    switch (field.kind, stored) {
                    case (.integer, .int(let number)): #expect(reader.integer(slot) == number)
                    case (.integer, .null): #expect(reader.integer(slot) == nil)
                    case (.double, .double(let number)): #expect(reader.double(slot)?.bitPattern == number.bitPattern)
                    case (.double, .null): #expect(reader.double(slot) == nil)
                    case (.float, .float(let number)): #expect(reader.float(slot)?.bitPattern == number.bitPattern)
                    case (.float, .null): #expect(reader.float(slot) == nil)
                    case (.bool, .bool(let flag)): #expect(reader.bool(slot) == flag)
                    case (.bool, .null): #expect(reader.bool(slot) == nil)
                    case (.date, .date(let date)):
                        #expect(
                            reader.date(slot)?.timeIntervalSinceReferenceDate.bitPattern
                                == date.timeIntervalSinceReferenceDate.bitPattern)
                    case (.date, .null): #expect(reader.date(slot) == nil)
                    case (.uuid, .uuid(let uuid)): #expect(reader.uuid(slot) == uuid)
                    case (.uuid, .null): #expect(reader.uuid(slot) == nil)
                    case (.string, .string(let text)):
                        #expect(reader.string(slot) == text)
                        #expect(reader.bytes(slot).map(Array.init) == Array(text.utf8))
                    case (.string, .null): #expect(reader.bytes(slot) == nil)
                    case (.data, .data(let data)): #expect(reader.bytes(slot).map { Data($0) } == data)
                    case (.data, .null): #expect(reader.bytes(slot) == nil)
                    case (.integer, _), (.double, _), (.float, _), (.bool, _), (.date, _), (.uuid, _), (.string, _),
                        (.data, _):
                        Issue.record("\(field.property.name) decoded as \(stored)")
                    default:
                        continue
                    }
                }
            }
        }
    }

    @Test func largeRecordsUseWiderEnds() throws {
        let property = PropertySchema(id: 1, name: "blob", type: .data)
        let type = ObjectSchema(name: "Blob", properties: [PropertySchema(id: 0, name: "n", type: .int), property])
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        for (count, width) in [(200, 1), (300, 2), (70_000, 3), (17_000_000, 4)] {
            var data = Data(repeating: 0x5A, count: count)
            data[count / 2] = 1
            let bytes = try codec.encode([.int(-5), .data(data)])
            #expect(Int(bytes[1] & RecordLayout.widthMask) + 1 == width, "\(count) bytes")
            try bytes.withUnsafeBytes { buffer in
                let reader = try #require(RecordReader(validating: buffer))
                #expect(reader.integer(0) == -5)
                #expect(reader.bytes(1).map { Data($0) } == data)
            }
        }
    }

    @Test func aRecordWithoutGapsHasNoStateTable() throws {
        let type = ObjectSchema(
            name: "T",
            properties: [PropertySchema(id: 0, name: "a", type: .int), PropertySchema(id: 1, name: "b", type: .string)])
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        #expect(try codec.encode([.int(1), .string("x")]) == [2, 0, 2, 1, 2, 0x0A, 0x78])
    }

    /// Writes `values` with the typed calls where a field is a scalar or a link, and the stored-value encoder elsewhere.
    func writeTyped<Sink: FieldSink>(_ values: [StoredValue], codec: TypeCodec, into sink: inout Sink) throws {
        let valueCodec = ValueCodec(schema: codec.schema)
        for field in codec.fields {
            let value = values[field.position]
            let slot = field.slot
            switch (field.kind, value) {
            case (.collection, _):
                try valueCodec.encodeField(value, of: field.property, in: "Root", into: &sink)
            case (_, .null): sink.writeNull(slot)
            case (.integer, .int(let number)): sink.writeInteger(slot, number)
            case (.double, .double(let number)): sink.writeDouble(slot, number)
            case (.float, .float(let number)): sink.writeFloat(slot, number)
            case (.bool, .bool(let flag)): sink.writeBool(slot, flag)
            case (.date, .date(let date)): sink.writeDate(slot, date)
            case (.string, .string(let text)): sink.writeString(slot, text)
            case (.data, .data(let data)): sink.writeData(slot, data)
            case (.uuid, .uuid(let uuid)): sink.writeUUID(slot, uuid)
            case (.link, .link(_, let key)): sink.writeLink(slot, key)
            default: try valueCodec.encodeField(value, of: field.property, in: "Root", into: &sink)
            }
        }
    }
}
