#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Numbers the ``Persisted`` properties of an object as its initializer creates them.
///
/// Swift runs the initializers of an object's stored properties in a fixed
/// order, then `ObjectBase.init()`. Each `Persisted` takes the next number of
/// this thread's counter; `ObjectBase.init()` resets it for the next object. The
/// number is how a property finds its schema entry without reflection on every access.
@usableFromInline
enum PropertyOrdinal {
    @usableFromInline
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The next number on this thread.
    @inlinable
    static func next() -> Int {
        let current = Int(bitPattern: pthread_getspecific(key))
        pthread_setspecific(key, UnsafeRawPointer(bitPattern: current + 1))
        return current
    }

    /// Starts numbering anew, for the next object.
    static func reset() {
        pthread_setspecific(key, nil)
    }
}
