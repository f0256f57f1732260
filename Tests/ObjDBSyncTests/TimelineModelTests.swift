import Foundation
import LoopbackServer
import ObjDB
import Testing

@testable import ObjDBSync

/// Random orders of loadNewer and loadOlder, with the server's timeline growing and failing now
/// and then, checked after every step against the model: no duplicate, no skipped status. The
/// same algorithm over both APIs: v1.1 (max_id, full pages) and X v2 (until_id, pagination tokens).
@Suite("Timeline paging against a model", .timeLimit(.minutes(5)))
struct TimelineModelTests {
    @Test(arguments: [LoaderAPI.v1, .x], [UInt64(7), 1_234, 99_991])
    func noDuplicateOrSkippedTweetInAnyOrderOfLoads(api dialect: LoaderAPI, seed: UInt64) async throws {
        var random = SeededRandom(seed: seed)
        let fixture = try LoaderFixture(
            count: 2_000, pageSize: 20 + Int(random.next() % 60), seed: seed, over: dialect)
        for _ in 0..<40 {
            if random.next() % 3 == 0 { fixture.api.grow(by: Int(random.next() % 300)) }
            fixture.api.failEvery(random.next() % 4 == 0 ? 2 + Int(random.next() % 4) : nil)
            do {
                if random.next() % 3 == 0 {
                    try await fixture.loader.loadOlder(pages: 1 + Int(random.next() % 3))
                } else {
                    try await fixture.loader.loadNewer(maxPages: 1 + Int(random.next() % 4))
                }
            } catch let error as SyncError where error.code == .apiError {
                // An injected failure: what landed before it must still be consistent.
            }
            let entries = try fixture.entries()
            #expect(Set(entries).count == entries.count, "a duplicate entry")
            #expect(entries == entries.sorted(by: >), "entries out of order")
            #expect(entries == (try fixture.expectedEntries()), "a skipped or foreign entry")
        }
        fixture.api.failEvery(nil)
        while !(try fixture.gaps().isEmpty) { try await fixture.loader.loadNewer(maxPages: 50) }
        try await fixture.loader.loadNewer(maxPages: 50)
        let entries = try fixture.entries()
        let ids = fixture.api.ids
        #expect(entries == Array(ids.prefix(entries.count)), "holes left after the gaps were filled")
    }
}
