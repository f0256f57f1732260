import Testing

@testable import ObjDB

@Suite("Live results: key chunks")
struct KeyChunksTests {
    @Test(arguments: [0, 1, 700, 3_000], [false, true])
    func editsMatchAnArray(initialCount: Int, fromQueryBuffer: Bool) {
        var random = SeededRandom(seed: UInt64(initialCount) + 1)
        // Keys of varying lengths, as string primary keys have.
        var model = (0..<initialCount).map { Array(String($0 * 7, radix: 36).utf8) }
        var chunks = fromQueryBuffer ? KeyChunks(Self.flat(model)) : KeyChunks(model)
        #expect(Array(chunks) == model)
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

    @Test func aQueryBufferReadsKeyByKeyInPlace() {
        let keys = ["", "a", "bc", "def", String(repeating: "x", count: 300)].map { Array($0.utf8) }
        let flat = Self.flat(keys)
        #expect(flat.count == keys.count)
        for (index, key) in keys.enumerated() {
            #expect(flat[index] == key)
            #expect(flat.withKey(at: index) { Array($0) } == key)
        }
    }

    private static func flat(_ keys: [[UInt8]]) -> FlatKeys {
        var flat = FlatKeys()
        for key in keys { key.withUnsafeBytes { flat.append($0) } }
        return flat
    }
}
