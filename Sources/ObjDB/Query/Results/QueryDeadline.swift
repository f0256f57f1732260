import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How long a query may run, and what else may stop it: the bound that
/// ``Results/count(deadline:)``, ``Results/evaluated(deadline:)`` and the dynamic API's queries
/// are given.
///
/// ```swift
/// let matches = try view.objects(Tweet.self).filter("text CONTAINS[c] 'swift'")
/// do {
///     let n = try matches.count(deadline: .after(.seconds(2)))
/// } catch ObjDBError.queryTimedOut {
///     // narrow the filter, or use an indexed property
/// }
/// ```
///
/// A query checks its deadline as it reads objects (each candidate of a scan, each object a link,
/// a list or a backlink leads to, each sort key), so it stops within a few hundred objects of the
/// moment, throwing ``ObjDBError/Code/queryTimedOut``; a ``QueryCancellation`` that is cancelled,
/// or the task that runs the query being cancelled, stops it with ``ObjDBError/Code/queryCancelled``.
/// A stopped query changes nothing: the results it was evaluating are as they were.
public struct QueryDeadline: Sendable {
    /// The moment the query must have finished by; `nil` for no time limit.
    public var instant: ContinuousClock.Instant?
    /// A handle another thread cancels to stop the query; `nil` for none.
    public var cancellation: QueryCancellation?

    /// A deadline at `instant` (none when `nil`), also stopped by `cancellation`.
    public init(_ instant: ContinuousClock.Instant?, cancellation: QueryCancellation? = nil) {
        self.instant = instant
        self.cancellation = cancellation
    }

    /// A deadline `timeLimit` from now, also stopped by `cancellation`.
    public static func after(_ timeLimit: Duration, cancellation: QueryCancellation? = nil) -> QueryDeadline {
        QueryDeadline(.now + timeLimit, cancellation: cancellation)
    }

    /// No time limit: the query stops only when `cancellation` is cancelled, or its task is.
    public static func never(cancellation: QueryCancellation? = nil) -> QueryDeadline {
        QueryDeadline(nil, cancellation: cancellation)
    }

    /// Whether the deadline has passed or the query was cancelled, as the query would see it now.
    public var hasExpired: Bool {
        if cancellation?.isCancelled == true || Self.taskIsCancelled { return true }
        return instant.map { ContinuousClock.now >= $0 } ?? false
    }

    static var taskIsCancelled: Bool {
        withUnsafeCurrentTask { $0?.isCancelled ?? false }
    }
}

/// A handle that stops the queries given it, from any thread: what a server cancels when the
/// client that asked went away.
///
/// ```swift
/// let cancellation = QueryCancellation()
/// onDisconnect { cancellation.cancel() }
/// let page = try results.evaluated(deadline: .after(.seconds(5), cancellation: cancellation))
/// ```
public final class QueryCancellation: Sendable {
    private let flag = Atomic<Bool>(false)

    /// A handle not yet cancelled.
    public init() {}

    /// Stops every query given this handle, within a few hundred objects; later queries given it stop at once.
    public func cancel() {
        flag.store(true, ordering: .releasing)
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { flag.load(ordering: .acquiring) }
}

extension ObjDBError.Code {
    /// A query ran past its ``QueryDeadline``; ``ObjDBError/figures`` holds the time it was given
    /// (``ObjDBError/Figure/timeLimit``, in milliseconds) and the objects it had read.
    public static let queryTimedOut = Self(rawValue: "queryTimedOut")
    /// A query was stopped by its ``QueryCancellation``, or by the cancellation of its task.
    public static let queryCancelled = Self(rawValue: "queryCancelled")
}

extension ObjDBError {
    /// ``Code/queryTimedOut``.
    public static let queryTimedOut = Code.queryTimedOut
    /// ``Code/queryCancelled``.
    public static let queryCancelled = Code.queryCancelled

    /// A query on `type` passed its deadline, `timeLimit` milliseconds after it began, having read `objectsRead` objects.
    public static func queryTimedOut(type: String, timeLimit: Int, objectsRead: Int) -> ObjDBError {
        ObjDBError(
            .queryTimedOut,
            "the query on \(type) ran past its time limit (\(timeLimit) ms) after reading \(objectsRead) objects; "
                + "narrow the filter, use an indexed property, or allow more time",
            typeName: type, figures: [.timeLimit: timeLimit, .objectsRead: objectsRead])
    }

    /// A query on `type` was cancelled after reading `objectsRead` objects.
    public static func queryCancelled(type: String, objectsRead: Int) -> ObjDBError {
        ObjDBError(
            .queryCancelled, "the query on \(type) was cancelled after reading \(objectsRead) objects",
            typeName: type, figures: [.objectsRead: objectsRead])
    }
}

extension ObjDBError.Figure {
    /// The time a query was given, in milliseconds.
    public static let timeLimit = Self(rawValue: "timeLimit")
    /// The objects a query read before it stopped.
    public static let objectsRead = Self(rawValue: "objectsRead")
}

/// A ``QueryDeadline`` as one evaluation spends it: every object the query reads costs a step,
/// and every few hundred steps it looks at the clock and the cancellation flags. Used on one
/// thread, by one evaluation.
final class QueryBudget {
    let deadline: QueryDeadline
    let typeName: String
    private let started = ContinuousClock.now
    /// The objects read so far.
    private(set) var objectsRead = 0
    /// The step at which the clock is looked at next.
    private var nextCheck = 0

    /// Steps between two looks at the clock: a few microseconds of reading.
    static let stride = 128

    init(_ deadline: QueryDeadline, typeName: String) {
        self.deadline = deadline
        self.typeName = typeName
    }

    /// One object read; throws once the deadline has passed or the query was cancelled.
    @inline(__always)
    func spend() throws {
        objectsRead &+= 1
        if objectsRead >= nextCheck { try check() }
    }

    /// Looks at the clock and the flags now (also before the first step).
    func check() throws {
        nextCheck = objectsRead + Self.stride
        if deadline.cancellation?.isCancelled == true || QueryDeadline.taskIsCancelled {
            throw ObjDBError.queryCancelled(type: typeName, objectsRead: objectsRead)
        }
        if let instant = deadline.instant, ContinuousClock.now >= instant {
            let limit = instant - started
            let milliseconds = limit.components.seconds * 1000 + limit.components.attoseconds / 1_000_000_000_000_000
            throw ObjDBError.queryTimedOut(
                type: typeName, timeLimit: Int(max(milliseconds, 0)), objectsRead: objectsRead)
        }
    }
}
