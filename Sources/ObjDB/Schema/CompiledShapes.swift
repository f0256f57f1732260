/// The query shapes that compiled in one store catalog, so in one schema (a migration opens a new
/// catalog, with none): the query layer's `QueryShape`s, held as a set of a type the catalog need
/// not know. Bounded: past ``capacity`` shapes it starts again.
final class CompiledShapes: Sendable {
    /// A `Set` of the one shape type the query layer passes. (Not `AnyHashable`s: boxing each shape
    /// and casting at every comparison cost W5 a tenth of a query; BENCHMARKS.md.)
    private let shapes = Lock<(any Sendable)?>(nil)
    private static let capacity = 512

    /// Whether `shape` compiled before.
    func contains<Shape: Hashable & Sendable>(_ shape: Shape) -> Bool {
        shapes.withLock { ($0 as? Set<Shape>)?.contains(shape) ?? false }
    }

    /// Records that `shape` compiled.
    func insert<Shape: Hashable & Sendable>(_ shape: Shape) {
        shapes.withLock { stored in
            var shapes = stored as? Set<Shape> ?? []
            // The set is then referenced once: inserting does not copy it.
            stored = nil
            if shapes.count >= Self.capacity { shapes.removeAll(keepingCapacity: true) }
            shapes.insert(shape)
            stored = shapes
        }
    }
}
