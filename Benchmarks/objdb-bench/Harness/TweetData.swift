/// The benchmark's tweets and the inputs of each workload, generated from a seed so
/// every engine and every run sees the same data.
///
/// A tweet: `id` (primary key), `userId` (indexed, ≈100 tweets per user), `createdAt`,
/// `retweetCount` (0–100), `text` (80–140 characters), `lang` (40% "en").
struct TweetData {
    let ids: [Int64]
    let userIds: [Int64]
    let createdAt: [Double]
    let retweetCounts: [Int]
    let texts: [String]
    let langs: [String]

    /// Random ids to read (W4), users to query (W5), tweets to update (W7) and delete (W8).
    let pointReads: [Int64]
    let userQueries: [Int64]
    let updates: [Int64]
    let deletes: [Int64]

    var count: Int { ids.count }

    init(count: Int, queries: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let users = Swift.max(1, count / 100)
        ids = (0..<Int64(count)).map { $0 * 7 + 1 }.shuffled(using: &random)
        userIds = ids.map { _ in Int64.random(in: 0..<Int64(users), using: &random) }
        createdAt = ids.map { 1_300_000_000 + Double($0) }
        retweetCounts = ids.map { _ in Int.random(in: 0...100, using: &random) }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz     #@éü")
        texts = ids.map { _ in
            String((0..<Int.random(in: 80...140, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        let others = ["ja", "es", "fr", "de", "pt", "tr"]
        langs = ids.map { _ in Int.random(in: 0..<10, using: &random) < 4 ? "en" : others.randomElement(using: &random)!
        }
        pointReads = (0..<count).map { _ in Int64.random(in: 0..<Int64(count), using: &random) * 7 + 1 }
        userQueries = (0..<queries).map { _ in Int64.random(in: 0..<Int64(users), using: &random) }
        let shuffled = ids.shuffled(using: &random)
        updates = Array(shuffled.prefix(count / 10))
        deletes = Array(shuffled.suffix(count / 10))
    }

    /// Tweets for the single-transaction workloads, with ids above every bulk-loaded one.
    func extra(_ count: Int, offset: Int) -> [(id: Int64, userId: Int64, text: String)] {
        (0..<count).map { index in
            let source = index % self.count
            return (Int64(self.count * 7 + 10 + offset + index), userIds[source], texts[source])
        }
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
