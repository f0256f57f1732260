import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Input limits")
struct InputLimitTests {
    let directory = TemporaryDirectory()

    func tweets() throws -> Results<Tweet> {
        let database = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self])
        try database.write { transaction in
            for number in 0..<20 {
                try transaction.create(
                    Tweet.self, value: ["id": number, "text": "tweet \(number)", "retweetCount": number])
            }
        }
        return try database.view().objects(Tweet.self)
    }

    @Test(arguments: [
        String(repeating: "(", count: 10_000) + "id == 1" + String(repeating: ")", count: 10_000),
        String(repeating: "NOT ", count: 10_000) + "id == 1",
        String(repeating: "!", count: 50_000) + "id == 1",
        "id IN " + String(repeating: "{", count: 10_000),
        String(repeating: "(NOT ", count: 5_000) + "id == 1",
    ])
    func aDeeplyNestedPredicateIsASyntaxErrorAtItsPosition(_ predicate: String) throws {
        let tweets = try tweets()
        #expect {
            _ = try tweets.filter(predicate)
        } throws: { error in
            guard let error = error as? ObjDBError, error.code == .predicateSyntax, let position = error.position else {
                return false
            }
            return error.message.contains("nests deeper") && position > 0 && position < predicate.count
        }
    }

    @Test func nestingUpToTheLimitParses() throws {
        let depth = PredicateParser.maximumDepth
        let predicate = String(repeating: "(", count: depth) + "id == 1" + String(repeating: ")", count: depth)
        let tweets = try tweets()
        #expect(try tweets.filter(predicate).count == 1)
        #expect(try tweets.filter(String(repeating: "NOT ", count: depth) + "id == 1").count == 1)
    }

    @Test func aDeepExpressionFromAnyFrontEndIsAnInvalidQuery() throws {
        var expression = QueryExpression.comparison(
            QueryComparison(path: ["id"], aggregate: nil, quantifier: .any, op: .equal, value: .int(1), options: []))
        for _ in 0..<2_000 { expression = .not(expression) }
        let tweets = try tweets()
        #expect {
            _ = try tweets.filtered(by: expression)
        } throws: { error in
            (error as? ObjDBError)?.code == .invalidQuery
        }
    }

    @Test func aNegativeLimitIsAnError() throws {
        let tweets = try tweets()
        #expect(tweets.limit(-1).isEmpty)
        let view = try Database(path: directory.store(), types: [Tweet.self, TwitterUser.self]).view()
        #expect {
            _ = try view.dynamicObjects("Tweet", filter: nil, limit: -1)
        } throws: { error in
            (error as? ObjDBError)?.code == .invalidArgument
        }
    }

    @Test func anOutOfRangeConfigurationIsAnInvalidArgument() throws {
        let changes: [(String, (inout Configuration) -> Void)] = [
            ("maxReaders", { $0.maxReaders = 0 }),
            ("initialMapSize", { $0.initialMapSize = -1 }),
            ("maxMapSize", { $0.maxMapSize = 0 }),
            ("maxMapSize", { $0.maxMapSize = Int.max }),
            ("fileMode", { $0.fileMode = 0o7777 }),
            ("fileMode", { $0.fileMode = 0o044 }),
        ]
        for (name, change) in changes {
            var configuration = Configuration(path: directory.store(), types: [Tweet.self, TwitterUser.self])
            change(&configuration)
            #expect {
                _ = try Database(configuration: configuration)
            } throws: { error in
                guard let error = error as? ObjDBError else { return false }
                return error.code == .invalidArgument && error.message.hasPrefix(name)
            }
            #expect(!FileManager.default.fileExists(atPath: directory.store()))
        }
    }
}
