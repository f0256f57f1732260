import Dispatch
import Foundation
import ObjDB

/// W10's second model: one object whose commits wake the notifier and are delivered the same
/// way as a tweet's, but leave the live tweets untouched, so they time everything except the
/// tweets' change set.
final class BenchProbe: Object {
    @Persisted(primaryKey: true) var id: Int64
    @Persisted var value = 0
}

/// One W10 repetition's medians, in seconds.
struct NotificationTimes {
    /// From just before a commit that changes one tweet to the live tweets' `.update` block.
    var latency: Double
    /// The same for a commit that changes the probe: the path without the tweets' change set.
    var baseline: Double
    /// The same query run again on a fresh view, materializing the key of every match.
    var rerun: Double
}

/// W10 on ObjDB: a live `Results` of the tweets with `retweetCount > 10` (about 90% of them),
/// observed on a queue of its own, with one probe object observed beside it. Each sample
/// commits a change to one matching tweet, then to the probe, and runs the query once again,
/// in rotating order. Commits do not sync, so the times are ObjDB's and not the disk's.
final class NotificationBenchmark {
    static let filter = "retweetCount > 10"

    /// The tweets in the store, and how many the live results hold.
    let size: Int
    let matching: Int
    private let database: Database
    private let queue = DispatchQueue(label: "objdb-bench.notifications")
    private let mailbox = Mailbox()
    /// The tweets each sample changes: matching ones, which a `+ 1` keeps matching.
    private let changes: [Int64]
    private var changed = 0

    // Used on `queue` only.
    private var view: ReadView?
    private var tokens: [NotificationToken] = []

    init(size: Int, source: TweetData, directory: String) throws {
        self.size = size
        var configuration = Configuration(
            path: directory + "/notifications.objdb", types: [BenchTweet.self, BenchProbe.self])
        configuration.isDurable = false
        database = try Database(configuration: configuration)
        try database.write { transaction in
            try ObjDBEngine.add(source.tweets, 0..<size, in: transaction)
            let probe = BenchProbe()
            probe.id = 1
            try transaction.add(probe)
        }
        let members = (0..<size).filter { source.tweets.retweetCounts[$0] > 10 }
        matching = members.count
        var random = SplitMix64(seed: UInt64(size))
        changes = members.map { source.tweets.ids[$0] }.shuffled(using: &random)

        let (database, queue, mailbox) = (self.database, self.queue, self.mailbox)
        try queue.sync {
            let view = try database.view(queue: queue)
            let tweets = try view.objects(BenchTweet.self).filter(Self.filter)
            tokens.append(try tweets.observe { mailbox.post(.tweets, $0) })
            tokens.append(try view.objects(BenchProbe.self).observe { mailbox.post(.probe, $0) })
            self.view = view
        }
        // Both observers' first deliveries, in either order.
        var initial: [Mailbox.Source: Int] = [:]
        for _ in 0..<2 {
            let delivery = try mailbox.take()
            guard delivery.isInitial else { throw failure("an update before the initial results") }
            initial[delivery.source] = delivery.count
        }
        guard initial[.tweets] == matching, initial[.probe] == 1 else {
            throw failure("initial results \(initial), expected \(matching) tweets and 1 probe")
        }
    }

    /// Stops the observers and lets go of the view.
    func close() {
        queue.sync {
            for token in tokens { token.invalidate() }
            tokens = []
            view = nil
        }
    }

    /// `samples` of each measurement, in rotating order; their medians.
    func repetition(samples: Int) throws -> NotificationTimes {
        var latency: [Double] = []
        var baseline: [Double] = []
        var rerun: [Double] = []
        for sample in 0..<samples {
            for step in 0..<3 {
                switch (sample + step) % 3 {
                case 0: latency.append(try changeTweet())
                case 1: baseline.append(try changeProbe())
                default: rerun.append(try rerunQuery())
                }
            }
        }
        return NotificationTimes(latency: median(latency), baseline: median(baseline), rerun: median(rerun))
    }

    /// Adds one to a matching tweet's `retweetCount`: one modification, the count unchanged.
    private func changeTweet() throws -> Double {
        let id = changes[changed % changes.count]
        changed += 1
        let transaction = try database.beginWrite()
        guard let tweet = transaction.object(ofType: BenchTweet.self, forPrimaryKey: id) else {
            transaction.cancel()
            throw failure("tweet \(id) is missing")
        }
        tweet.retweetCount += 1
        let start = ContinuousClock.now
        try transaction.commit()
        let delivery = try mailbox.take()
        guard delivery.source == .tweets, !delivery.isInitial, delivery.count == matching,
            delivery.modifications == 1, delivery.deletions == 0, delivery.insertions == 0
        else {
            throw BenchmarkFailure.disagreement(
                workload: "W10",
                detail: "one changed tweet delivered \(delivery), expected 1 modification of \(matching)")
        }
        return seconds(delivery.time - start)
    }

    private func changeProbe() throws -> Double {
        let transaction = try database.beginWrite()
        guard let probe = transaction.object(ofType: BenchProbe.self, forPrimaryKey: Int64(1)) else {
            transaction.cancel()
            throw failure("the probe is missing")
        }
        probe.value += 1
        let start = ContinuousClock.now
        try transaction.commit()
        let delivery = try mailbox.take()
        guard delivery.source == .probe, delivery.modifications == 1 else {
            throw failure("the probe's change delivered \(delivery)")
        }
        return seconds(delivery.time - start)
    }

    /// What an observer without a change set would do: run the query again on a fresh view.
    /// Iterating runs it once and keeps every matching key, as live results hold them.
    private func rerunQuery() throws -> Double {
        var count = 0
        let elapsed = try time {
            try database.read { view in
                let tweets = try view.objects(BenchTweet.self).filter(Self.filter)
                var iterator = tweets.makeIterator()
                _ = iterator.next()
                count = tweets.count
            }
        }
        guard count == matching else {
            throw BenchmarkFailure.disagreement(
                workload: "W10", detail: "the query found \(count), the live results hold \(matching)")
        }
        return elapsed
    }

    private func failure(_ detail: String) -> BenchmarkFailure {
        BenchmarkFailure.engine("objdb", "W10 with \(size) tweets: \(detail)")
    }
}

/// Hands the observers' deliveries from the view's queue to the measuring thread.
private final class Mailbox: @unchecked Sendable {
    // @unchecked: `deliveries` is guarded by `lock`.
    enum Source: Hashable { case tweets, probe }

    struct Delivery: CustomStringConvertible {
        let source: Source
        let time: ContinuousClock.Instant
        let isInitial: Bool
        let count: Int
        let deletions: Int
        let insertions: Int
        let modifications: Int
        /// The error of an `.error` delivery: the observer stopped.
        var error: String?

        var description: String {
            if let error { return "\(source) error: \(error)" }
            return "\(source) \(isInitial ? "initial" : "update") of \(count): \(deletions) deletions, "
                + "\(insertions) insertions, \(modifications) modifications"
        }
    }

    private let lock = NSLock()
    private let signal = DispatchSemaphore(value: 0)
    private var deliveries: [Delivery] = []

    /// Records a delivery; call it first thing in the observer's block.
    func post<T: Object>(_ source: Source, _ change: CollectionChange<Results<T>>) {
        let time = ContinuousClock.now
        let delivery: Delivery
        switch change {
        case .initial(let results):
            delivery = Delivery(
                source: source, time: time, isInitial: true, count: results.count, deletions: 0, insertions: 0,
                modifications: 0)
        case .update(let results, let deletions, let insertions, let modifications):
            delivery = Delivery(
                source: source, time: time, isInitial: false, count: results.count, deletions: deletions.count,
                insertions: insertions.count, modifications: modifications.count)
        case .error(let error):
            delivery = Delivery(
                source: source, time: time, isInitial: false, count: 0, deletions: 0, insertions: 0,
                modifications: 0, error: "\(error)")
        }
        lock.withLock { deliveries.append(delivery) }
        signal.signal()
    }

    /// The next delivery, waiting up to a minute for it; an `.error` delivery fails the run.
    func take() throws -> Delivery {
        guard signal.wait(timeout: .now() + 60) == .success else {
            throw BenchmarkFailure.engine("objdb", "W10: no notification within a minute")
        }
        let delivery = lock.withLock { deliveries.removeFirst() }
        if let error = delivery.error {
            throw BenchmarkFailure.engine("objdb", "W10: \(delivery.source) observer stopped: \(error)")
        }
        return delivery
    }
}
