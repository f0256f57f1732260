import TestSupport
import Testing

@testable import ObjDB

@Suite("Cursors")
struct CursorTests {
    let directory = TemporaryDirectory()

    /// A store holding keys "a" through "f", each with its uppercase letter as the value.
    func makeLetters() throws -> (Environment, DatabaseHandle) {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for letter in ["d", "b", "f", "a", "e", "c"] {
                try transaction.put(letter.uppercased(), forKey: letter, in: records)
            }
        }
        return (environment, records)
    }

    @Test func iteratesForwardsInKeyOrder() throws {
        let (environment, records) = try makeLetters()
        #expect(try environment.read { try $0.entries(in: records) } == ["a=A", "b=B", "c=C", "d=D", "e=E", "f=F"])
    }

    @Test func iteratesBackwardsInReverseKeyOrder() throws {
        let (environment, records) = try makeLetters()
        let entries = try environment.read { try $0.entries(in: records, reverse: true) }
        #expect(entries == ["f=F", "e=E", "d=D", "c=C", "b=B", "a=A"])
    }

    @Test func iteratesAnInclusiveRange() throws {
        let (environment, records) = try makeLetters()
        let entries = try environment.read { try $0.entries(in: records, from: KeyBound("b"), to: KeyBound("d")) }
        #expect(entries == ["b=B", "c=C", "d=D"])
    }

    @Test func iteratesAnExclusiveRange() throws {
        let (environment, records) = try makeLetters()
        let entries = try environment.read {
            try $0.entries(in: records, from: KeyBound("b", inclusive: false), to: KeyBound("e", inclusive: false))
        }
        #expect(entries == ["c=C", "d=D"])
    }

    @Test func iteratesARangeBackwards() throws {
        let (environment, records) = try makeLetters()
        let inclusive = try environment.read {
            try $0.entries(in: records, from: KeyBound("b"), to: KeyBound("d"), reverse: true)
        }
        let exclusive = try environment.read {
            try $0.entries(
                in: records, from: KeyBound("b", inclusive: false), to: KeyBound("d", inclusive: false), reverse: true)
        }
        #expect(inclusive == ["d=D", "c=C", "b=B"])
        #expect(exclusive == ["c=C"])
    }

    @Test func rangeBoundsBetweenKeysSelectTheKeysInside() throws {
        let (environment, records) = try makeLetters()
        let forwards = try environment.read { try $0.entries(in: records, from: KeyBound("bb"), to: KeyBound("dd")) }
        let backwards = try environment.read {
            try $0.entries(in: records, from: KeyBound("bb"), to: KeyBound("dd"), reverse: true)
        }
        #expect(forwards == ["c=C", "d=D"])
        #expect(backwards == ["d=D", "c=C"])
    }

    @Test func openEndedRangesRunToTheEnds() throws {
        let (environment, records) = try makeLetters()
        #expect(try environment.read { try $0.entries(in: records, from: KeyBound("e")) } == ["e=E", "f=F"])
        #expect(try environment.read { try $0.entries(in: records, to: KeyBound("b")) } == ["a=A", "b=B"])
        #expect(try environment.read { try $0.entries(in: records, from: KeyBound("z")) } == [])
        let pastTheEnd = try environment.read { try $0.entries(in: records, to: KeyBound("z"), reverse: true) }
        #expect(pastTheEnd.first == "f=F")
    }

    @Test func anEmptyDatabaseYieldsNothingEitherWay() throws {
        let (environment, records) = try makeStore(in: directory)
        #expect(try environment.read { try $0.entries(in: records) } == [])
        #expect(try environment.read { try $0.entries(in: records, reverse: true) } == [])
    }

    @Test func reverseRangesIncludeEveryDuplicateValueOfTheUpperKey() throws {
        let (environment, index) = try makeStore(in: directory, databaseOptions: .duplicateSort)
        try environment.write { transaction in
            for (key, value) in [("a", "1"), ("b", "1"), ("b", "2"), ("b", "3"), ("c", "1")] {
                try transaction.put(value, forKey: key, in: index)
            }
        }
        let entries = try environment.read { try $0.entries(in: index, to: KeyBound("b"), reverse: true) }
        #expect(entries == ["b=3", "b=2", "b=1", "a=1"])
    }

    @Test func stoppingEarlyEndsTheIteration() throws {
        let (environment, records) = try makeLetters()
        var seen: [String] = []
        try environment.read { transaction in
            try transaction.cursor(records).forEach { entry in
                seen.append(String(decoding: entry.key, as: UTF8.self))
                return seen.count < 2
            }
        }
        #expect(seen == ["a", "b"])
    }

    @Test func seekFindsTheFirstKeyAtOrAboveTheTarget() throws {
        let (environment, records) = try makeLetters()
        try environment.read { transaction in
            let cursor = try transaction.cursor(records)
            let found = try Array("cc".utf8).withUnsafeBytes { try cursor.seek(atLeast: $0) }
            #expect(found.map { String(decoding: $0.key, as: UTF8.self) } == "d")
            let exact = try Array("cc".utf8).withUnsafeBytes { try cursor.seek(exactly: $0) }
            #expect(exact == nil)
        }
    }

    @Test func deletingThroughACursorRemovesTheCurrentEntry() throws {
        let (environment, records) = try makeLetters()
        try environment.write { transaction in
            let cursor = try transaction.cursor(records)
            _ = try cursor.first()
            try cursor.deleteCurrent()
        }
        #expect(try environment.read { try $0.entries(in: records) }.first == "b=B")
    }

    @Test func aCursorOutlivingItsWriteTransactionIsReleasedSafely() throws {
        let (environment, records) = try makeLetters()
        var cursor: Cursor?
        try environment.write { cursor = try $0.cursor(records) }
        cursor = nil
        #expect(cursor == nil)
        #expect(try environment.read { try $0.entries(in: records) }.count == 6)
    }
}
