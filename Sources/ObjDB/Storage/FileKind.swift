#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What kind of file a path names, for the stores' openers: only a regular file can be a store.
///
/// Opening a named pipe for reading waits for a writer, and reading a device may never end (or
/// read nothing), so anything but a regular file is refused before it is opened, with what it is.
enum FileKind {
    /// Why a file of mode `mode` (from `stat`) cannot be a store, or `nil` for a regular file.
    static func problem(mode: mode_t) -> String? {
        switch mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFDIR: return "it is a directory"
        case S_IFIFO: return "it is a named pipe (FIFO), not a file"
        case S_IFCHR: return "it is a character device, not a file"
        case S_IFBLK: return "it is a block device, not a file"
        case S_IFSOCK: return "it is a socket, not a file"
        default: return "it is not a regular file"
        }
    }
}
