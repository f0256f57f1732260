/// The query shapes that compiled in one store catalog, so in one schema (a migration opens a new
/// catalog, with none): the query layer's `QueryShape`s, held here as hashable values so the
/// catalog need not know the query layer. Bounded: past ``capacity`` shapes it starts again.
final class CompiledShapes: Sendable {
    private let shapes = Lock(Set<AnyHashable>())
    private static let capacity = 512

    /// Whether `shape` compiled before.
    func contains(_ shape: some Hashable & Sendable) -> Bool {
        shapes.withLock { $0.contains(AnyHashable(shape)) }
    }

    /// Records that `shape` compiled.
    func insert(_ shape: some Hashable & Sendable) {
        shapes.withLock { shapes in
            if shapes.count >= Self.capacity { shapes.removeAll(keepingCapacity: true) }
            shapes.insert(AnyHashable(shape))
        }
    }
}
