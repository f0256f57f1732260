import Foundation

extension Results {
    /// The objects sorted by one property and grouped into sections by its value, as Realm's
    /// `sectioned(by:ascending:)` and a Core Data fetched-results controller's `sectionNameKeyPath`
    /// group them.
    ///
    /// ```swift
    /// let byCity = people.sectioned(by: \.city)
    /// for section in byCity { print(section.key, section.count) }
    /// ```
    ///
    /// Sections come in the order of their keys; inside one, objects keep the order of the
    /// results sorted by the key (ties in table-key order).
    ///
    /// - Precondition: `keyPath` reads one `@Persisted` property of the model.
    public func sectioned<Key: Hashable & Persistable>(by keyPath: KeyPath<Element, Key>, ascending: Bool = true)
        -> SectionedResults<Key, Element>
    {
        SectionedResults(results: sorted(by: keyPath, ascending: ascending)) { $0[keyPath: keyPath] }
    }

    /// The objects sorted by `sorts` and grouped into sections by the key `section` gives each one:
    /// the first letter of a name, the day of a date.
    ///
    /// ```swift
    /// let byInitial = try people.sectioned(by: { String($0.name.prefix(1)) }, sortedBy: [SortKey("name")])
    /// ```
    ///
    /// Sections come in the order of their first object; each holds its objects in the results'
    /// order, even when objects of other sections come between them. `section` is called with
    /// each object whenever the sections are worked out (once per snapshot), and must not keep it.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a sort key that names no property of
    ///   one value.
    public func sectioned<Key: Hashable>(by section: @escaping (Element) -> Key, sortedBy sorts: [SortKey])
        throws -> SectionedResults<Key, Element>
    {
        SectionedResults(results: sorts.isEmpty ? self : try sorted(by: sorts), key: section)
    }

    /// The objects sorted by the property at `keyPath` (through to-one links: `"author.name"`) and
    /// grouped into sections by its stored value, as Core Data's `sectionNameKeyPath` groups them.
    ///
    /// - Throws: ``ObjDBError/invalidQuery(type:reason:)`` for a key path that does not name a
    ///   property of one value.
    public func sectioned(byKeyPath keyPath: String, ascending: Bool = true) throws
        -> SectionedResults<StoredValue, Element>
    {
        let sorted = try self.sorted(by: [SortKey(keyPath, ascending: ascending)])
        let path = SortPath.components(keyPath)
        let binding = self.binding
        return SectionedResults(results: sorted) { results, position in
            let paths = QueryPaths(
                reader: QueryReader(source: try results.snapshot.source(), readsDamagedAsEmpty: true))
            // Keys a fault kept from being read (it is reported) read as no value, as Results reads empty.
            guard let key = results.keyList.key(at: position) else { return .null }
            return try paths.value(at: path, of: key, in: binding)
        }
    }
}

/// Results grouped into sections, each with its key: what a sectioned list or table shows.
///
/// Made by ``Results/sectioned(by:ascending:)``, ``Results/sectioned(by:sortedBy:)`` or
/// ``Results/sectioned(byKeyPath:ascending:)``. Like ``Results`` it reads its view's snapshot and is
/// live: the sections are worked out again when the view has moved since they last were.
/// ``observe(keyPaths:_:)`` reports each change as section and row changes, in the batch-update
/// convention of `UITableView`.
///
/// ## Topics
///
/// ### Reading the sections
/// - ``allKeys``
/// - ``subscript(_:)-(Int)``
/// - ``subscript(_:)-(IndexPath)``
/// - ``results``
///
/// ### Observing changes
/// - ``observe(keyPaths:_:)``
public struct SectionedResults<Key: Hashable, Element: Object>: RandomAccessCollection {
    /// Every object of every section, in the order the sections are worked out from.
    public let results: Results<Element>
    let keyOf: (Results<Element>, Int) throws -> Key
    private let cache = SectionLayoutCache<Key>()

    init(results: Results<Element>, key: @escaping (Element) -> Key) {
        self.results = results
        self.keyOf = { results, position in key(results[position]) }
        cache.keysElements = key
    }

    init(results: Results<Element>, keyOf: @escaping (Results<Element>, Int) throws -> Key) {
        self.results = results
        self.keyOf = keyOf
    }

    /// The same sectioning of other results (a later snapshot's).
    func resectioning(_ results: Results<Element>) -> SectionedResults {
        let made = SectionedResults(results: results, keyOf: keyOf)
        made.cache.keysElements = cache.keysElements
        return made
    }

    /// The sections' keys, in order.
    public var allKeys: [Key] { layout.sections.map(\.key) }

    /// The position of the first section.
    public var startIndex: Int { 0 }
    /// The position after the last section.
    public var endIndex: Int { layout.sections.count }

    /// The section at `position`.
    public subscript(position: Int) -> ResultsSection<Key, Element> {
        let section = layout.sections[position]
        return ResultsSection(key: section.key, results: results, positions: section.positions)
    }

    /// The object at `indexPath`, `[section, position in the section]`.
    public subscript(indexPath: IndexPath) -> Element {
        results[layout.sections[indexPath[0]].positions[indexPath[1]]]
    }

    /// The sections as of the snapshot the view reads now, worked out once per snapshot.
    var layout: SectionLayout<Key> {
        let generation = results.snapshot.generation
        if let known = cache.layout, cache.generation == generation { return known }
        let made = SectionLayout(results: results, cache: cache, keyOf: keyOf)
        cache.layout = made
        cache.generation = generation
        return made
    }
}

/// One section of a ``SectionedResults``: its key and its objects.
public struct ResultsSection<Key: Hashable, Element: Object>: RandomAccessCollection {
    /// The value every object of the section shares.
    public let key: Key
    let results: Results<Element>
    /// The objects' positions in `results`.
    let positions: [Int]

    /// The number of objects in the section.
    public var count: Int { positions.count }
    /// The position of the first object.
    public var startIndex: Int { 0 }
    /// The position after the last object.
    public var endIndex: Int { positions.count }
    /// The object at `position` of the section.
    public subscript(position: Int) -> Element { results[positions[position]] }
}

/// The sections of one snapshot: each section's key and the positions of its objects in the
/// results, and the objects' table keys (which the change sets of the next snapshot compare).
struct SectionLayout<Key: Hashable> {
    struct Section {
        var key: Key
        var positions: [Int]
    }

    var sections: [Section] = []
    var objectKeys: [[UInt8]] = []

    init() {}

    init<Element: Object>(
        results: Results<Element>, cache: SectionLayoutCache<Key>, keyOf: (Results<Element>, Int) throws -> Key
    ) {
        let keys = results.keyList.current()
        objectKeys = Array(keys)
        var index: [Key: Int] = [:]
        func place(_ key: Key, _ position: Int) {
            if let existing = index[key] {
                sections[existing].positions.append(position)
            } else {
                index[key] = sections.count
                sections.append(Section(key: key, positions: [position]))
            }
        }
        if let elementKey = cache.keysElements as? (Element) -> Key {
            // Through the results' iterator, which reuses one object for the walk.
            for (position, element) in results.enumerated() { place(elementKey(element), position) }
            return
        }
        for position in 0..<objectKeys.count {
            do {
                place(try keyOf(results, position), position)
            } catch {
                preconditionFailure("Sectioning \(Element.self) failed: \(error)")
            }
        }
    }
}

/// The sections a ``SectionedResults`` worked out last, and for which snapshot generation.
final class SectionLayoutCache<Key: Hashable> {
    var layout: SectionLayout<Key>?
    var generation: UInt64 = .max
    /// The key of an element, when the sections come from one (read through the results' iterator).
    var keysElements: Any?
}
