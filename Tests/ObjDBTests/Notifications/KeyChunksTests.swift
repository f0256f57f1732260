import Testing

@testable import ObjDB

@Suite("Live results: key chunks")
struct KeyChunksTests {
    @Test(arguments: [0, 1, 700, 3_000])
    func editsMatchAnArray(initialCount: Int) {
        var random = SeededRandom(seed: UInt64(initialCount) + 1)
        var model = (0..<initialCount).map { withUnsafeBytes(of: UInt32($0).bigEndian) { Array($0) } }
        var chunks = KeyChunks(model)
        let shared = chunks  // a version a view still holds: edits must not reach it
        for step in 0..<2_000 {
            if model.isEmpty || random.next(upTo: 2) == 0 {
                let position = random.next(upTo: model.count + 1)
                let key = withUnsafeBytes(of: UInt32(100_000 + step).bigEndian) { Array($0) }
                model.insert(key, at: position)
                chunks.insert(key, at: position)
            } else {
                let position = random.next(upTo: model.count)
                model.remove(at: position)
                chunks.remove(at: position)
            }
        }
        #expect(Array(chunks) == model)
        #expect(chunks.count == model.count)
        #expect(shared.count == initialCount)
        var walked: [[UInt8]] = []
        for index in 0..<chunks.chunkCount { walked += chunks.chunk(index) }
        #expect(walked == model)
    }
}
