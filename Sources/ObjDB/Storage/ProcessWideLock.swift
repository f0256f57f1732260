#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value shared by every thread of the process (a `static let`), guarded by a pthread mutex.
///
/// `Synchronization.Mutex` held in a global or static makes ThreadSanitizer report a "Swift access
/// race" on every `withLock`: each call is a modify access to the global, which TSan's exclusivity
/// instrumentation sees from many threads at once and cannot know is serialized. The reports are
/// false, but they would hide a real one, so process-wide state uses this lock, whose
/// `pthread_mutex_lock`/`unlock` ThreadSanitizer models; the global itself is only ever read.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, under `mutex`.
final class ProcessWideLock<Value>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    init(_ value: Value) {
        self.value = value
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, while no other thread can.
    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
