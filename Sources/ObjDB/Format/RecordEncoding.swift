import Foundation

/// Where a record's fields go, one slot at a time in increasing slot order: each field is
/// begun (or set to `nil`), then its bytes appended. Slots never begun are absent.
///
/// ``RecordSize`` measures, ``RecordEncoder`` writes in place, ``RecordWriter`` builds an array;
/// the same encoding calls drive all three, so a measured size is the size written.
protocol FieldSink: ByteSink {
    /// Starts the field of `slot`; its bytes are appended next.
    mutating func beginField(_ slot: Int)
    /// Stores `nil` for `slot`.
    mutating func setNull(_ slot: Int)
}

/// The first pass of encoding a record: the fields are "written" to it to learn the record's
/// exact size, so that the second pass (``RecordEncoder``) can write into space of that size,
/// such as what `put(reserving:)` reserved in the map. It allocates nothing.
///
/// ```swift
/// var size = RecordSize(slotCount: codec.slotCount)
/// size.writeInteger(0, tweet.id)
/// size.writeString(1, tweet.text)
/// try transaction.put(reserving: size.byteCount, forKey: key, in: table) { buffer in
///     var encoder = RecordEncoder(into: buffer, size: size)
///     encoder.writeInteger(0, tweet.id)
///     encoder.writeString(1, tweet.text)
///     encoder.finish()
/// }
/// ```
struct RecordSize: FieldSink {
    /// The record's slot count: one more than the highest property ID it may hold.
    let slotCount: Int
    /// The bytes of the fields so far.
    private(set) var dataSize = 0
    private var hasGaps = false
    /// The slot after the last one written.
    private(set) var nextSlot = 0
    /// Whether some slot was written as `nil`.
    private(set) var holdsNull = false

    init(slotCount: Int) {
        precondition(slotCount >= 0, "a record has no fewer than zero slots")
        self.slotCount = slotCount
    }

    @inline(__always)
    mutating func beginField(_ slot: Int) {
        precondition(slot >= nextSlot && slot < slotCount, "fields are written once each, in increasing slot order")
        if slot != nextSlot { hasGaps = true }
        nextSlot = slot + 1
    }

    @inline(__always)
    mutating func setNull(_ slot: Int) {
        beginField(slot)
        hasGaps = true
        holdsNull = true
    }

    /// Adds `count` bytes to the field begun last.
    @inline(__always) mutating func append(count: Int) { dataSize += count }
    @inline(__always) mutating func append(_ byte: UInt8) { dataSize += 1 }
    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) { dataSize += bytes.count }
    @inline(__always) mutating func appendUTF8(_ text: String) { dataSize += text.utf8.count }
    @inline(__always)
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        dataSize += count
    }

    /// Whether the record needs a state table: some slot is `nil` or absent.
    var hasStates: Bool { hasGaps || nextSlot < slotCount }
    /// The width of the record's ends.
    var offsetWidth: Int { RecordLayout.offsetWidth(forDataSize: dataSize) }
    /// The bytes before the data region.
    var headerSize: Int {
        RecordLayout.headerSize(slotCount: slotCount, offsetWidth: offsetWidth, hasStates: hasStates)
    }
    /// The size of the whole record.
    var byteCount: Int { headerSize + dataSize }
    /// Whether the record can be encoded: its data region fits 4-byte ends.
    var isEncodable: Bool { dataSize <= RecordLayout.maximumDataSize }
}

/// The second pass of encoding a record: writes it into a buffer of exactly the size the
/// first pass (``RecordSize``) measured, given the same fields in the same order. The header
/// is written first; each field's end when the next begins. It allocates nothing.
///
/// Writing other fields than were measured is a programming error and stops the program
/// (a precondition), never writes outside the buffer.
struct RecordEncoder: FieldSink {
    private var sink: BufferSink
    private let slotCount: Int
    private let offsetWidth: Int
    private let statesStart: Int
    private let endsStart: Int
    private let dataStart: Int
    private var nextSlot = 0
    /// The slot whose field is being written, or -1.
    private var openSlot = -1

    init(into buffer: UnsafeMutableRawBufferPointer, size: RecordSize) {
        precondition(buffer.count == size.byteCount, "the buffer is not the size measured for the record")
        precondition(size.isEncodable, "a record's fields are limited to 4 GiB")
        slotCount = size.slotCount
        offsetWidth = size.offsetWidth
        let hasStates = size.hasStates
        buffer[0] = RecordLayout.version
        buffer[1] = UInt8(offsetWidth - 1) | (hasStates ? RecordLayout.hasStatesFlag : 0)
        var header = BufferSink(buffer, at: 2)
        VarUInt.append(slotCount, to: &header)
        if hasStates {
            statesStart = header.position
            let stateBytes = (slotCount + 3) / 4
            UnsafeMutableRawBufferPointer(rebasing: buffer[statesStart..<statesStart + stateBytes]).initializeMemory(
                as: UInt8.self, repeating: 0)
            endsStart = statesStart + stateBytes
        } else {
            statesStart = 0
            endsStart = header.position
        }
        dataStart = size.headerSize
        sink = BufferSink(buffer, at: dataStart)
    }

    @inline(__always)
    mutating func beginField(_ slot: Int) {
        precondition(slot >= nextSlot && slot < slotCount, "fields are written once each, in increasing slot order")
        closeFields(before: slot)
        openSlot = slot
        nextSlot = slot + 1
    }

    @inline(__always)
    mutating func setNull(_ slot: Int) {
        beginField(slot)
        setState(slot, RecordLayout.null)
    }

    @inline(__always) mutating func append(_ byte: UInt8) { sink.append(byte) }
    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) { sink.append(bytes) }
    @inline(__always) mutating func appendUTF8(_ text: String) { sink.appendUTF8(text) }
    @inline(__always)
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        try sink.appendInPlace(count, fill)
    }

    /// An encoder of one field's bytes only, into `buffer` (exactly their length), for a record
    /// patched in place (``RecordEdit``): the field must be `slot`'s, and not `nil`.
    init(into buffer: UnsafeMutableRawBufferPointer, fieldOf slot: Int) {
        slotCount = slot + 1
        offsetWidth = 0
        statesStart = 0
        endsStart = 0
        dataStart = 0
        nextSlot = slot
        sink = BufferSink(buffer, at: 0)
    }

    /// Checks that the one field of ``init(into:fieldOf:)`` filled its buffer.
    func finishField() {
        precondition(sink.position == sink.buffer.count, "the field's length differs from the one measured")
    }

    /// Marks the slots not written as absent, and checks that the record is complete.
    mutating func finish() {
        closeFields(before: slotCount)
        openSlot = -1
        nextSlot = slotCount
        precondition(sink.position == sink.buffer.count, "the record's fields are shorter than measured")
    }

    /// Ends the open field and the absent ones after it, up to `slot`, where the data is now.
    @inline(__always)
    private func closeFields(before slot: Int) {
        let offset = sink.position - dataStart
        if openSlot >= 0 { setEnd(openSlot, offset) }
        var next = nextSlot
        while next < slot {
            setState(next, RecordLayout.absent)
            setEnd(next, offset)
            next += 1
        }
    }

    @inline(__always)
    private func setEnd(_ slot: Int, _ offset: Int) {
        var position = endsStart + slot * offsetWidth
        var rest = offset
        for _ in 0..<offsetWidth {
            sink.buffer[position] = UInt8(truncatingIfNeeded: rest)
            rest >>= 8
            position += 1
        }
    }

    @inline(__always)
    private func setState(_ slot: Int, _ state: UInt8) {
        precondition(statesStart != 0, "a nil or absent slot was not measured")
        sink.buffer[statesStart + slot >> 2] |= state << UInt8((slot & 3) << 1)
    }
}

// MARK: - Typed fields

/// Typed field writes, the same on every sink: measure with them on a ``RecordSize``, then
/// write with the same calls on a ``RecordEncoder``. No `StoredValue` is made.
extension FieldSink {
    /// An integer field of any width (`Int`, `Int8` … `Int64`).
    @inline(__always)
    mutating func writeInteger(_ slot: Int, _ value: Int64) {
        beginField(slot)
        OrderedVarInt.append(value, to: &self)
    }

    @inline(__always)
    mutating func writeBool(_ slot: Int, _ value: Bool) {
        beginField(slot)
        append(value ? 1 : 0)
    }

    @inline(__always)
    mutating func writeDouble(_ slot: Int, _ value: Double) {
        beginField(slot)
        FieldEncoding.appendDouble(value, to: &self)
    }

    @inline(__always)
    mutating func writeFloat(_ slot: Int, _ value: Float) {
        beginField(slot)
        appendLittleEndian(value.bitPattern)
    }

    @inline(__always)
    mutating func writeDate(_ slot: Int, _ value: Date) {
        writeDouble(slot, value.timeIntervalSinceReferenceDate)
    }

    @inline(__always)
    mutating func writeString(_ slot: Int, _ value: String) {
        beginField(slot)
        appendUTF8(value)
    }

    /// A `String` (its UTF-8) or `Data` field from bytes.
    @inline(__always)
    mutating func writeBytes(_ slot: Int, _ bytes: UnsafeRawBufferPointer) {
        beginField(slot)
        append(bytes)
    }

    @inline(__always)
    mutating func writeData(_ slot: Int, _ data: Data) {
        beginField(slot)
        data.withUnsafeBytes { append($0) }
    }

    @inline(__always)
    mutating func writeUUID(_ slot: Int, _ value: UUID) {
        beginField(slot)
        withUnsafeBytes(of: value.uuid) { append($0) }
    }

    /// A link field: the linked object's table key.
    @inline(__always)
    mutating func writeLink(_ slot: Int, _ key: ObjectKey) {
        beginField(slot)
        ObjectKeyCodec.append(key, to: &self)
    }

    @inline(__always)
    mutating func writeNull(_ slot: Int) {
        setNull(slot)
    }
}
