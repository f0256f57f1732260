import Dispatch
import Foundation
import TestSupport
import Testing

@testable import ObjDB

/// The first observer of a database starts the notifier; a commit made right after `observe`
/// returns, before the notifier's thread has run, must still reach it. Each test repeats on
/// fresh stores, since the commit races the thread's start: either may come first.
@Suite("The first observer hears every commit after observe returns")
struct FirstObserverTests {
    let directory = TemporaryDirectory()
    let runs = 8

    /// A fresh store holding counter 1 (value 1), and a queue with a view of it.
    private func freshStore(_ run: Int) throws -> (Database, DispatchQueue, Held<ReadView>) {
        let database = try counterStore(directory, name: "first-\(run).objdb")
        try database.write { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
        let queue = DispatchQueue(label: "observer \(run)")
        let view = Held<ReadView>()
        try onQueue(queue) { view.value = try database.view(queue: queue) }
        return (database, queue, view)
    }

    private func setValue(_ database: Database, _ value: Int) throws {
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = value }
    }

    @Test func anObjectObserverHearsACommitMadeRightAfterObserve() throws {
        for run in 0..<runs {
            let (database, queue, view) = try freshStore(run)
            let inbox = Inbox<[PropertyChange]>()
            let token = try onQueue(queue) {
                try view.value!.object(ofType: Counter.self, forPrimaryKey: 1)!.observe { change in
                    if case .change(_, let properties) = change { inbox.append(properties) }
                }
            }
            try setValue(database, 2)
            #expect(
                inbox.wait(for: 1) == [[PropertyChange(name: "value", oldValue: .int(1), newValue: .int(2))]],
                "run \(run)")
            token.invalidate()
        }
    }

    @Test func anObjectsAsyncChangesIncludeACommitMadeRightAfterTheyBegin() async throws {
        for run in 0..<runs {
            let database = try counterStore(directory, name: "first-stream-\(run).objdb")
            try syncWrite(database) { try $0.create(Counter.self, value: ["id": 1, "value": 1]) }
            let stream = try database.view().object(ofType: Counter.self, forPrimaryKey: 1)!.changes
            try syncWrite(database) { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.value = 2 }
            guard case .change(let frozen, let properties)? = await first(of: stream) else {
                Issue.record("run \(run): no change")
                continue
            }
            #expect(frozen.value == 2, "run \(run)")
            #expect(properties.map(\.name) == ["value"], "run \(run)")
        }
    }

    @Test func aResultsObserverShowsACommitMadeRightAfterObserve() throws {
        for run in 0..<runs {
            let (database, queue, view) = try freshStore(run)
            let inbox = Inbox<[Int]>()
            let token = try onQueue(queue) {
                try view.value!.objects(Counter.self).observe { change in
                    if let values = change.collection?.map(\.value) { inbox.append(values) }
                }
            }
            try setValue(database, 2)
            // The initial results at the commit's version, or the initial ones and then an update.
            var heard = inbox.wait(for: 1)
            if heard.last != [2] { heard = inbox.wait(for: 2) }
            #expect(heard.last == [2], "run \(run)")
            token.invalidate()
        }
    }

    @Test func anObjectOfAViewOlderThanTheNotifierHearsWhatChangedSince() throws {
        // The view's version predates the notifier (started by another observer), so the
        // change log cannot cover the commit between them.
        let (database, queue, view) = try freshStore(0)
        _ = try onQueue(queue) { view.value!.version }
        try database.write { $0.object(ofType: Counter.self, forPrimaryKey: 1)!.label = "since" }
        let (started, startedInbox) = try observeCounters(in: database)
        startedInbox.wait(for: 1)
        let inbox = Inbox<[PropertyChange]>()
        let token = try onQueue(queue) {
            try view.value!.object(ofType: Counter.self, forPrimaryKey: 1)!.observe { change in
                if case .change(_, let properties) = change { inbox.append(properties) }
            }
        }
        #expect(
            inbox.wait(for: 1) == [[PropertyChange(name: "label", oldValue: .string(""), newValue: .string("since"))]])
        withExtendedLifetime((token, started)) {}
    }

    @Test func anObjectOfAViewOlderThanTheNotifierHearsALinkedChangeSince() throws {
        let database = try Database(path: directory.store("linked.objdb"), types: [Post.self, Author.self])
        try database.write { transaction in
            let author = try transaction.create(Author.self, value: ["id": 10, "name": "ten"])
            try transaction.create(Post.self, value: ["id": 1, "title": "post", "author": author])
        }
        let queue = DispatchQueue(label: "observer")
        let view = Held<ReadView>()
        try onQueue(queue) {
            view.value = try database.view(queue: queue)
            _ = view.value!.version
        }
        try database.write { $0.object(ofType: Author.self, forPrimaryKey: 10)!.name = "renamed" }
        let other = Inbox<Int>()
        let started = try onQueue(queue) {
            try database.view(queue: queue).objects(Author.self).observe { _ in other.append(0) }
        }
        other.wait(for: 1)
        let inbox = Inbox<[String]>()
        let token = try onQueue(queue) {
            try view.value!.object(ofType: Post.self, forPrimaryKey: 1)!.observe { change in
                if case .change(_, let properties) = change { inbox.append(properties.map(\.name)) }
            }
        }
        #expect(inbox.wait(for: 1) == [["author"]])
        withExtendedLifetime((token, started)) {}
    }

    @Test func aCommandLineProgramObservingOnTheMainThreadHearsItsFirstCommit() throws {
        // The issue's steps, in a program of its own: observe on the main thread, commit, then
        // run the main run loop.
        for kind in ["object", "results"] {
            let child = try run(
                "objdb-test-child", ["observe-first", directory.store("child-\(kind).objdb"), kind, "4"])
            #expect(child.status == 0, "\(kind): \(child.output) \(child.error)")
            #expect(child.output == String(repeating: "heard\n", count: 4), "\(kind)")
        }
    }

    /// The first element of `stream`, or `nil` if none comes within 10 seconds.
    private func first<Element: Sendable>(of stream: AsyncStream<Element>) async -> Element? {
        await withTaskGroup(of: Element?.self) { group in
            group.addTask {
                var iterator = stream.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(10))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }
}
