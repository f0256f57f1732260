import Foundation

/// The byte layout of an object record (format 2): a short header, the slot table, then the
/// fields' bytes.
///
/// ```
/// offset 0   u8           record version (2)
/// offset 1   u8           layout: bits 0–1 = offset width w − 1 (w = 1…4 bytes);
///                         bit 2 = a state table follows; bits 3–7 are 0
/// offset 2   LEB128       slot count n (slot i holds property ID i)
///            ⌈n/4⌉ bytes  only with bit 2: 2 bits per slot, slot i at bits 2(i mod 4) of byte i/4:
///                         0 present, 1 nil, 2 absent (3 is damage)
///            n × w        ends, little-endian: end i is where field i ends in the data region
///            …            data: the fields' bytes, in slot order, end to end
/// ```
///
/// Field i spans from end i − 1 (0 for field 0) to end i, so any field is found in constant
/// time from two entries. A `nil` or absent slot has an empty field. The last end is the size
/// of the data region, so a record cut short or lengthened is refused by the constant-time
/// header check. Records whose every slot holds a value have no state table.
///
/// Invariants: ends never decrease, and the last equals the data region's size;
/// ``RecordReader/init(validating:)`` checks both (and every state) before any field is read,
/// ``RecordReader/init(header:)`` checks that the tables fit and the last end, and bounds-checks
/// each field as it is read, so a damaged record is an error or reads as absent, never a crash.
enum RecordLayout {
    static let version: UInt8 = 2
    /// Version, layout and a one-byte slot count: the shortest record (no slots).
    static let minimumSize = 3
    static let widthMask: UInt8 = 0b0000_0011
    static let hasStatesFlag: UInt8 = 0b0000_0100
    static let knownLayoutBits: UInt8 = 0b0000_0111
    /// The slot states of the state table.
    static let present: UInt8 = 0
    static let null: UInt8 = 1
    static let absent: UInt8 = 2

    /// The width of the ends for a data region of `size` bytes: the fewest bytes that hold `size`.
    @inline(__always)
    static func offsetWidth(forDataSize size: Int) -> Int {
        size <= 0xFF ? 1 : size <= 0xFFFF ? 2 : size <= 0xFF_FFFF ? 3 : 4
    }

    /// The bytes before the data region.
    @inline(__always)
    static func headerSize(slotCount: Int, offsetWidth: Int, hasStates: Bool) -> Int {
        2 + VarUInt.length(of: slotCount) + (hasStates ? (slotCount + 3) / 4 : 0) + slotCount * offsetWidth
    }

    /// The largest data region a record can have (4-byte ends).
    static let maximumDataSize = Int(UInt32.max)
}

/// One field of a record, as a reader finds it.
package enum RecordField {
    /// The record predates the property: use its default.
    case absent
    /// The value is `nil`.
    case null
    /// The field's bytes, in the record (no copy).
    case bytes(UnsafeRawBufferPointer)
}

/// What is wrong with a damaged record.
enum RecordDamage: Error, Equatable, CustomStringConvertible {
    case tooShort(count: Int)
    case unknownVersion(UInt8)
    case unknownLayout(UInt8)
    case slotTableTooLong(slots: Int, recordSize: Int)
    case unknownSlotState(slot: Int)
    case endBeforeStart(slot: Int)
    case endPastData(slot: Int)
    case sizeMismatch(dataSize: Int, stated: Int)

    var description: String {
        switch self {
        case .tooShort(let count): return "its \(count) bytes end inside the header"
        case .unknownVersion(let version): return "its record version is \(version), not \(RecordLayout.version)"
        case .unknownLayout(let layout): return "its layout byte \(layout) sets unknown bits"
        case .slotTableTooLong(let slots, let size): return "its table of \(slots) slots does not fit in \(size) bytes"
        case .unknownSlotState(let slot): return "slot \(slot) has an unknown state"
        case .endBeforeStart(let slot): return "field \(slot) ends before it starts"
        case .endPastData(let slot): return "field \(slot) ends past the end of the record"
        case .sizeMismatch(let size, let stated):
            return "its fields take \(size) bytes, but its slot table says \(stated): it was cut short or lengthened"
        }
    }
}

/// Reads fields of one record in place.
package struct RecordReader {
    /// The whole record.
    let record: UnsafeRawBufferPointer
    /// The number of slots: property IDs at and above it read as absent.
    let slotCount: Int
    private let offsetWidth: Int
    /// Where the state table starts, or 0 when the record has none.
    private let statesStart: Int
    private let endsStart: Int
    private let dataStart: Int

    /// A record with no slots: every field reads as absent. It stands in for a damaged record.
    // nonisolated(unsafe) because the three bytes are written once, never changed and never freed.
    nonisolated(unsafe) static let empty: RecordReader = {
        let bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: RecordLayout.minimumSize, alignment: 8)
        bytes.copyBytes(from: [RecordLayout.version, 0, 0])
        return RecordReader(header: UnsafeRawBufferPointer(bytes))!
    }()

    /// Checks the header and that the slot table fits, in constant time; each field is
    /// bounds-checked when read, and a damaged one reads as absent. Hot paths use this.
    @inline(__always)
    package init?(header record: UnsafeRawBufferPointer) {
        guard let reader = try? RecordReader(checkingHeader: record) else { return nil }
        self = reader
    }

    /// Checks the record's whole structure; `nil` when it is damaged.
    package init?(validating record: UnsafeRawBufferPointer) {
        guard let reader = try? RecordReader(checking: record) else { return nil }
        self = reader
    }

    /// What is wrong with `record`, or `nil` when it is a sound record (all of ``init(checking:)``'s checks).
    static func damage(in record: UnsafeRawBufferPointer) -> RecordDamage? {
        do {
            _ = try RecordReader(checking: record)
            return nil
        } catch {
            return error
        }
    }

    /// Checks the record's whole structure, and says what is wrong with a damaged one.
    init(checking record: UnsafeRawBufferPointer) throws(RecordDamage) {
        try self.init(checkingHeader: record)
        if statesStart != 0 {
            for slot in 0..<slotCount where state(slot) > RecordLayout.absent {
                throw .unknownSlotState(slot: slot)
            }
        }
        var previous = 0
        let dataCount = record.count - dataStart
        for slot in 0..<slotCount {
            let end = self.end(slot)
            guard end >= previous else { throw .endBeforeStart(slot: slot) }
            guard end <= dataCount else { throw .endPastData(slot: slot) }
            previous = end
        }
    }

    @inline(__always)
    private init(checkingHeader record: UnsafeRawBufferPointer) throws(RecordDamage) {
        guard record.count >= RecordLayout.minimumSize else { throw .tooShort(count: record.count) }
        guard record[0] == RecordLayout.version else { throw .unknownVersion(record[0]) }
        let layout = record[1]
        guard layout & ~RecordLayout.knownLayoutBits == 0 else { throw .unknownLayout(layout) }
        var offset = 2
        guard let count = VarUInt.read(record, at: &offset) else { throw .tooShort(count: record.count) }
        // A slot count above the record's size cannot fit; checking it first keeps the sums small.
        guard count <= record.count else { throw .slotTableTooLong(slots: count, recordSize: record.count) }
        let width = Int(layout & RecordLayout.widthMask) + 1
        var statesStart = 0
        if layout & RecordLayout.hasStatesFlag != 0 {
            statesStart = offset
            offset += (count + 3) / 4
        }
        let endsStart = offset
        offset += count * width
        guard offset <= record.count else { throw .slotTableTooLong(slots: count, recordSize: record.count) }
        self.record = record
        self.slotCount = count
        self.offsetWidth = width
        self.statesStart = statesStart
        self.endsStart = endsStart
        self.dataStart = offset
        let stated = count == 0 ? 0 : end(count - 1)
        guard stated == record.count - offset else {
            throw .sizeMismatch(dataSize: record.count - offset, stated: stated)
        }
    }

    /// The field of property ID `slot`.
    @inline(__always)
    package func field(_ slot: Int) -> RecordField {
        guard slot >= 0, slot < slotCount else { return .absent }
        if statesStart != 0 {
            let state = self.state(slot)
            if state != RecordLayout.present { return state == RecordLayout.null ? .null : .absent }
        }
        let start = slot == 0 ? 0 : end(slot - 1)
        let end = self.end(slot)
        // A damaged slot table never reads outside the record.
        guard start <= end, end <= record.count - dataStart else { return .absent }
        return .bytes(UnsafeRawBufferPointer(rebasing: record[dataStart + start..<dataStart + end]))
    }

    /// The field's bytes when the record holds a value for `slot`; `nil` when it is absent, `nil` or damaged.
    @inline(__always)
    func bytes(_ slot: Int) -> UnsafeRawBufferPointer? {
        if case .bytes(let bytes) = field(slot) { return bytes }
        return nil
    }

    /// Where field `slot` ends in the data region (0 ≤ slot < slotCount).
    @inline(__always)
    private func end(_ slot: Int) -> Int {
        let offset = endsStart + slot * offsetWidth
        switch offsetWidth {
        case 1:
            return Int(record[offset])
        case 2:
            return Int(UInt16(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt16.self)))
        case 3:
            return Int(record[offset]) | Int(record[offset + 1]) << 8 | Int(record[offset + 2]) << 16
        default:
            return Int(UInt32(littleEndian: record.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
    }

    @inline(__always)
    private func state(_ slot: Int) -> UInt8 {
        (record[statesStart + slot >> 2] >> UInt8((slot & 3) << 1)) & 3
    }
}

/// Builds a record field by field, in increasing slot order, in growing arrays. It suits a
/// record built once in a while (a migration, a query's constant); the write path measures a
/// record first (``RecordSize``) and encodes it in place (``RecordEncoder``).
struct RecordWriter: FieldSink {
    private let slotCount: Int
    private var fieldBytes: [UInt8] = []
    /// Where each slot's field starts in `fieldBytes`, and its state.
    private var starts: [Int]
    private var states: [UInt8]
    private var nextSlot = 0

    init(slotCount: Int) {
        self.slotCount = slotCount
        starts = Array(repeating: 0, count: slotCount)
        states = Array(repeating: RecordLayout.absent, count: slotCount)
    }

    /// Stores `nil` for `slot`.
    mutating func setNull(_ slot: Int) {
        beginField(slot)
        states[slot] = RecordLayout.null
    }

    /// Starts the field of `slot`; append its bytes next.
    mutating func beginField(_ slot: Int) {
        precondition(slot >= nextSlot && slot < slotCount, "fields are written once each, in increasing slot order")
        for skipped in nextSlot...slot { starts[skipped] = fieldBytes.count }
        states[slot] = RecordLayout.present
        nextSlot = slot + 1
    }

    mutating func append(_ byte: UInt8) { fieldBytes.append(byte) }
    mutating func append(_ bytes: UnsafeRawBufferPointer) { fieldBytes.append(contentsOf: bytes) }
    mutating func appendUTF8(_ text: String) { fieldBytes.append(contentsOf: text.utf8) }
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        try fieldBytes.appendInPlace(count, fill)
    }

    /// Appends bytes to the field begun last.
    mutating func append<Bytes: Sequence>(contentsOf more: Bytes) where Bytes.Element == UInt8 {
        fieldBytes.append(contentsOf: more)
    }

    /// The fields' bytes, after the header and slot table.
    var data: ArraySlice<UInt8> { fieldBytes[...] }

    /// The finished record.
    func finish() -> [UInt8] {
        var size = RecordSize(slotCount: slotCount)
        for slot in 0..<slotCount {
            switch states[slot] {
            case RecordLayout.present: size.beginField(slot)
            case RecordLayout.null: size.setNull(slot)
            default: continue
            }
            size.append(count: (slot + 1 < nextSlot ? starts[slot + 1] : fieldBytes.count) - starts[slot])
        }
        return [UInt8](unsafeUninitializedCapacity: size.byteCount) { buffer, initialized in
            var encoder = RecordEncoder(into: UnsafeMutableRawBufferPointer(buffer), size: size)
            for slot in 0..<slotCount {
                switch states[slot] {
                case RecordLayout.present: encoder.beginField(slot)
                case RecordLayout.null: encoder.setNull(slot)
                default: continue
                }
                let end = slot + 1 < nextSlot ? starts[slot + 1] : fieldBytes.count
                fieldBytes[starts[slot]..<end].withUnsafeBytes { encoder.append($0) }
            }
            encoder.finish()
            initialized = buffer.count
        }
    }
}

extension RecordField {
    /// Whether two fields hold the same bytes (or are both absent): the value did not change.
    func hasSameBytes(as other: RecordField) -> Bool {
        switch (self, other) {
        case (.bytes(let left), .bytes(let right)):
            guard left.count == right.count else { return false }
            guard let a = left.baseAddress, let b = right.baseAddress else { return true }
            return memcmp(a, b, left.count) == 0
        case (.absent, .absent), (.null, .null): return true
        default: return false
        }
    }
}
