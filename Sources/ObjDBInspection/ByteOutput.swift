import Foundation

/// A buffered writer of bytes to a file descriptor: the inspector's encoders append to it
/// directly, and it writes in blocks of `capacity` bytes.
///
/// A write that fails is remembered; ``flush()`` throws it, and later writes are dropped.
package final class ByteOutput {
    private let descriptor: Int32
    private let closesDescriptor: Bool
    private let capacity: Int
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    private var failure: Int32?
    /// The file written to, for messages.
    package let name: String
    /// Bytes written so far, including those still buffered.
    package private(set) var bytesWritten = 0

    /// A writer to `descriptor`, which it closes when released if `closing`.
    package init(descriptor: Int32, name: String, closing: Bool = false, capacity: Int = 1 << 16) {
        self.descriptor = descriptor
        self.name = name
        self.closesDescriptor = closing
        self.capacity = capacity
        buffer = .allocate(capacity: capacity)
    }

    /// A writer to standard output.
    package static func standardOutput() -> ByteOutput {
        ByteOutput(descriptor: STDOUT_FILENO, name: "standard output")
    }

    /// A writer to a new (or truncated) file at `path`.
    ///
    /// - Throws: ``OutputError`` saying in plain words why the file cannot be created.
    package static func file(atPath path: String) throws -> ByteOutput {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputError(path: path, code: errno, action: "create") }
        return ByteOutput(descriptor: descriptor, name: path, closing: true)
    }

    deinit {
        try? flush()
        if closesDescriptor { close(descriptor) }
        buffer.deallocate()
    }

    /// Appends `bytes`.
    @inline(__always)
    package func write(_ bytes: UnsafeRawBufferPointer) {
        guard bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            drain()
            if bytes.count > capacity {
                writeOut(bytes)
                return
            }
        }
        (buffer + count).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        count += bytes.count
        bytesWritten += bytes.count
    }

    /// Appends one byte.
    @inline(__always)
    package func write(_ byte: UInt8) {
        if count == capacity { drain() }
        buffer[count] = byte
        count += 1
        bytesWritten += 1
    }

    /// Appends the UTF-8 of `text`.
    @inline(__always)
    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Appends the UTF-8 of a literal.
    @inline(__always)
    package func write(_ text: StaticString) {
        write(UnsafeRawBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Appends `bytes`.
    package func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Writes out what is buffered.
    ///
    /// - Throws: ``OutputError`` when a write failed (a full disk, a closed pipe).
    package func flush() throws {
        drain()
        if let failure { throw OutputError(path: name, code: failure, action: "write") }
    }

    private func drain() {
        guard count > 0 else { return }
        writeOut(UnsafeRawBufferPointer(start: buffer, count: count))
        count = 0
    }

    private func writeOut(_ bytes: UnsafeRawBufferPointer) {
        guard failure == nil else { return }
        var offset = 0
        while offset < bytes.count {
            let written = Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return
            }
            offset += written
        }
        if bytes.baseAddress != UnsafeRawPointer(buffer) { bytesWritten += bytes.count }
    }
}

/// A file that cannot be created or written, in plain words: `cannot create out/x.ndjson: no such directory`.
package struct OutputError: Error, CustomStringConvertible {
    /// The file.
    package let path: String
    /// The `errno` value.
    package let code: Int32
    /// `create` or `write`.
    package let action: String

    package var description: String {
        "cannot \(action) \(path): \(Self.reason(code, path: path))"
    }

    /// `strerror`'s text, lower-cased, with the directory named when it is the one missing.
    package static func reason(_ code: Int32, path: String) -> String {
        if code == ENOENT {
            let directory = (path as NSString).deletingLastPathComponent
            return "the directory \(directory.isEmpty ? "." : directory) does not exist"
        }
        let text = String(cString: strerror(code))
        return text.prefix(1).lowercased() + text.dropFirst()
    }
}
