import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// Seeded fuzzing in CI: 10,000 inputs per target, × `OBJDB_STRESS` under `make stress`/`make fuzz`.
/// Each target runs in a child process, which must exit normally, so a crash fails its test and not
/// the run; the child's summary line is printed again here.
@Suite("Fuzzing")
struct FuzzTests {
    static var inputs: Int { 10_000 * stressScale }

    @Test func randomPredicatesNeverCrashTheParserTheCompilerOrTheQuery() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            try Self.fuzzPredicates()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        print(output, terminator: "")
        #expect(
            output.contains("fuzzed predicates"),
            "\(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self))")
    }

    @Test func randomRecordBytesNeverCrashTheDecoder() async throws {
        let result = await #expect(
            processExitsWith: .success, observing: [\.standardOutputContent, \.standardErrorContent]
        ) {
            try Self.fuzzRecords()
        }
        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
        print(output, terminator: "")
        #expect(
            output.contains("fuzzed records"), "\(String(decoding: result?.standardErrorContent ?? [], as: UTF8.self))")
    }

    /// Runs random predicates through parse, compile and query; throws unless some ran and some
    /// were syntax errors.
    static func fuzzPredicates() throws {
        let directory = TemporaryDirectory()
        let database = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        try database.write { transaction in
            for number in 0..<30 {
                let user = try transaction.create(
                    TwitterUser.self, value: ["id": number % 4, "screenName": "user\(number % 4)"], update: .modified)
                let tweet = try transaction.create(
                    Tweet.self, value: ["id": number, "text": "tweet \(number) ✓", "retweetCount": number])
                tweet.user = user
                if number % 3 == 0 { tweet.retweetedBy.append(user) }
            }
        }
        let tweets = try database.view().objects(Tweet.self)
        var random = SeededGenerator(seed: 1_515)
        var outcomes: [String: Int] = [:]
        for _ in 0..<Self.inputs {
            let (predicate, arguments) = PredicateFuzzer.predicate(using: &random)
            do {
                let results = try tweets.filter(predicate, arguments)
                _ = results.count
                _ = try results.sorted(byKeyPath: "retweetCount").first
                outcomes["ran", default: 0] += 1
            } catch let error as ObjDBError {
                outcomes[error.code.rawValue, default: 0] += 1
            }
        }
        let summary = "fuzzed predicates: \(Self.inputs), outcomes \(outcomes.sorted { $0.key < $1.key })"
        FileHandle.standardOutput.write(Data((summary + "\n").utf8))
        guard outcomes["ran", default: 0] > 0, outcomes["predicateSyntax", default: 0] > 0 else {
            throw TestFailure("no predicate ran, or none was a syntax error: \(summary)")
        }
    }

    /// Decodes records mutated from valid ones; throws unless some passed the full validation.
    static func fuzzRecords() throws {
        let directory = TemporaryDirectory()
        let database = try Database(
            path: directory.store(), types: [Everything.self, Address.self, Tweet.self, TwitterUser.self])
        let schema = SchemaIndex(database.schema)
        let types = database.schema.types
        // Valid records to mutate, from the codec itself.
        let codec = RecordCodec(schema: schema)
        let seeds: [(ObjectSchema, [UInt8])] = try types.map { type in
            (type, try codec.encode(named: sampleValues(for: type), as: type))
        }
        var random = SeededGenerator(seed: 1_516)
        var decoded = 0
        for _ in 0..<Self.inputs {
            let (type, seed) = seeds.randomElement(using: &random)!
            let bytes = RecordFuzzer.mutate(seed, using: &random)
            decoded += decodeRecordForFuzzing(bytes, as: type, schema: schema) ? 1 : 0
        }
        FileHandle.standardOutput.write(
            Data("fuzzed records: \(Self.inputs), \(decoded) passed the full validation\n".utf8))
        guard decoded > 0 else { throw TestFailure("no mutated record passed the full validation") }
    }

    /// Values for every property of `type` (collections with a couple of elements, embedded records).
    private static func sampleValues(for type: ObjectSchema) -> [String: StoredValue] {
        var values: [String: StoredValue] = [:]
        for property in type.properties where property.isStored {
            let one: StoredValue
            switch property.type {
            case .bool: one = .bool(true)
            case .int: one = .int(-42)
            case .float: one = .float(1.5)
            case .double: one = .double(-2.25)
            case .string: one = .string("héllo")
            case .data: one = .data(Data([1, 2, 3]))
            case .date: one = .date(Date(timeIntervalSince1970: 1_000))
            case .uuid: one = .uuid(UUID())
            case .decimal: one = .decimal(Decimal(string: "12.5")!)
            default: continue
            }
            switch property.collection {
            case .single: values[property.name] = one
            case .list, .set: values[property.name] = .list([one, one])
            case .map: values[property.name] = .map(["a": one])
            }
        }
        return values
    }
}

/// Decodes `bytes` as a record of `type` every way the library reads records: the constant-time
/// header check with each field on demand, and the full validation with every value decoded.
///
/// - Returns: whether the full validation accepted the record.
func decodeRecordForFuzzing(_ bytes: [UInt8], as type: ObjectSchema, schema: SchemaIndex) -> Bool {
    bytes.withUnsafeBytes { buffer in
        let codec = ValueCodec(schema: schema)
        if let reader = RecordReader(header: buffer) {
            for property in type.properties where property.isStored {
                _ = codec.decodeField(reader.field(Int(property.id)), of: property)
            }
        }
        guard let reader = RecordReader(validating: buffer) else { return false }
        _ = RecordCodec(schema: schema).decodeNamed(reader, as: type)
        return true
    }
}

/// Random predicates: tokens of the grammar mixed with noise, and mutations of valid predicates.
enum PredicateFuzzer {
    static let tokens = [
        "id", "text", "retweetCount", "user", "screenName", "retweetedBy", "tweets", "createdAt", "nothing", ".",
        "@count", "@sum", "@min", "@max", "@avg", "@bogus", "==", "=", "!=", "<>", "<", "<=", ">", ">=", "=<", "=>",
        "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN", "[c]", "[d]", "[cd]", "[x]", "AND", "&&", "OR",
        "||", "NOT", "!", "ANY", "ALL", "NONE", "SOME", "(", ")", "{", "}", ",", "%@", "%K", "%", "nil", "NULL", "true",
        "false", "YES", "TRUEPREDICATE", "FALSEPREDICATE", "0", "1", "-1", "3.5", "1e999", "-9223372036854775809",
        "99999999999999999999", "'a'", "'tweet*'", "\"x\\\"y\"", "'unterminated", "'\\", "✓", "\u{0}", "é", "$x", "_",
    ]
    static let valid = [
        "retweetCount > 3 AND text CONTAINS[c] 'TWEET'", "ANY retweetedBy.screenName BEGINSWITH 'u'",
        "user.screenName ==[cd] 'USER1' OR NOT (id IN {1, 2, 3})", "retweetedBy.@count >= 1",
        "retweetCount BETWEEN {2, 9}", "text LIKE 't*t ?'", "%K == %@", "retweetedBy.@sum.retweetCount > 0",
    ]

    static let paths = [
        "id", "text", "retweetCount", "createdAt", "user.screenName", "user.id", "retweetedBy.screenName",
        "retweetedBy.@count", "retweetedBy.@sum.id", "retweetedBy.@max.id", "user.tweets.@count", "user",
    ]
    static let operators = [
        "==", "!=", "<", "<=", ">", ">=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "IN", "BETWEEN",
    ]
    static let values = ["1", "-3", "2.5", "'user1'", "'tw*'", "nil", "true", "{1, 2}", "{'a', nil}", "%@", "1e300"]

    /// A predicate of the grammar, nested up to `depth` levels: most parse, and exercise the compiler and evaluator.
    static func grammatical(depth: Int, using random: inout SeededGenerator) -> String {
        if depth == 0 || Int.random(in: 0..<3, using: &random) == 0 {
            let quantifier = ["", "", "ANY ", "ALL ", "NONE "].randomElement(using: &random)!
            let modifier = ["", "", "[c]", "[cd]"].randomElement(using: &random)!
            return quantifier + paths.randomElement(using: &random)! + " " + operators.randomElement(using: &random)!
                + modifier + " " + values.randomElement(using: &random)!
        }
        let inner = grammatical(depth: depth - 1, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return "(\(inner))"
        case 1: return "NOT \(inner)"
        case 2: return "\(inner) AND \(grammatical(depth: depth - 1, using: &random))"
        default: return "\(inner) OR \(grammatical(depth: depth - 1, using: &random))"
        }
    }

    static func predicate(using random: inout SeededGenerator) -> (String, [Any]) {
        var text: String
        let mode = Int.random(in: 0..<3, using: &random)
        if mode == 0 {
            text = grammatical(depth: Int.random(in: 0...6, using: &random), using: &random)
        } else if mode == 1 {
            text = (0..<Int.random(in: 1...24, using: &random)).map { _ in tokens.randomElement(using: &random)! }
                .joined(separator: " ")
        } else {
            var characters = Array(valid.randomElement(using: &random)!)
            for _ in 0..<Int.random(in: 0...2, using: &random) {
                let index = Int.random(in: 0...characters.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0 where index < characters.count: characters.remove(at: index)
                case 1: characters.insert(Array("(){}'\"%@!.[]").randomElement(using: &random)!, at: index)
                default:
                    let token = tokens.randomElement(using: &random)!
                    characters.insert(contentsOf: " \(token) ", at: index)
                }
            }
            text = String(characters)
        }
        if Int.random(in: 0..<50, using: &random) == 0 {
            let depth = Int.random(in: 90...300, using: &random)
            text = String(repeating: "(", count: depth) + text + String(repeating: ")", count: depth)
        }
        let choices: [Any] = ["text", "id", 3, "tweet", 2.5, NSNull(), [1, 2], Date(), UUID(), Data([1])]
        // Grammatical predicates get one argument per %@; the others a random number.
        let count = mode == 0 ? text.components(separatedBy: "%@").count - 1 : Int.random(in: 0...3, using: &random)
        let arguments = (0..<count).map { _ in choices.randomElement(using: &random)! }
        return (text, arguments)
    }
}

/// Random damage to a valid record: flipped bytes, cuts, extensions, rewritten headers, noise.
enum RecordFuzzer {
    static func mutate(_ record: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = record
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] ^=
                    UInt8(1) << UInt8.random(in: 0...7, using: &random)
            case 1 where !bytes.isEmpty:
                bytes[Int.random(in: 0..<bytes.count, using: &random)] = [0, 0xFF, 0x7F, 0x80].randomElement(
                    using: &random)!
            case 2:
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random)))
            case 3:
                bytes += (0..<Int.random(in: 1...16, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            case 4 where bytes.count >= 4:
                let offset = Int.random(in: 0...(bytes.count - 4), using: &random)
                let value = [UInt32.max, 0x7FFF_FFFF, UInt32(bytes.count), 0].randomElement(using: &random)!
                withUnsafeBytes(of: value.littleEndian) { bytes.replaceSubrange(offset..<(offset + 4), with: $0) }
            default:
                bytes = (0..<Int.random(in: 0...48, using: &random)).map { _ in
                    UInt8.random(in: 0...255, using: &random)
                }
            }
        }
        return bytes
    }
}
