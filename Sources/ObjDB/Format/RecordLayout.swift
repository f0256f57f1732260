/// The byte layout of an object record: a table of slots, one per property ID,
/// then the fields' bytes.
///
/// ```
/// offset 0   u8        record version (1)
/// offset 1   u8        flags (0)
/// offset 2   u16 LE    slot count n
/// offset 4   n × u32 LE  slot entries, slot i for property ID i
/// 4 + 4n     …         data: the fields' bytes, in slot order
/// ```
///
/// A slot entry is `0xFFFF_FFFF` when the record holds no value for the
/// property (it was added after the record was written: the reader uses the
/// property's default), `0x8000_0000 | offset` when the value is `nil`, and
/// otherwise the offset of the field in the data region. A field ends where
/// the next present or `nil` slot's field starts, or at the end of the record.
///
/// Invariants: offsets never decrease with the slot index, and every offset
/// lies within the data region. ``RecordReader/init(validating:)`` checks both
/// before any field is read, so a damaged record is an error, never a crash.
enum RecordLayout {
    static let version: UInt8 = 1
    static let headerSize = 4
    static let absent: UInt32 = 0xFFFF_FFFF
    static let nullFlag: UInt32 = 0x8000_0000
}

/// One field of a record, as a reader finds it.
enum RecordField {
    /// The record predates the property: use its default.
    case absent
    /// The value is `nil`.
    case null
    /// The field's bytes, in the record (no copy).
    case bytes(UnsafeRawBufferPointer)
}

/// Reads fields of one record in place.
struct RecordReader {
    let record: UnsafeRawBufferPointer
    let slotCount: Int

    /// A record with no slots: every field reads as absent. It stands in for a damaged record.
    // nonisolated(unsafe) because the four bytes are written once, never changed and never freed.
    nonisolated(unsafe) static let empty: RecordReader = {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: RecordLayout.headerSize, alignment: 8)
        bytes.copyBytes(from: [RecordLayout.version, 0, 0, 0])
        return RecordReader(header: UnsafeRawBufferPointer(bytes))!
    }()

    /// Checks the header and that the slot table fits, in constant time; each field is
    /// bounds-checked when read, and a damaged one reads as absent. Hot paths use this.
    init?(header record: UnsafeRawBufferPointer) {
        guard record.count >= RecordLayout.headerSize, record[0] == RecordLayout.version else { return nil }
        let count = Int(UInt16(littleEndian: record.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        guard RecordLayout.headerSize + 4 * count <= record.count else { return nil }
        self.record = record
        self.slotCount = count
    }

    /// Checks the record's whole structure; `nil` when it is damaged.
    init?(validating record: UnsafeRawBufferPointer) {
        guard record.count >= RecordLayout.headerSize, record[0] == RecordLayout.version else { return nil }
        let count = Int(UInt16(littleEndian: record.loadUnaligned(fromByteOffset: 2, as: UInt16.self)))
        let dataStart = RecordLayout.headerSize + 4 * count
        guard dataStart <= record.count else { return nil }
        var previous: UInt32 = 0
        for slot in 0..<count {
            let entry = UInt32(
                littleEndian: record.loadUnaligned(fromByteOffset: RecordLayout.headerSize + 4 * slot, as: UInt32.self))
            if entry == RecordLayout.absent { continue }
            let offset = entry & ~RecordLayout.nullFlag
            guard offset >= previous, dataStart + Int(offset) <= record.count else { return nil }
            previous = offset
        }
        self.record = record
        self.slotCount = count
    }

    /// The field of property ID `slot`.
    @inline(__always)
    func field(_ slot: Int) -> RecordField {
        guard slot < slotCount else { return .absent }
        let entry = self.entry(slot)
        if entry == RecordLayout.absent { return .absent }
        if entry & RecordLayout.nullFlag != 0 { return .null }
        let dataStart = RecordLayout.headerSize + 4 * slotCount
        let start = dataStart + Int(entry)
        var end = record.count
        var next = slot + 1
        while next < slotCount {
            let following = self.entry(next)
            if following != RecordLayout.absent {
                end = dataStart + Int(following & ~RecordLayout.nullFlag)
                break
            }
            next += 1
        }
        // A damaged slot table never reads outside the record.
        guard start <= end, end <= record.count else { return .absent }
        return .bytes(UnsafeRawBufferPointer(rebasing: record[start..<end]))
    }

    @inline(__always)
    private func entry(_ slot: Int) -> UInt32 {
        UInt32(littleEndian: record.loadUnaligned(fromByteOffset: RecordLayout.headerSize + 4 * slot, as: UInt32.self))
    }
}

/// Builds a record field by field, in increasing slot order, in one buffer: the header and slot
/// table first (patched as fields begin), the fields after.
struct RecordWriter {
    /// The record so far; fields are appended to it directly.
    var bytes: [UInt8]
    private let slotCount: Int
    private let dataStart: Int

    init(slotCount: Int) {
        self.slotCount = slotCount
        dataStart = RecordLayout.headerSize + 4 * slotCount
        bytes = [UInt8](repeating: 0xFF, count: dataStart)
        bytes.reserveCapacity(dataStart + 64)
        bytes[0] = RecordLayout.version
        bytes[1] = 0
        bytes[2] = UInt8(truncatingIfNeeded: slotCount)
        bytes[3] = UInt8(truncatingIfNeeded: slotCount >> 8)
    }

    /// Stores `nil` for `slot`.
    mutating func setNull(_ slot: Int) {
        setEntry(slot, RecordLayout.nullFlag | UInt32(bytes.count - dataStart))
    }

    /// Starts the field of `slot`; append its bytes to ``bytes`` next.
    mutating func beginField(_ slot: Int) {
        setEntry(slot, UInt32(bytes.count - dataStart))
    }

    /// Appends bytes to the field begun last.
    mutating func append<Bytes: Sequence>(contentsOf more: Bytes) where Bytes.Element == UInt8 {
        bytes.append(contentsOf: more)
    }

    /// The fields' bytes, after the header and slot table.
    var data: ArraySlice<UInt8> { bytes[dataStart...] }

    /// The finished record.
    func finish() -> [UInt8] {
        bytes
    }

    private mutating func setEntry(_ slot: Int, _ entry: UInt32) {
        let offset = RecordLayout.headerSize + 4 * slot
        bytes[offset] = UInt8(truncatingIfNeeded: entry)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: entry >> 8)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: entry >> 16)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: entry >> 24)
    }
}

extension RecordField {
    /// Whether two fields hold the same bytes (or are both absent): the value did not change.
    func hasSameBytes(as other: RecordField) -> Bool {
        switch (self, other) {
        case (.bytes(let left), .bytes(let right)): return left.elementsEqual(right)
        case (.absent, .absent), (.null, .null): return true
        default: return false
        }
    }
}
