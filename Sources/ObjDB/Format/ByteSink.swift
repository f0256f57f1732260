import Foundation

/// Where encoders put bytes: a counter (to learn a size before writing), a growing array, or a
/// fixed buffer such as the space LMDB reserved for a record (`MDB_RESERVE`).
///
/// Encoders are generic over their sink, so the one encoding function that writes a value also
/// measures it: a record's size and its bytes cannot disagree.
protocol ByteSink {
    /// Appends one byte.
    mutating func append(_ byte: UInt8)
    /// Appends `bytes`.
    mutating func append(_ bytes: UnsafeRawBufferPointer)
    /// Appends the UTF-8 of `text`.
    mutating func appendUTF8(_ text: String)
    /// Appends `count` bytes that `fill` writes in place (a counter does not call it).
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows
}

extension ByteSink {
    /// Appends the bytes of `array`.
    @inline(__always)
    mutating func appendBytes(_ array: [UInt8]) {
        array.withUnsafeBytes { append($0) }
    }

    /// Appends `value` in little-endian byte order.
    @inline(__always)
    mutating func appendLittleEndian<Integer: FixedWidthInteger>(_ value: Integer) {
        withUnsafeBytes(of: value.littleEndian) { append($0) }
    }
}

/// Counts bytes without storing them.
struct ByteCounter: ByteSink {
    private(set) var count = 0

    @inline(__always) mutating func append(_ byte: UInt8) { count += 1 }
    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) { count += bytes.count }
    @inline(__always) mutating func appendUTF8(_ text: String) { count += text.utf8.count }
    @inline(__always)
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        self.count += count
    }
}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always) mutating func append(_ bytes: UnsafeRawBufferPointer) { append(contentsOf: bytes) }
    @inline(__always) mutating func appendUTF8(_ text: String) { append(contentsOf: text.utf8) }

    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        let start = self.count
        append(contentsOf: repeatElement(0, count: count))
        try withUnsafeMutableBytes { try fill(UnsafeMutableRawBufferPointer(rebasing: $0[start..<start + count])) }
    }
}

/// Writes into a fixed buffer, front to back. Writing past its end is a programming error (the
/// size was measured wrong) and stops the program rather than overrun the memory.
struct BufferSink: ByteSink {
    let buffer: UnsafeMutableRawBufferPointer
    /// The bytes written so far.
    private(set) var position: Int

    init(_ buffer: UnsafeMutableRawBufferPointer, at position: Int = 0) {
        self.buffer = buffer
        self.position = position
    }

    @inline(__always)
    mutating func append(_ byte: UInt8) {
        precondition(position < buffer.count, "an encoder wrote past the size it measured")
        buffer[position] = byte
        position += 1
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count <= buffer.count - position, "an encoder wrote past the size it measured")
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        (buffer.baseAddress! + position).copyMemory(from: source, byteCount: bytes.count)
        position += bytes.count
    }

    @inline(__always)
    mutating func appendUTF8(_ text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        if copied == nil {
            for byte in text.utf8 { append(byte) }
        }
    }

    @inline(__always)
    mutating func appendInPlace(_ count: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) rethrows {
        precondition(count >= 0 && count <= buffer.count - position, "an encoder wrote past the size it measured")
        try fill(UnsafeMutableRawBufferPointer(rebasing: buffer[position..<position + count]))
        position += count
    }
}
