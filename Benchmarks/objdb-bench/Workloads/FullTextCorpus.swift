import Foundation

/// W12's tweets: words drawn from a Zipf curve (a few very common words, a long tail of rare ones,
/// real words at the head, accented ones among them), with hashtags, mentions, t.co links, emoji,
/// commas and `!`/`?`, seeded so every engine and run sees the same text.
///
/// The text uses only what both tokenizers split alike: words separated by spaces, `,` `!` `?`
/// and emoji; `.`, `:` and `/` appear only inside links (SQLite's tokenchars keep them there), and
/// there are no apostrophes or hyphens.
struct FullTextCorpus {
    let ids: [Int64]
    let texts: [String]
    let retweetCounts: [Int]
    let createdAt: [Double]
    /// A tail word in about one tweet of 10,000 (at least two).
    let rareWord: String

    var count: Int { ids.count }

    /// The head of the curve: real words, then accented ones.
    static let head = [
        "the", "to", "and", "a", "of", "in", "is", "for", "on", "you", "it", "this", "with", "my", "that", "be", "at",
        "are", "swift", "new", "just", "we", "so", "have", "not", "all", "me", "from", "your", "get", "now", "out",
        "can", "like", "up", "day", "love", "time", "what", "today", "good", "one", "more", "about", "no", "great",
        "our", "will", "how", "do", "see", "by", "people", "go", "back", "know", "music", "app", "code", "team",
        "machine", "learning", "café", "naïve", "résumé", "Zoë", "señor", "über", "façade", "jalapeño", "déjà", "crème",
        "brûlée", "São", "piñata", "fiancée", "Málaga", "Bogotá", "Montréal", "Köln", "Zürich", "açaí", "Québec",
        "Pokémon", "Beyoncé", "Renée", "Chloé", "Andrés", "Müller", "Gödel",
    ]
    static let syllables = [
        "ka", "lo", "mi", "ne", "ra", "su", "ti", "vo", "ze", "ba", "de", "fi", "gu", "ho", "ju", "pe", "qua", "sho",
        "tr", "wy", "xe", "yo",
    ]
    static let emoji = ["🔥", "😂", "❤️", "👍", "🚀", "🎉", "🙏", "✨"]
    static let vocabularySize = 40_000

    /// The common word W12's scan looks for.
    static let commonWord = "swift"

    init(count: Int, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let vocabulary = (0..<Self.vocabularySize).map { Self.word($0) }
        let words = Self.head + vocabulary
        let cumulative = Self.zipf(words.count)
        let tags = Self.zipf(2_000)
        var ids: [Int64] = []
        var texts: [String] = []
        var retweets: [Int] = []
        var created: [Double] = []
        var frequencies = [Int](repeating: 0, count: words.count)
        var picked: [Int] = []
        ids.reserveCapacity(count)
        texts.reserveCapacity(count)
        for index in 0..<count {
            ids.append(Int64(1_000 + 3 * index))
            retweets.append(Int(pow(Double.random(in: 0..<1, using: &random), 3) * 101))
            created.append(1_500_000_000 + Double(index) * 1.5 + Double.random(in: 0..<1, using: &random))
            picked.removeAll(keepingCapacity: true)
            texts.append(Self.tweet(words: words, cumulative: cumulative, tags: tags, picked: &picked, random: &random))
            for rank in Set(picked) { frequencies[rank] += 1 }
        }
        let wanted = Swift.max(2, count / 10_000)
        let rare =
            (1_000..<words.count).filter { frequencies[$0] > 0 }
            .min { abs(frequencies[$0] - wanted) < abs(frequencies[$1] - wanted) } ?? 0
        rareWord = words[rare]
        self.ids = ids
        self.texts = texts
        retweetCounts = retweets
        createdAt = created
    }

    /// One tweet's text.
    static func tweet(
        words: [String], cumulative: [Double], tags: [Double], picked: inout [Int], random: inout SplitMix64
    ) -> String {
        var parts: [String] = []
        if Double.random(in: 0..<1, using: &random) < 0.25 {
            parts.append("@user_\(pick(zipf: tags, &random))")
        }
        for _ in 0..<Int.random(in: 6...18, using: &random) {
            let rank = pick(zipf: cumulative, &random)
            picked.append(rank)
            var word = words[rank]
            if Double.random(in: 0..<1, using: &random) < 0.03 {
                parts.append("machine")
                word = "learning"
            }
            if Double.random(in: 0..<1, using: &random) < 0.1, let first = word.first {
                word = first.uppercased() + word.dropFirst()
            }
            if Double.random(in: 0..<1, using: &random) < 0.05 { word += "," }
            parts.append(word)
        }
        if Double.random(in: 0..<1, using: &random) < 0.2 {
            parts.insert(
                "#" + Self.word(pick(zipf: tags, &random)), at: Int.random(in: 0...parts.count, using: &random))
        }
        if Double.random(in: 0..<1, using: &random) < 0.2 {
            parts.insert(emoji.randomElement(using: &random)!, at: Int.random(in: 0...parts.count, using: &random))
        }
        if Double.random(in: 0..<1, using: &random) < 0.2 {
            parts[parts.count - 1] += ["!", "?"][Int.random(in: 0...1, using: &random)]
        }
        if Double.random(in: 0..<1, using: &random) < 0.3 {
            let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            parts.append("https://t.co/" + String((0..<10).map { _ in alphabet.randomElement(using: &random)! }))
        }
        return parts.joined(separator: " ")
    }

    /// A synthetic word of the tail: two to four syllables, from its rank.
    static func word(_ rank: Int) -> String {
        var value = rank
        var text = ""
        for position in 0..<(2 + rank % 3) {
            text += syllables[(value + position * 7) % syllables.count]
            value /= syllables.count
        }
        return text + (rank >= 10_000 ? String(rank % 97) : "")
    }

    /// The cumulative weights of a Zipf curve (s = 1) over `count` ranks.
    static func zipf(_ count: Int) -> [Double] {
        var total = 0.0
        return (0..<count).map { rank in
            total += 1 / Double(rank + 1)
            return total
        }
    }

    /// A rank drawn from cumulative weights.
    static func pick(zipf cumulative: [Double], _ random: inout SplitMix64) -> Int {
        let target = Double.random(in: 0..<cumulative[cumulative.count - 1], using: &random)
        var low = 0
        var high = cumulative.count - 1
        while low < high {
            let middle = (low + high) / 2
            if cumulative[middle] < target { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
