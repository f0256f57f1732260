import Foundation
import Synchronization

extension Database {
    /// Opens (or creates) the store `configuration` describes without blocking the caller:
    /// opening (and migrating) runs on another thread.
    ///
    /// ```swift
    /// let db = try await Database.open(Configuration(path: "tweets.objdb", types: [Tweet.self]))
    /// ```
    public static func open(_ configuration: Configuration) async throws -> Database {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Database(configuration: configuration) })
            }
        }
    }

    /// Runs `body` in a write transaction on the database's writer queue, off the caller's
    /// thread, and returns once it has committed (or thrown).
    ///
    /// ```swift
    /// let id = try await db.write { transaction in
    ///     try transaction.create(Tweet.self, value: ["id": 21, "text": "hello"]).id
    /// }
    /// ```
    ///
    /// Writes queued together from many tasks commit as one LMDB transaction with one sync
    /// (group commit). Each is still atomic on its own: it runs in a nested transaction, so
    /// one that throws rolls back alone and only its caller gets the error.
    /// ``WriteTransaction/cancel()`` rolls back just this write.
    @discardableResult
    public func write<Result: Sendable>(_ body: @escaping @Sendable (WriteTransaction) throws -> Result)
        async throws -> Result
    {
        try await withCheckedThrowingContinuation { continuation in
            let box = ResultBox<Result>()
            let request = WriteRequest(
                perform: { transaction in box.value = try body(transaction) },
                finish: { outcome in
                    switch outcome {
                    case .success: continuation.resume(returning: box.value!)
                    case .failure(let error): continuation.resume(throwing: error)
                    }
                })
            writeQueue.submit(request, to: self)
        }
    }
}

/// Holds a write's result between the writer queue and its caller.
private final class ResultBox<Value: Sendable>: Sendable {
    private let stored = Lock<Value?>(nil)

    var value: Value? {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
