import Dispatch
import Foundation
import Synchronization

/// Runs async writes one batch at a time on a queue of its own: the writes that wait
/// together commit as one LMDB transaction with one sync (group commit).
///
/// Each write in a batch runs in a nested LMDB transaction, so one that throws rolls back
/// alone and only its caller gets the error; the others still commit. A batch of one runs
/// without nesting.
final class WriteQueue: Sendable {
    /// The writes waiting for the next batch, and whether a drain is running.
    private let state = Lock<(pending: [WriteRequest], isBusy: Bool)>(([], false))
    private let queue = DispatchQueue(label: "objdb.writer", qos: .userInitiated)

    /// Queues `request`; it runs in the next batch.
    func submit(_ request: WriteRequest, to database: Database) {
        let start = state.withLock { state in
            state.pending.append(request)
            if state.isBusy { return false }
            state.isBusy = true
            return true
        }
        if start { queue.async { self.drain(database) } }
    }

    private func drain(_ database: Database) {
        while true {
            let batch = state.withLock { state in
                let batch = state.pending
                state.pending.removeAll()
                if batch.isEmpty { state.isBusy = false }
                return batch
            }
            if batch.isEmpty { return }
            run(batch, on: database)
        }
    }

    private func run(_ batch: [WriteRequest], on database: Database) {
        let scope: WriteScope
        do {
            scope = try WriteScope(database: database, snapshot: Snapshot(owner: database))
        } catch {
            for request in batch { request.finish(.failure(error)) }
            return
        }
        var committing: [WriteRequest] = []
        if batch.count == 1 {
            let request = batch[0]
            do {
                let transaction = WriteTransaction(scope: scope, isGrouped: true)
                try request.perform(transaction)
                if transaction.wasCancelled {
                    scope.cancel()
                    request.finish(.success(()))
                    return
                }
                committing.append(request)
            } catch {
                scope.cancel()
                request.finish(.failure(error))
                return
            }
        } else {
            for request in batch {
                do {
                    try scope.nestedWrite { transaction in try request.perform(transaction) }
                    committing.append(request)
                } catch {
                    request.finish(.failure(error))
                }
            }
        }
        do {
            try scope.commit()
            for request in committing { request.finish(.success(())) }
        } catch {
            for request in committing { request.finish(.failure(error)) }
        }
    }
}

/// One queued async write: its body, and how to tell its caller the outcome.
final class WriteRequest: Sendable {
    let perform: @Sendable (WriteTransaction) throws -> Void
    let finish: @Sendable (Result<Void, any Error>) -> Void

    init(
        perform: @escaping @Sendable (WriteTransaction) throws -> Void,
        finish: @escaping @Sendable (Result<Void, any Error>) -> Void
    ) {
        self.perform = perform
        self.finish = finish
    }
}
