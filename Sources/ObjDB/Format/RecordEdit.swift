/// A record with one field replaced, made without decoding or re-encoding the others: the
/// other fields' bytes are copied as they are. It serves an assignment to one property, of any
/// type, whatever the new value's length; a value as long as the old one is written over a copy
/// of the whole record.
///
/// Measure, then write the new field with the same call on both passes:
///
/// ```swift
/// let edit = RecordEdit(old, slot: slot) { $0.writeInteger(slot, count + 1) }
/// try withUnsafeTemporaryAllocation(byteCount: edit.byteCount, alignment: 1) { buffer in
///     edit.write(into: buffer) { $0.writeInteger(slot, count + 1) }
///     try transaction.put(UnsafeRawBufferPointer(buffer), forKey: key, in: table)
/// }
/// ```
///
/// The buffer must not overlap the old record, and the old record must still be valid when
/// ``write(into:_:)`` runs. So do not write into the space `put(reserving:)` reserves under the
/// old record's own key: LMDB may reuse, move or overwrite the old value there before the
/// reserved space is filled. Write into temporary memory (as above), and put that.
struct RecordEdit {
    let old: RecordReader
    /// The slot replaced.
    let slot: Int
    /// How the new record is made.
    private let plan: Plan
    /// The new record's size in bytes.
    var byteCount: Int {
        switch plan {
        case .copyFields(let size): return size.byteCount
        case .patch: return old.record.count
        }
    }

    /// Measures `old` with the field of `slot` replaced by what `field` writes: one typed
    /// write of `slot` (or `writeNull`) on the sink it is given.
    init(_ old: RecordReader, slot: Int, field: (inout RecordSize) throws -> Void) rethrows {
        precondition(slot >= 0, "a slot is a property ID, which is not negative")
        self.old = old
        self.slot = slot
        // A value as long as the one it replaces (a counter that did not grow a byte) leaves the
        // header, the states and every end as they were: the record is copied whole and patched,
        // where measuring and copying field by field was a third of an update (W7).
        if case .bytes(let oldField) = old.field(slot), let fieldStart = oldField.baseAddress,
            let recordStart = old.record.baseAddress
        {
            var measure = RecordSize(slotCount: slot + 1)
            try field(&measure)
            if measure.nextSlot == slot + 1, !measure.holdsNull, measure.dataSize == oldField.count {
                plan = .patch(offset: fieldStart - recordStart, count: oldField.count)
                return
            }
        }
        var size = RecordSize(slotCount: max(old.slotCount, slot + 1))
        try Self.copyFields(of: old, replacing: slot, into: &size, field: field)
        plan = .copyFields(size)
    }

    /// Writes the new record into `buffer`, of ``byteCount`` bytes; `field` must write what it
    /// wrote when measured.
    func write(into buffer: UnsafeMutableRawBufferPointer, _ field: (inout RecordEncoder) throws -> Void) rethrows {
        if let start = old.record.baseAddress, let target = buffer.baseAddress {
            precondition(
                start + old.record.count <= target || target + buffer.count <= start,
                "a record cannot be edited into memory it occupies")
        }
        switch plan {
        case .copyFields(let size):
            var encoder = RecordEncoder(into: buffer, size: size)
            try Self.copyFields(of: old, replacing: slot, into: &encoder, field: field)
            encoder.finish()
        case .patch(let offset, let count):
            precondition(buffer.count == old.record.count, "the buffer is not the size measured for the record")
            buffer.copyMemory(from: old.record)
            var encoder = RecordEncoder(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[offset..<offset + count]), fieldOf: slot)
            try field(&encoder)
            encoder.finishField()
        }
    }

    /// How an edit makes the new record.
    private enum Plan {
        /// Every field copied, the new one written in its place, into a record of this measure.
        case copyFields(RecordSize)
        /// The old record copied whole, the field's `count` bytes at `offset` written over.
        case patch(offset: Int, count: Int)
    }

    private static func copyFields<Sink: FieldSink>(
        of old: RecordReader, replacing slot: Int, into sink: inout Sink, field: (inout Sink) throws -> Void
    ) rethrows {
        for current in 0..<max(old.slotCount, slot + 1) {
            if current == slot {
                try field(&sink)
                continue
            }
            switch old.field(current) {
            case .absent: continue
            case .null: sink.setNull(current)
            case .bytes(let bytes):
                sink.beginField(current)
                sink.append(bytes)
            }
        }
    }
}
