import TestSupport
import Testing

@testable import ObjDB

@Suite("Transactions")
struct TransactionTests {
    let directory = TemporaryDirectory()

    @Test func putThenGetReturnsTheValue() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("Ada", forKey: "user:1", in: records) }
        #expect(try environment.read { try $0.string(forKey: "user:1", in: records) } == "Ada")
    }

    @Test func getOfAMissingKeyReturnsNil() throws {
        let (environment, records) = try makeStore(in: directory)
        #expect(try environment.read { try $0.string(forKey: "nobody", in: records) } == nil)
    }

    @Test func putReplacesTheValueOfAnExistingKey() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("old", forKey: "k", in: records) }
        try environment.write { try $0.put("new", forKey: "k", in: records) }
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == "new")
    }

    @Test func putWithNoOverwriteKeepsTheExistingValueAndReturnsFalse() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("first", forKey: "k", in: records) }
        let stored = try environment.write { try $0.put("second", forKey: "k", in: records, options: .noOverwrite) }
        #expect(stored == false)
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == "first")
    }

    @Test func reservedPutWritesTheBytesTheFillClosureProduces() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try Array("key".utf8).withUnsafeBytes { key in
                try transaction.put(reserving: 3, forKey: key, in: records) { buffer in
                    buffer.copyBytes(from: Array("abc".utf8))
                }
            }
        }
        #expect(try environment.read { try $0.string(forKey: "key", in: records) } == "abc")
    }

    @Test func deleteRemovesTheKeyAndReportsWhetherItExisted() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("v", forKey: "k", in: records) }
        #expect(try environment.write { try $0.delete("k", in: records) } == true)
        #expect(try environment.write { try $0.delete("k", in: records) } == false)
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == nil)
    }

    @Test func deleteOfOneDuplicateValueKeepsTheOthers() throws {
        let (environment, index) = try makeStore(in: directory, databaseOptions: .duplicateSort)
        try environment.write { transaction in
            for value in ["a", "b", "c"] { try transaction.put(value, forKey: "user:1", in: index) }
        }
        try environment.write { transaction in
            try Array("user:1".utf8).withUnsafeBytes { key in
                try Array("b".utf8).withUnsafeBytes { _ = try transaction.delete(key, value: $0, in: index) }
            }
        }
        #expect(try environment.read { try $0.entries(in: index) } == ["user:1=a", "user:1=c"])
    }

    @Test func removeAllEmptiesTheDatabaseButKeepsIt() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            for number in 0..<10 { try transaction.put("v", forKey: "k\(number)", in: records) }
        }
        try environment.write { try $0.removeAll(in: records) }
        #expect(try environment.read { try $0.statistics(of: records).entries } == 0)
        try environment.write { try $0.put("again", forKey: "k", in: records) }
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == "again")
    }

    @Test func aThrowingWriteClosureRollsEverythingBack() throws {
        struct Cancelled: Error {}
        let (environment, records) = try makeStore(in: directory)
        try environment.write { try $0.put("kept", forKey: "a", in: records) }
        #expect(throws: Cancelled.self) {
            try environment.write { transaction in
                try transaction.put("changed", forKey: "a", in: records)
                try transaction.put("added", forKey: "b", in: records)
                throw Cancelled()
            }
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["a=kept"])
    }

    @Test func abortDiscardsTheWritesOfAnExplicitTransaction() throws {
        let (environment, records) = try makeStore(in: directory)
        let transaction = try environment.beginWrite()
        try transaction.put("v", forKey: "k", in: records)
        transaction.abort()
        #expect(transaction.isFinished)
        #expect(try environment.read { try $0.string(forKey: "k", in: records) } == nil)
    }

    @Test func abortingANestedTransactionKeepsTheParentsWrites() throws {
        struct Cancelled: Error {}
        let (environment, records) = try makeStore(in: directory)
        try environment.write { parent in
            try parent.put("parent", forKey: "p", in: records)
            #expect(throws: Cancelled.self) {
                try parent.nested { child in
                    try child.put("child", forKey: "c", in: records)
                    try child.put("overwritten", forKey: "p", in: records)
                    throw Cancelled()
                }
            }
            #expect(try parent.string(forKey: "p", in: records) == "parent")
            #expect(try parent.string(forKey: "c", in: records) == nil)
        }
        #expect(try environment.read { try $0.entries(in: records) } == ["p=parent"])
    }

    @Test func aCommittedNestedTransactionLandsWithItsParent() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { parent in
            try parent.nested { try $0.put("child", forKey: "c", in: records) }
            #expect(try parent.string(forKey: "c", in: records) == "child")
        }
        #expect(try environment.read { try $0.string(forKey: "c", in: records) } == "child")
    }

    @Test func aCommittedNestedTransactionIsUndoneWhenTheParentAborts() throws {
        let (environment, records) = try makeStore(in: directory)
        let parent = try environment.beginWrite()
        try parent.nested { try $0.put("child", forKey: "c", in: records) }
        parent.abort()
        #expect(try environment.read { try $0.string(forKey: "c", in: records) } == nil)
    }

    @Test func theParentCannotBeUsedWhileAChildIsOpen() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { parent in
            let child = try parent.beginChild()
            #expect(throws: ObjDBError.lmdb(.badTransaction, operation: "mdb_put", path: environment.path)) {
                try parent.put("v", forKey: "k", in: records)
            }
            child.abort()
            try parent.put("v", forKey: "k", in: records)
        }
    }

    @Test func aDatabaseCreatedInAnAbortedTransactionDoesNotExist() throws {
        let (environment, _) = try makeStore(in: directory)
        let transaction = try environment.beginWrite()
        _ = try transaction.openDatabase(named: "ephemeral", options: .create)
        transaction.abort()
        #expect(try environment.read { try $0.openDatabaseIfPresent(named: "ephemeral") } == nil)
        #expect(try environment.databaseNames() == ["objdb.meta", "records"])
    }

    @Test func namedDatabasesPersistAcrossReopening() throws {
        do {
            let (environment, records) = try makeStore(in: directory)
            try environment.write { try $0.put("v", forKey: "k", in: records) }
        }
        let (environment, _) = try StoreFormat.open(path: directory.store())
        let value = try environment.read { transaction in
            try transaction.string(forKey: "k", in: try transaction.openDatabase(named: "records"))
        }
        #expect(value == "v")
    }

    @Test func aDeletedThenReinsertedKeyIsVisibleInTheSameTransaction() throws {
        let (environment, records) = try makeStore(in: directory)
        try environment.write { transaction in
            try transaction.put("1", forKey: "k", in: records)
            try transaction.delete("k", in: records)
            #expect(try transaction.string(forKey: "k", in: records) == nil)
            try transaction.put("2", forKey: "k", in: records)
            #expect(try transaction.string(forKey: "k", in: records) == "2")
        }
    }
}
