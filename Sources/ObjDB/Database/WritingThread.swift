import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which thread holds an environment's write transaction, so a second write on the same thread
/// fails at once instead of waiting for itself.
///
/// Kept in the environment itself, one atomic word: asked three times per write, a lock and a
/// dictionary of environments cost more than a small write's own bookkeeping. Only the thread
/// that writes stores its ID, and a thread only asks whether the ID is its own, so no ordering
/// is needed beyond the atomic access.
enum WritingThread {
    static func isWriting(_ environment: Environment) -> Bool {
        environment.writingThread.load(ordering: .relaxed) == current
    }

    static func enter(_ environment: Environment) {
        environment.writingThread.store(current, ordering: .relaxed)
    }

    static func leave(_ environment: Environment) {
        environment.writingThread.store(0, ordering: .relaxed)
    }

    /// The calling thread's ID (never 0).
    private static var current: UInt {
        #if canImport(Glibc)
            pthread_self()
        #else
            UInt(bitPattern: pthread_self())
        #endif
    }
}
