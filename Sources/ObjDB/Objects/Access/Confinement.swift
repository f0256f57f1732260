import Dispatch
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a view may be used, checked at run time by the calls that touch its snapshot.
///
/// The compiler does most of the work (views and live objects are not `Sendable`); this
/// catches what it cannot see, such as a view smuggled to another thread by unsafe code.
enum Confinement {
    /// A view made for a dispatch queue: used only on it, and notified on it.
    case queue(DispatchQueue, QueueIdentity)
    /// A view made on a thread outside Swift concurrency: used only on it; on the main thread
    /// notifications arrive on the main queue.
    case thread(pthread_t, isMain: Bool)
    /// A view made in a task: the compiler confines it to its isolation domain.
    case isolation

    /// Where a view made here, now, belongs.
    static func current() -> Confinement {
        if withUnsafeCurrentTask(body: { $0 != nil }) && !Thread.isMainThread { return .isolation }
        return .thread(pthread_self(), isMain: Thread.isMainThread)
    }

    /// Whether the caller runs where the view belongs.
    var isCurrent: Bool {
        switch self {
        case .queue(_, let identity): return DispatchQueue.getSpecific(key: QueueIdentity.key) === identity
        case .thread(let thread, _): return pthread_equal(thread, pthread_self()) != 0
        case .isolation: return true
        }
    }

    /// Stops the program when called off the view's thread or queue: a misuse, as in Realm.
    func require(_ operation: String) {
        guard !isCurrent else { return }
        preconditionFailure(
            "\(operation) was called off the view's own \(ownerDescription); a view and its objects belong to it "
                + "(pass a ThreadSafeReference or a frozen snapshot instead).")
    }

    /// Where the view belongs, for messages.
    var ownerDescription: String {
        switch self {
        case .queue(let queue, _): return "queue \(queue.label)"
        case .thread(_, let isMain): return isMain ? "main thread" : "thread"
        case .isolation: return "task"
        }
    }

    /// The queue notifications for the view are delivered on, if it has one.
    var deliveryQueue: DispatchQueue? {
        switch self {
        case .queue(let queue, _): return queue
        case .thread(_, let isMain): return isMain ? .main : nil
        case .isolation: return nil
        }
    }
}

/// Marks a dispatch queue so code running on it can tell (`DispatchQueue.getSpecific`).
final class QueueIdentity: Sendable {
    static let key = DispatchSpecificKey<QueueIdentity>()

    /// The identity of `queue`, given to it the first time.
    static func of(_ queue: DispatchQueue) -> QueueIdentity {
        marking.withLock { marked in
            if let known = queue.getSpecific(key: key) { return known }
            let identity = QueueIdentity()
            queue.setSpecific(key: key, value: identity)
            marked += 1
            return identity
        }
    }

    /// Serializes the first marking of a queue; counts the queues marked. (A lock around a value
    /// of no size gave TSan an address past the object to watch, and false reports.)
    private static let marking = Lock(0)
}
