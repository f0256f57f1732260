import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

@Suite("Live results: changes one link away")
struct LinkedChangeTests {
    let directory = TemporaryDirectory()

    /// Posts 1–3; posts 1 and 3 by author 10, post 2 by author 20.
    private func store() throws -> Database {
        let database = try Database(path: directory.store(), types: [Post.self, Author.self])
        try database.write { transaction in
            let ten = try transaction.create(Author.self, value: ["id": 10, "name": "ten"])
            let twenty = try transaction.create(Author.self, value: ["id": 20, "name": "twenty"])
            for (id, author) in [(1, ten), (2, twenty), (3, ten)] {
                try transaction.create(Post.self, value: ["id": id, "title": "post \(id)", "author": author])
            }
        }
        return database
    }

    private func observePosts(_ database: Database, keyPaths: [String]? = nil) throws
        -> (NotificationToken, Inbox<[Int]>)
    {
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[Int]>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).objects(Post.self).observe(keyPaths: keyPaths) { change in
                if case .update(_, _, _, let modifications) = change { inbox.append(modifications) }
            }
        }
        database.notifier.runRound()  // the observer has had its first round
        return (token, inbox)
    }

    private func rename(_ database: Database, author id: Int, to name: String) throws {
        try database.write { $0.object(ofType: Author.self, forPrimaryKey: id)!.name = name }
    }

    @Test func aChangedAuthorModifiesThePostsLinkingToIt() throws {
        let database = try store()
        let (token, inbox) = try observePosts(database)
        try rename(database, author: 10, to: "ten, renamed")
        #expect(inbox.wait(for: 1) == [[0, 2]])
        withExtendedLifetime(token) {}
    }

    @Test func aLinkKeyPathWatchesOnlyThatPropertyOfTheTarget() throws {
        let database = try store()
        let (token, inbox) = try observePosts(database, keyPaths: ["author.name"])
        try database.write { $0.object(ofType: Author.self, forPrimaryKey: 20)!.age = 40 }
        try rename(database, author: 20, to: "twenty, renamed")
        #expect(inbox.wait(for: 1) == [[1]])
        Thread.sleep(forTimeInterval: 0.2)
        #expect(inbox.values.count == 1)
        withExtendedLifetime(token) {}
    }

    @Test func ownKeyPathsIgnoreLinkedObjects() throws {
        let database = try store()
        let (token, inbox) = try observePosts(database, keyPaths: ["title"])
        try rename(database, author: 10, to: "ignored")
        try database.write { $0.object(ofType: Post.self, forPrimaryKey: 2)!.title = "new title" }
        #expect(inbox.wait(for: 1) == [[1]])
        withExtendedLifetime(token) {}
    }

    @Test func anObjectObserverHearsItsLinkPropertyWhenTheTargetChanges() throws {
        let database = try store()
        let queue = DispatchQueue(label: "observer")
        let inbox = Inbox<[String]>()
        let token = try onQueue(queue) {
            try database.view(queue: queue).object(ofType: Post.self, forPrimaryKey: 1)!.observe { change in
                if case .change(_, let properties) = change { inbox.append(properties.map(\.name)) }
            }
        }
        database.notifier.runRound()  // the observer has had its first round
        try rename(database, author: 20, to: "not linked from post 1")
        try rename(database, author: 10, to: "linked")
        #expect(inbox.wait(for: 1) == [["author"]])
        withExtendedLifetime(token) {}
    }

    @Test func aKeyPathThroughSomethingNotALinkIsAnError() throws {
        let database = try store()
        #expect(throws: ObjDBError.invalidQuery(type: "Post", reason: "title is not a link")) {
            try observePosts(database, keyPaths: ["title.count"])
        }
    }
}
