#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Which environments the current thread holds the write transaction of, so a
/// second write on the same thread fails at once instead of waiting for itself.
enum WritingThread {
    private static let holders = Lock<[ObjectIdentifier: pthread_t]>([:])

    static func isWriting(_ environment: Environment) -> Bool {
        holders.withLock { holders in
            holders[ObjectIdentifier(environment)].map { pthread_equal($0, pthread_self()) != 0 } ?? false
        }
    }

    static func enter(_ environment: Environment) {
        holders.withLock { $0[ObjectIdentifier(environment)] = pthread_self() }
    }

    static func leave(_ environment: Environment) {
        holders.withLock { $0[ObjectIdentifier(environment)] = nil }
    }
}
