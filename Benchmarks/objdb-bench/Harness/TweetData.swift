/// The benchmark's tweets and the inputs of each workload, generated from a seed so
/// every engine and every run sees the same data.
///
/// A tweet: `id` (primary key), `userId` (indexed, ≈100 tweets per user), `createdAt`,
/// `retweetCount` (0–100), `text` (80–140 characters), `lang` (40% "en").
struct TweetData {
    /// The tweets W1 loads, in random id order.
    let tweets: TweetColumns

    /// Random ids to read (W4), users to query (W5), tweets to update (W7) and delete (W8).
    let pointReads: [Int64]
    let userQueries: [Int64]
    let updates: [Int64]
    let deletes: [Int64]

    var count: Int { tweets.count }

    init(count: Int, queries: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let users = Swift.max(1, count / 100)
        let ids = (0..<Int64(count)).map { $0 * 7 + 1 }.shuffled(using: &random)
        let userIds = ids.map { _ in Int64.random(in: 0..<Int64(users), using: &random) }
        let createdAt = ids.map { 1_300_000_000 + Double($0) }
        let retweetCounts = ids.map { _ in Int.random(in: 0...100, using: &random) }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz     #@éü")
        let texts = ids.map { _ in
            String((0..<Int.random(in: 80...140, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        let others = ["ja", "es", "fr", "de", "pt", "tr"]
        let langs = ids.map { _ in
            Int.random(in: 0..<10, using: &random) < 4 ? "en" : others.randomElement(using: &random)!
        }
        tweets = TweetColumns(
            ids: ids, userIds: userIds, createdAt: createdAt, retweetCounts: retweetCounts, texts: texts, langs: langs)
        pointReads = (0..<count).map { _ in Int64.random(in: 0..<Int64(count), using: &random) * 7 + 1 }
        userQueries = (0..<queries).map { _ in Int64.random(in: 0..<Int64(users), using: &random) }
        let shuffled = ids.shuffled(using: &random)
        updates = Array(shuffled.prefix(count / 10))
        deletes = Array(shuffled.suffix(count / 10))
    }

    /// Tweets for the single-transaction workloads (W2, W2c, W3), with ids above every bulk-loaded
    /// one: each takes a bulk tweet's user and text, `createdAt` 0, no retweets and lang "en".
    func extra(_ count: Int, offset: Int) -> TweetColumns {
        let sources = (0..<count).map { $0 % self.count }
        return TweetColumns(
            ids: (0..<count).map { Int64(self.count * 7 + 10 + offset + $0) },
            userIds: sources.map { tweets.userIds[$0] }, createdAt: Array(repeating: 0, count: count),
            retweetCounts: Array(repeating: 0, count: count), texts: sources.map { tweets.texts[$0] },
            langs: Array(repeating: "en", count: count))
    }
}

/// A small, fast, seeded generator, so every run and engine sees the same data.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
