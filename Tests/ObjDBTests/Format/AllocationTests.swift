import AllocationCounter
import Foundation
import Testing

@testable import ObjDB

/// The codec's hot paths allocate nothing per row: a record measured and encoded into a given
/// buffer with typed writes, typed reads from a record, one field replaced, and keys encoded
/// into reused or stack buffers. The test process counts its heap allocations per thread
/// (`Tests/AllocationCounter`); each body runs once to warm up, then many times counted.
@Suite("Codec hot paths allocate nothing per row", .enabled(if: objdb_allocations_are_counted()))
struct AllocationTests {
    static let rows = 2_000

    /// A tweet as the benchmark stores it.
    static let type = ObjectSchema(
        name: "Tweet",
        properties: [
            PropertySchema(id: 0, name: "id", type: .int64, isPrimaryKey: true),
            PropertySchema(id: 1, name: "userId", type: .int64, index: .regular),
            PropertySchema(id: 2, name: "createdAt", type: .date),
            PropertySchema(id: 3, name: "retweetCount", type: .int),
            PropertySchema(id: 4, name: "text", type: .string),
            PropertySchema(id: 5, name: "lang", type: .string),
            PropertySchema(id: 6, name: "score", type: .double, isOptional: true),
        ])
    let codec = TypeCodec(type: type, schema: SchemaIndex(Schema(version: 0, types: [type])))
    let texts = (0..<rows).map {
        "tweet number \($0), long enough not to fit in a small string: " + String(repeating: "é", count: $0 % 50)
    }

    /// The allocations `body` makes on this thread, after a first run to warm up.
    func allocations(_ body: () throws -> Void) rethrows -> UInt64 {
        try body()
        let before = objdb_thread_allocations()
        try body()
        return objdb_thread_allocations() - before
    }

    func write<Sink: FieldSink>(row: Int, to sink: inout Sink) {
        sink.writeInteger(0, Int64(row) * 7 + 1)
        sink.writeInteger(1, Int64(row % 1_000))
        sink.writeDate(2, Date(timeIntervalSince1970: 1_300_000_000 + Double(row)))
        sink.writeInteger(3, Int64(row % 101))
        sink.writeString(4, texts[row])
        sink.writeString(5, row % 10 < 4 ? "en" : "ja")
        if row % 3 == 0 { sink.writeNull(6) } else { sink.writeDouble(6, Double(row) / 3) }
    }

    @Test func theCounterSeesAnAllocation() {
        var kept: [[Int]] = []
        let counted = allocations { kept.append(Array(repeating: 1, count: 100)) }
        #expect(counted >= 1)
    }

    @Test func measuringAndEncodingIntoAGivenBufferAllocatesNothing() {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 4_096, alignment: 8)
        defer { buffer.deallocate() }
        var written = 0
        let counted = allocations {
            for row in 0..<Self.rows {
                var size = codec.recordSize()
                write(row: row, to: &size)
                var encoder = RecordEncoder(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<size.byteCount]), size: size)
                write(row: row, to: &encoder)
                encoder.finish()
                written += size.byteCount
            }
        }
        #expect(counted == 0)
        #expect(written > 0)
    }

    @Test func typedReadsAllocateNothing() throws {
        var records: [[UInt8]] = []
        for row in 0..<Self.rows {
            var writer = RecordWriter(slotCount: codec.slotCount)
            write(row: row, to: &writer)
            records.append(writer.finish())
        }
        var checksum: Int64 = 0
        let counted = allocations {
            // Indexed loops over Int ranges: in a debug build, iterating other sequences allocates.
            for row in 0..<Self.rows {
                records[row].withUnsafeBytes { bytes in
                    guard let reader = RecordReader(header: bytes) else { return }
                    checksum &+= reader.integer(0) ?? 0
                    checksum &+= reader.integer(3) ?? 0
                    checksum &+= Int64(reader.date(2)?.timeIntervalSinceReferenceDate ?? 0)
                    checksum &+= Int64(reader.double(6) ?? 0)
                    checksum &+= Int64(reader.bytes(4)?.count ?? 0)
                    if let lang = reader.bytes(5), lang.elementsEqual("en".utf8) { checksum &+= 1 }
                }
            }
        }
        #expect(counted == 0)
        #expect(checksum != 0)
    }

    @Test func replacingOneFieldAllocatesNothing() throws {
        var writer = RecordWriter(slotCount: codec.slotCount)
        write(row: 5, to: &writer)
        let record = writer.finish()
        var total = 0
        let counted = try record.withUnsafeBytes { bytes in
            let old = try #require(RecordReader(header: bytes))
            return allocations {
                for row in 0..<Self.rows {
                    let count = Int64(row) * 97
                    let edit = RecordEdit(old, slot: 3) { $0.writeInteger(3, count) }
                    withUnsafeTemporaryAllocation(byteCount: edit.byteCount, alignment: 1) { buffer in
                        edit.write(into: buffer) { $0.writeInteger(3, count) }
                        total += buffer.count
                    }
                }
            }
        }
        #expect(counted == 0)
        #expect(total > 0)
    }

    @Test func keysIntoReusedAndStackBuffersAllocateNothing() {
        var tableKey: [UInt8] = []
        var indexKey: [UInt8] = []
        let names = (0..<10).map { ObjectKey.string("a user name longer than fifteen bytes \($0)") }
        var checksum = 0
        let counted = allocations {
            for row in 0..<Self.rows {
                ObjectKeyCodec.encode(.int(Int64(row) * 7 + 1), into: &tableKey)
                IndexKeyCodec.encode(integer: Int64(row % 1_000), into: &indexKey)
                checksum &+= tableKey.count + indexKey.count
                checksum &+= ObjectKeyCodec.withEncoded(.internalID(UInt64(row))) { $0.count }
                checksum &+= ObjectKeyCodec.withEncoded(names[row % 10]) { $0.count }
                if case .int(let id)? = tableKey.withUnsafeBytes({ ObjectKeyCodec.decode($0, primaryKeyType: .int64) })
                {
                    checksum &+= Int(id)
                }
            }
        }
        #expect(counted == 0)
        #expect(checksum != 0)
    }
}
