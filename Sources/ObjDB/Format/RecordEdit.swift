/// A record with one field replaced, made without decoding or re-encoding the others: the
/// other fields' bytes are copied as they are. It serves an assignment to one property, of any
/// type, whatever the new value's length.
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
    /// The new record's measure.
    let size: RecordSize
    /// The new record's size in bytes.
    var byteCount: Int { size.byteCount }

    /// Measures `old` with the field of `slot` replaced by what `field` writes: one typed
    /// write of `slot` (or `writeNull`) on the sink it is given.
    init(_ old: RecordReader, slot: Int, field: (inout RecordSize) throws -> Void) rethrows {
        precondition(slot >= 0, "a slot is a property ID, which is not negative")
        self.old = old
        self.slot = slot
        var size = RecordSize(slotCount: max(old.slotCount, slot + 1))
        try Self.copyFields(of: old, replacing: slot, into: &size, field: field)
        self.size = size
    }

    /// Writes the new record into `buffer`, of ``byteCount`` bytes; `field` must write what it
    /// wrote when measured.
    func write(into buffer: UnsafeMutableRawBufferPointer, _ field: (inout RecordEncoder) throws -> Void) rethrows {
        if let start = old.record.baseAddress, let target = buffer.baseAddress {
            precondition(
                start + old.record.count <= target || target + buffer.count <= start,
                "a record cannot be edited into memory it occupies")
        }
        var encoder = RecordEncoder(into: buffer, size: size)
        try Self.copyFields(of: old, replacing: slot, into: &encoder, field: field)
        encoder.finish()
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
