import Foundation
import Testing

@testable import ObjDB

/// Comparisons of one property with another, and of constant lists under quantifiers (#17.2, #17.3),
/// answered as Realm answers them. The data is ``OperandStore``'s table.
@Suite("Queries: property against property, constant lists, quantifiers")
struct PropertyComparisonTests {
    @Test func twoListsWithoutAQuantifierCompareElementByElement() throws {
        let store = try OperandStore()
        // alice [1, 2, 3] = [1.0, 2.0, 3.0]; bob [4] ≠ [4.5]; carol [] = [].
        #expect(try store.names("ints == doubles") == ["alice", "carol"])
        // Realm's `!=` of two collections: of different sizes, or differing at every position (so two empty ones too).
        #expect(try store.names("ints != doubles") == ["bob", "carol"])
    }

    @Test func aPropertyComparesWithAPropertyThroughALink() throws {
        let store = try OperandStore()
        // alice's buddy bob is 40 > 30; carol's buddy alice is 30 > 25; bob has no buddy (nil > 40 is false).
        #expect(try store.names("buddy.age > age") == ["alice", "carol"])
        #expect(try store.names("age < buddy.age") == ["alice", "carol"])
    }

    @Test func anIntegerPropertyComparesWithADoubleProperty() throws {
        let store = try OperandStore()
        #expect(try store.names("age > balance") == ["alice", "bob", "carol"])
        #expect(try store.names("balance >= age") == [])
    }

    @Test func stringOperatorsCompareTwoPropertiesWithModifiers() throws {
        let store = try OperandStore()
        // "alice" begins with "Al" only case-insensitively; bob's nickname is nil; "carol" does not begin with "caz".
        #expect(try store.names("name BEGINSWITH[c] nickname") == ["alice"])
        #expect(try store.names("name BEGINSWITH nickname") == [])
        // As in realm-core (query_conditions.hpp), a null pattern is contained in every text that is
        // not null, so bob, whose nickname is nil, matches `CONTAINS` but not `BEGINSWITH`.
        #expect(try store.names("name CONTAINS[c] nickname") == ["alice", "bob"])
        #expect(try store.names("nickname ==[c] 'al'") == ["alice"])
    }

    @Test func aConstantOnTheLeftOfAStringOperatorIsTheText() throws {
        let store = try OperandStore()
        #expect(try store.names("'alice in wonderland' BEGINSWITH name") == ["alice"])
        #expect(try store.names("NULL == nickname") == ["bob"])
    }

    @Test func aQuantifiedConstantListOnTheRightMeansAnyOfItsValues() throws {
        let store = try OperandStore()
        #expect(try store.names("age == ANY {30, 40}") == ["alice", "bob"])
        #expect(try store.names("age == {25, 40}") == ["bob", "carol"])
        #expect(try store.names("age == NONE {30, 40}") == ["carol"])
        #expect(try store.names("age == ALL {30, 30}") == ["alice"])
        // Some value of the list differs from each age.
        #expect(try store.names("age != ANY {30, 40}") == ["alice", "bob", "carol"])
    }

    @Test func aQuantifiedConstantListInACollection() throws {
        let store = try OperandStore()
        #expect(try store.names("ANY {1, 9} IN ints") == ["alice"])
        #expect(try store.names("ALL {1, 2} IN ints") == ["alice"])
        #expect(try store.names("ALL {1, 4} IN ints") == [])
        #expect(try store.names("NONE {1, 4} IN ints") == ["carol"])
        #expect(try store.names("SOME {4} IN ints") == ["bob"])
    }

    @Test func aConstantListEqualsACollectionElementByElementInOrder() throws {
        let store = try OperandStore()
        #expect(try store.names("{1, 2, 3} == ints") == ["alice"])
        #expect(try store.names("ints == {3, 2, 1}") == [])
        #expect(try store.names("{} == ints") == ["carol"])
        #expect(try store.names("ints != {1, 2, 3}") == ["bob", "carol"])
    }

    @Test func aQuantifierOnEachSideQuantifiesEach() throws {
        let store = try OperandStore()
        // ALL of alice's ints are below ANY of bob's (4): yes. bob: 4 < 4 no. carol: ALL of none: yes.
        #expect(try store.names("ALL ints < ANY {4}") == ["alice", "carol"])
        #expect(try store.names("ANY ints > ALL {1, 2}") == ["alice", "bob"])
    }

    @Test func aCollectionAgainstAPropertyIsAnyByDefault() throws {
        let store = try OperandStore()
        // Some element of ints equals the age / 10: bob (4 = 40 / 10); alice's ints hold 3 = 30 / 10.
        #expect(try store.names("ints == age / 10") == ["alice", "bob"])
        #expect(try store.names("ALL doubles < balance") == ["alice", "bob", "carol"])
    }

    @Test func comparingAStringPropertyWithANumberPropertyIsRejectedWithItsPosition() throws {
        let store = try OperandStore()
        do {
            _ = try store.names("age > 1 AND name == age")
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("cannot compare name (a string) and age (a number)"))
            #expect(error.message.contains("position 12"))
        }
    }

    @Test func aQuantifierOnOneValueIsRejected() throws {
        let store = try OperandStore()
        #expect(throws: ObjDBError.self) { try store.names("age == ALL balance") }
    }
}

/// Errors of the schema check name where the comparison starts, for every spelling (#17.4).
@Suite("Queries: schema errors carry their position")
struct OperandErrorPositionTests {
    @Test(arguments: [
        ("age > 1 AND tags.@avg > 1", 12), ("age > 1 AND age == 'x'", 12), ("age > 1 AND nope == 1", 12),
        ("age > 1 AND items.@sum.name > 0", 12), ("age > 1 AND SUBQUERY(age, $x, $x.a == 1).@count > 0", 21),
    ])
    func aComparisonThatDoesNotFitTheSchemaNamesItsPosition(predicate: String, position: Int) throws {
        let store = try OperandStore()
        do {
            _ = try store.names(predicate)
            Issue.record("the query ran")
        } catch let error as ObjDBError {
            #expect(error.code == .invalidQuery)
            #expect(error.message.contains("(at position \(position))"), "\(error.message)")
        }
    }
}

/// The Swift front-ends compare two properties too, with the string form's answers.
@Suite("Queries: property against property in where and #Predicate")
struct SwiftPropertyComparisonTests {
    @Test func aWhereClosureComparesTwoProperties() throws {
        let store = try OperandStore()
        let people = try store.people
        #expect(people.where { $0.buddy.age > $0.age }.map(\.name).sorted() == ["alice", "carol"])
        #expect(people.where { $0.items.count >= $0.ints.count }.map(\.name).sorted() == ["alice", "bob", "carol"])
        #expect(people.where { $0.ints.count == $0.items.count }.map(\.name).sorted() == ["alice", "bob", "carol"])
        #expect(people.where { $0.balance > $0.balance }.map(\.name).sorted() == [])
    }

    @Test func aFoundationPredicateComparesTwoProperties() throws {
        let store = try OperandStore()
        let people = try store.people
        let same = #Predicate<RqPerson> { $0.name == $0.name && $0.age >= $0.age }
        #expect(try people.filter(same).count == 3)
        let richer = #Predicate<RqPerson> { $0.balance > $0.balance }
        #expect(try people.filter(richer).count == 0)
        #expect(try store.names("buddy.age > age") == people.where { $0.buddy.age > $0.age }.map(\.name).sorted())
    }
}
