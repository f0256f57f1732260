import Foundation
import Testing

@testable import ObjDB

/// Records of plain scalars, strings and data are written without the schema's property
/// descriptions (the add path's fast encoding); the bytes are those the schema-driven
/// encoding writes.
@Suite("Record codec: records of scalars")
struct ScalarRecordTests {
    static let scalarTypes: [PropertyType] = [.bool, .int, .int64, .float, .double, .string, .data, .date, .uuid]

    @Test(arguments: 0..<8 as Range<UInt64>)
    func aRecordOfScalarsIsWrittenAsTheSchemaDrivenEncodingWritesIt(seed: UInt64) throws {
        var records = RandomRecords(seed: seed)
        var properties: [PropertySchema] = []
        var id = UInt16.random(in: 0...2, using: &records.random)
        for _ in 0..<Int.random(in: 1...12, using: &records.random) {
            properties.append(
                PropertySchema(
                    id: id, name: "p\(id)", type: Self.scalarTypes.randomElement(using: &records.random)!,
                    isOptional: Bool.random(using: &records.random)))
            id += UInt16.random(in: 1...3, using: &records.random)
        }
        properties.shuffle(using: &records.random)
        let type = ObjectSchema(name: "Scalars", properties: properties)
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        for _ in 0..<50 {
            let values = properties.map { records.value(of: $0) }
            let expected = try codec.encode(values)
            let size = try codec.size(of: values)
            let written = try [UInt8](unsafeUninitializedCapacity: size.byteCount) { buffer, count in
                try codec.encode(values, into: UnsafeMutableRawBufferPointer(buffer), size: size)
                count = size.byteCount
            }
            #expect(written == expected, "\(values)")
        }
    }

    @Test func aMissingValueOfANonOptionalScalarIsStillRefused() throws {
        let type = ObjectSchema(name: "Scalars", properties: [PropertySchema(id: 0, name: "count", type: .int)])
        let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
        #expect(throws: ObjDBError.missingValue(type: "Scalars", property: "count")) {
            try codec.size(of: [.null])
        }
    }
}
