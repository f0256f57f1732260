#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value guarded by a pthread mutex: ObjDB's `Mutex`, which ThreadSanitizer can see.
///
/// `Synchronization.Mutex` on Linux locks with atomics and futex calls inside the standard
/// library, which is not built with ThreadSanitizer, so TSan sees none of its ordering: every
/// access to a value it guards, from two threads, is reported as a "Swift access race" (the
/// suite printed eight, from the environment registry and `WritingThread`, and more under the
/// concurrency suite). Those reports are false, but they bury real ones. `pthread_mutex_lock`
/// and `unlock` are intercepted by TSan, so with this lock a report means a real race.
///
/// The API is `Mutex`'s: `Lock(value)` and `withLock { value in … }`.
///
/// `@unchecked Sendable`: `value` is read and written only inside `withLock`, under `mutex`.
package final class Lock<Value: ~Copyable>: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private var value: Value

    package init(_ value: consuming Value) {
        self.value = value
        precondition(pthread_mutex_init(mutex, nil) == 0, "pthread_mutex_init failed")
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, while no other thread can.
    package func withLock<Result: ~Copyable, Failure: Error>(
        _ body: (inout Value) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
