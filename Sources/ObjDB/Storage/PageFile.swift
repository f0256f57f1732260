import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An LMDB data file read with `pread`, for the checks that must not trust it.
///
/// LMDB reads its file through a memory map: a page number past the end of a
/// truncated file is a `SIGBUS`, and a damaged offset inside a page reads
/// whatever lies there. Here every read is bounds-checked against the file's
/// size and answers `nil` instead, so a check can say what is wrong.
///
/// Closing this descriptor is safe for LMDB: its `fcntl` locks are on the lock
/// file, never on the data file.
final class PageFile {
    let path: String
    /// The file's size in bytes when last looked at: a live store only grows (LMDB never
    /// shortens its file), so reads past it look again before they answer `nil`.
    private(set) var size: Int
    private let descriptor: Int32

    init(path: String) throws(ObjDBError) {
        self.path = path
        // Non-blocking: opening a named pipe would otherwise wait for a writer (it is refused below).
        descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            throw errno == ENOENT
                ? .storeNotFound(path: path) : .lmdb(LMDBResultCode(rawValue: errno), operation: "open", path: path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw .lmdb(LMDBResultCode(rawValue: code), operation: "fstat", path: path)
        }
        if let problem = FileKind.problem(mode: status.st_mode) {
            close(descriptor)
            throw .notAnObjDBStore(path: path, reason: problem)
        }
        size = Int(status.st_size)
    }

    deinit {
        close(descriptor)
    }

    /// Looks at the file's size again: a writer in another process may have extended it.
    func refreshSize() {
        var status = stat()
        if fstat(descriptor, &status) == 0 { size = Int(status.st_size) }
    }

    /// `count` bytes at `offset`, or `nil` when any of them lies past the end of the file.
    func read(offset: Int, count: Int) -> [UInt8]? {
        guard offset >= 0, count >= 0 else { return nil }
        if count > size || offset > size - count { refreshSize() }
        guard count <= size, offset <= size - count else { return nil }
        // Uninitialised: every byte is read before the array is used, or the array is dropped.
        var complete = true
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let got = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if got < 0, errno == EINTR { continue }
                guard got > 0 else { break }
                done += got
            }
            complete = done == count
            // Only a fully read buffer is kept; a short one is zeroed so that the array is never uninitialised.
            if !complete { buffer.initialize(repeating: 0) }
            initialized = count
        }
        return complete ? bytes : nil
    }
}

/// Little-endian reads of LMDB's native-order fields (x86-64 and arm64 are little-endian),
/// bounds-checked: a field that does not fit reads as `nil`.
extension Array where Element == UInt8 {
    func uint16(at offset: Int) -> Int? {
        guard offset >= 0, offset <= count - 2 else { return nil }
        return Int(self[offset]) | Int(self[offset + 1]) << 8
    }

    func uint32(at offset: Int) -> Int? {
        guard offset >= 0, offset <= count - 4 else { return nil }
        var value = 0
        for index in (0..<4).reversed() { value = value << 8 | Int(self[offset + index]) }
        return value
    }

    /// A 64-bit field; `UInt64` because page numbers and sizes may be damaged to anything.
    func uint64(at offset: Int) -> UInt64? {
        guard offset >= 0, offset <= count - 8 else { return nil }
        var value: UInt64 = 0
        for index in (0..<8).reversed() { value = value << 8 | UInt64(self[offset + index]) }
        return value
    }
}
