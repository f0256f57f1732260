/// Where the inspector's text encoders (JSON, CSV, table cells) write: a buffered file (``ByteOutput``) or bytes kept in memory (``ByteBuffer``).
package protocol TextSink: AnyObject {
    /// Appends one byte.
    func write(_ byte: UInt8)
    /// Appends `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer)
}

extension ByteOutput: TextSink {}

/// Bytes kept in memory: a table cell, a line being built.
package final class ByteBuffer: TextSink {
    /// What was written.
    package var bytes: [UInt8] = []

    package init() {}

    @inline(__always)
    package func write(_ byte: UInt8) { bytes.append(byte) }

    @inline(__always)
    package func write(_ bytes: UnsafeRawBufferPointer) { self.bytes.append(contentsOf: bytes) }

    /// Forgets what was written, keeping the capacity.
    package func removeAll() { bytes.removeAll(keepingCapacity: true) }

    /// What was written, as text.
    package var text: String { String(decoding: bytes, as: UTF8.self) }
}

extension TextSink {
    /// Appends the UTF-8 of a literal.
    @inline(__always)
    func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends the UTF-8 of `text` (no copy when it is small or native).
    @inline(__always)
    func write(string text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends an integer's decimal digits.
    @inline(__always)
    func write(integer value: Int64) {
        if value >= 0, value < 10 {
            write(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var magnitude = value.magnitude
            var index = 20
            repeat {
                index -= 1
                digits[index] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 { write(UInt8(ascii: "-")) }
            write(UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(digits)[index..<20]))
        }
    }

    /// Appends an unsigned integer's decimal digits.
    func write(unsigned value: UInt64) {
        if value <= UInt64(Int64.max) {
            write(integer: Int64(value))
        } else {
            write(string: String(value))
        }
    }

    /// Appends the shortest decimal text that reads back as exactly `value` (`1.5`, `1e-05`, `nan`).
    @inline(__always)
    func write(double value: Double) {
        // Swift's description is the shortest round-trip form; it fits a small string (no allocation).
        write(string: value.isNaN ? ExactNumberText.text(value) : value.description)
    }

    /// Appends the shortest decimal text that reads back as exactly `value` as a Float.
    @inline(__always)
    func write(float value: Float) {
        write(string: value.isNaN ? ExactNumberText.text(value) : value.description)
    }
}
