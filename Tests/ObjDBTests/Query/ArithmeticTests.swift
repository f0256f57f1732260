import Foundation
import Testing

@testable import ObjDB

/// `+ - * /` in comparisons, with precedence and parentheses (#17.11). Ages: alice 30, bob 40, carol 25;
/// balances 20, 5, 0.
@Suite("Queries: arithmetic")
struct ArithmeticTests {
    @Test func arithmeticOnTwoProperties() throws {
        let store = try OperandStore()
        #expect(try store.names("balance * 2 > age") == ["alice"])
        #expect(try store.names("age - balance == 35") == ["bob"])
    }

    @Test func multiplicationBindsTighterThanAddition() throws {
        let store = try OperandStore()
        #expect(try store.names("age + 10 * 2 == 50") == ["alice"])
        #expect(try store.names("(age + 10) * 2 == 80") == ["alice"])
        #expect(try store.names("2 * (age - 20) >= age") == ["bob"])
    }

    @Test func aSignedNumberAfterAnOperandIsSubtraction() throws {
        let store = try OperandStore()
        #expect(try store.names("age -5 == 25") == ["alice"])
        #expect(try store.names("age-5 == 35") == ["bob"])
    }

    @Test func integersDivideAsIntegersAndDoublesAsDoubles() throws {
        let store = try OperandStore()
        #expect(try store.names("age / 2 == 12") == ["carol"])
        #expect(try store.names("age / 2.0 == 12.5") == ["carol"])
    }

    @Test func divisionByZeroMatchesNothing() throws {
        let store = try OperandStore()
        #expect(try store.names("age / 0 == 0") == [])
        #expect(try store.names("age / 0 != 0") == ["alice", "bob", "carol"])
    }

    @Test func arithmeticOnAnAggregate() throws {
        let store = try OperandStore()
        #expect(try store.names("items.@sum.price + balance > 25") == ["alice"])
    }

    @Test func aParenthesisedSumBesideParenthesisedPredicates() throws {
        let store = try OperandStore()
        #expect(try store.names("(age + 1) > 30 AND (name == 'bob')") == ["bob"])
        #expect(try store.names("((age + 1) > 35) OR (age < 26)") == ["bob", "carol"])
    }

    @Test func aParenthesisReadsAsWhatItHoldsWhateverItContains() throws {
        let store = try OperandStore()
        #expect(try store.names("(age IN {30, 40}) AND (balance BETWEEN {0, 5})") == ["bob"])
        #expect(try store.names("(NOT (age != 25))") == ["carol"])
        #expect(try store.names("(SUBQUERY(items, $i, $i.price > 2.5).@count + 29) == age") == ["alice"])
        #expect(try store.names("((age + balance) > 44)") == ["alice", "bob"])
        #expect(try store.names("(ANY items.price > 5)") == ["bob"])
    }

    @Test func aMalformedPredicateNestedFortyDeepFailsAtOnce() throws {
        let store = try OperandStore()
        var text = "(price >"
        for level in 0..<40 { text = "(SUBQUERY(items, $x\(level), \(text)).@count > 0)" }
        let clock = ContinuousClock()
        let start = clock.now
        #expect(throws: ObjDBError.self) { try store.names(text) }
        // Each level tries two readings of its parenthesis; re-parsing what failed would take 2^40.
        #expect(clock.now - start < .seconds(5))
    }

    @Test func aBadParenthesisReportsTheErrorFurthestIn() throws {
        let store = try OperandStore()
        for (query, position) in [("(age > )", 7), ("(age + ) > 3", 7), ("(age + 1) >", 11)] {
            do {
                _ = try store.names(query)
                Issue.record("\(query) parsed")
            } catch let error as ObjDBError {
                #expect(error.code == .predicateSyntax)
                #expect(error.message.contains("position \(position)"), "\(query): \(error.message)")
            }
        }
    }

    @Test func arithmeticOnAStringIsRejectedWithItsPosition() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("age > 1 AND name + 1 == 2")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("arithmetic (+) needs numbers, but name is a string"))
            #expect(error.message.contains("position 12"))
        }
    }
}
