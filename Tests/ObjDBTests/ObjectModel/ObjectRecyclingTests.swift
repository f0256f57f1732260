import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ObjDB

/// A model that counts its deinits, to tell a reused instance from a new one.
final class CountedNote: Object {
    static let deinits = Atomic<Int>(0)
    @Persisted(primaryKey: true) var id = 0
    @Persisted var text = ""
    @Persisted var tags: List<NoteTag>
    deinit { CountedNote.deinits.add(1, ordering: .relaxed) }
}

final class NoteTag: Object {
    @Persisted(primaryKey: true) var name = ""
}

/// A model with state of its own, which a reused instance would carry over.
final class ScratchNote: Object {
    @Persisted(primaryKey: true) var id = 0
    var scratch = 0
}

final class WeakBox {
    weak var note: CountedNote?
    let id: Int
    init(_ note: CountedNote) {
        self.note = note
        id = note.id
    }
}

/// Loops over results and point reads reuse the instance the loop let go of (#11, W4/W5), and
/// nothing that can still reach an object ever sees it change (serialized: one deinit counter).
@Suite("Objects: recycled instances", .serialized)
struct ObjectRecyclingTests {
    let directory = TemporaryDirectory()

    private func makeNotes(_ count: Int) throws -> Database {
        let db = try Database(path: directory.store(), types: [CountedNote.self, NoteTag.self, ScratchNote.self])
        try db.write { transaction in
            for id in 1...count {
                let note = CountedNote()
                note.id = id
                note.text = "note \(id)"
                try transaction.add(note)
                let scratch = ScratchNote()
                scratch.id = id
                try transaction.add(scratch)
            }
            let tag = try transaction.create(NoteTag.self, value: ["name": "red"])
            transaction.object(ofType: CountedNote.self, forPrimaryKey: 1)?.tags.append(tag)
        }
        return db
    }

    @Test func aLoopThatLetsGoOfEachObjectMakesNoNewInstancePerRow() throws {
        let view = try makeNotes(100).view()
        var texts: [String] = []
        let before = CountedNote.deinits.load(ordering: .relaxed)
        for note in view.objects(CountedNote.self) { texts.append(note.text) }
        #expect(CountedNote.deinits.load(ordering: .relaxed) - before <= 1)
        #expect(texts == (1...100).map { "note \($0)" })
    }

    @Test func objectsTheLoopKeepsAreNeverRepointed() throws {
        let view = try makeNotes(50).view()
        var kept: [CountedNote] = []
        for note in view.objects(CountedNote.self) { kept.append(note) }
        #expect(kept.map(\.id) == Array(1...50))
        #expect(Set(kept.map(ObjectIdentifier.init)).count == 50)
    }

    @Test func aWeaklyHeldObjectIsNeverRepointed() throws {
        let view = try makeNotes(20).view()
        var boxes: [WeakBox] = []
        var repointed = 0
        for note in view.objects(CountedNote.self) {
            // Checked while the loop runs: once it ends, every object it made may be gone.
            repointed += boxes.filter { box in box.note.map { $0.id != box.id } ?? false }.count
            boxes.append(WeakBox(note))
        }
        #expect(repointed == 0)
    }

    @Test func anObjectWhoseListIsHeldKeepsItsOwnList() throws {
        let view = try makeNotes(5).view()
        var firstTags: List<NoteTag>?
        for note in view.objects(CountedNote.self) where note.id == 1 { firstTags = note.tags }
        for note in view.objects(CountedNote.self) { _ = note.text }
        #expect(firstTags?.map(\.name) == ["red"])
    }

    @Test func aClassWithStateOfItsOwnGetsANewInstancePerRow() throws {
        let view = try makeNotes(10).view()
        for note in view.objects(ScratchNote.self) {
            #expect(note.scratch == 0)
            note.scratch = note.id
        }
    }

    @Test func pointReadsReuseALetGoObjectAndKeepAHeldOne() throws {
        let view = try makeNotes(30).view()
        let before = CountedNote.deinits.load(ordering: .relaxed)
        var total = 0
        for id in 1...30 { total += view.object(ofType: CountedNote.self, forPrimaryKey: id)?.id ?? 0 }
        #expect(CountedNote.deinits.load(ordering: .relaxed) - before <= 1)
        #expect(total == (1...30).reduce(0, +))
        let held = try #require(view.object(ofType: CountedNote.self, forPrimaryKey: 7))
        let other = try #require(view.object(ofType: CountedNote.self, forPrimaryKey: 8))
        #expect(held.id == 7 && other.id == 8 && held !== other)
    }

    @Test func frozenResultsMakeANewInstancePerRow() throws {
        let view = try makeNotes(10).view()
        let frozen = try view.freeze()
        let before = CountedNote.deinits.load(ordering: .relaxed)
        var ids: [Int] = []
        for note in try frozen.objects(CountedNote.self) { ids.append(note.id) }
        #expect(ids == Array(1...10))
        #expect(CountedNote.deinits.load(ordering: .relaxed) - before >= 9)
    }
}
