/// What an operand reached: each object once, however many routes lead to it, and each value once
/// per item it came from, with how many times the path reached it.
///
/// A path through links and back (`author.posts.author.posts.author.name`) reaches few distinct
/// objects by very many routes. Following every route costs the product of every fan-out; walking
/// level by level, each object once per level, costs what the path reaches. Quantified comparisons
/// (`ANY`, `ALL`, `NONE`) need only the distinct items, aggregates their counts, and an
/// element-by-element comparison lists the items in the order the routes reach them
/// (``ordered(limit:)``), from the links between levels, no further than it needs.
struct Reached {
    /// The items, objects once each.
    var items: [OperandItem]
    /// How many times the path reached each item (saturating at `Int.max`).
    var counts: [Int]
    /// For each level of the walk but the last, each item's links to the items of the next level,
    /// in order; `nil` when ``items`` are already in order, each reached once.
    fileprivate var links: [[[Int]]]?

    init(items: [OperandItem], counts: [Int]? = nil) {
        self.items = items
        self.counts = counts ?? Array(repeating: 1, count: items.count)
        links = nil
    }

    fileprivate init(items: [OperandItem], counts: [Int], links: [[[Int]]]) {
        self.items = items
        self.counts = counts
        self.links = links
    }

    /// How many items the routes reach in all, repeats included.
    var total: Int { counts.reduce(0, Reached.adding) }

    /// The items in the order the routes reach them, repeats included, at most `limit` of them.
    func ordered(limit: Int) -> [OperandItem] {
        guard let links else {
            var ordered: [OperandItem] = []
            for (item, count) in zip(items, counts) where ordered.count < limit {
                ordered += repeatElement(item, count: Swift.min(count, limit - ordered.count))
            }
            return ordered
        }
        // How many final items lie below each item of each level, from the last level up: a branch
        // that reaches nothing is skipped without being walked.
        var below: [[Int]] = Array(repeating: [], count: links.count + 1)
        below[links.count] = Array(repeating: 1, count: items.count)
        for level in stride(from: links.count - 1, through: 0, by: -1) {
            below[level] = links[level].map { children in
                children.reduce(0) { Reached.adding($0, below[level + 1][$1]) }
            }
        }
        var ordered: [OperandItem] = []
        func visit(_ level: Int, _ index: Int) {
            guard ordered.count < limit, below[level][index] > 0 else { return }
            if level == links.count {
                ordered.append(items[index])
                return
            }
            for child in links[level][index] {
                visit(level + 1, child)
                if ordered.count >= limit { return }
            }
        }
        for index in below[0].indices { visit(0, index) }
        return ordered
    }

    /// The same routes to other items: `transform` maps each item (its count and place stay).
    func mapItems(_ transform: (OperandItem) -> OperandItem) -> Reached {
        var mapped = self
        mapped.items = items.map(transform)
        return mapped
    }

    static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    static func multiplying(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }
}

/// The items of the next level of a walk, each object once.
private struct LevelBuilder {
    var items: [OperandItem] = []
    var counts: [Int] = []
    private var objects: [ObjectIdentity: Int] = [:]

    private struct ObjectIdentity: Hashable {
        let type: ObjectIdentifier
        let key: [UInt8]
    }

    /// Adds `item`, reached `count` more times; returns its index.
    mutating func add(_ item: OperandItem, count: Int) -> Int {
        // An embedded object is known by its owner's key, which its siblings share: never merged.
        if case .object(let binding, _, let key) = item, !binding.schema.isEmbedded {
            let identity = ObjectIdentity(type: ObjectIdentifier(binding), key: key)
            if let index = objects[identity] {
                counts[index] = Reached.adding(counts[index], count)
                return index
            }
            objects[identity] = items.count
        }
        items.append(item)
        counts.append(count)
        return items.count - 1
    }
}

extension OperandEvaluator {
    /// What `steps` reach from `start`, level by level.
    func reach(_ steps: [OperandStep], from start: OperandItem, in source: QueryReader) throws -> Reached {
        var items = [start]
        var counts = [1]
        var links: [[[Int]]] = []
        var position = 0
        while position < steps.count {
            let step = steps[position]
            switch step {
            case .aggregate(let kind):
                // `dogs.@count`, `items.@sum.price`: one number for every item reached (Realm's
                // LinkCount and SubColumnAggregate follow every route from the object).
                return Reached(items: [.value(OperandNumber.aggregate(kind, items, counts: counts))])
            case .allBacklinksCount:
                // `beers.@links.@count`: the links to every object reached, added up (realm-core's
                // `LinkMap::count_all_backlinks`).
                var total = 0
                for (item, count) in zip(items, counts) {
                    guard case .object(let binding, _, let key) = item else { continue }
                    total = Reached.adding(
                        total, Reached.multiplying(count, try backlinkCount(of: key, in: binding, source)))
                }
                return Reached(items: [.value(.int(Int64(total)))])
            default:
                break
            }
            // A step an `[index]` or a collection's aggregate follows reads each item's own collection.
            var then: OperandStep?
            if position + 1 < steps.count {
                switch steps[position + 1] {
                case .index, .collectionAggregate: then = steps[position + 1]
                default: break
                }
            }
            var next = LevelBuilder()
            var levelLinks: [[Int]] = []
            levelLinks.reserveCapacity(items.count)
            for (item, count) in zip(items, counts) {
                var reached = try successors(step, of: item, in: source)
                switch then {
                case .index(let index)?: reached = Self.pick(index, from: reached)
                case .collectionAggregate(let kind)?:
                    reached = [.value(OperandNumber.aggregate(kind, reached, counts: nil))]
                default: break
                }
                levelLinks.append(reached.map { next.add($0, count: count) })
            }
            links.append(levelLinks)
            items = next.items
            counts = next.counts
            position += then == nil ? 1 : 2
        }
        return Reached(items: items, counts: counts, links: links)
    }

    /// The elements an index picks from one collection's.
    static func pick(_ index: QueryListIndex, from items: [OperandItem]) -> [OperandItem] {
        switch index {
        case .position(let position): return position < items.count ? [items[position]] : []
        case .first: return Array(items.prefix(1))
        case .last: return Array(items.suffix(1))
        case .size: return [.value(.int(Int64(items.count)))]
        case .all: return items
        }
    }

    /// What one step reaches from one item, in order.
    private func successors(_ step: OperandStep, of item: OperandItem, in source: QueryReader) throws
        -> [OperandItem]
    {
        var next: [OperandItem] = []
        switch step {
        case .property(let slot, let schema, let target):
            guard case .object(_, let record, let key) = item else {
                if schema.collection == .single, item.isNull { next.append(.value(.null)) }
                return next
            }
            try read(record.field(slot), schema, target, parentKey: key, into: &next, in: source)
        case .map(let slot, let schema, let target, let access):
            guard case .object(_, let record, _) = item else { return next }
            var entries: [String: StoredValue] = [:]
            if case .bytes(let bytes) = record.field(slot) { entries = codec.decodeMap(bytes, as: schema) }
            switch access {
            case .keys: next = entries.keys.sorted().map { .value(.string($0)) }
            case .values:
                for key in entries.keys.sorted() { next.append(try self.item(entries[key]!, target, in: source)) }
            case .key(let key): next.append(try self.item(entries[key] ?? .null, target, in: source))
            }
        case .backlinks(let origin, let propertyID):
            guard case .object(let binding, _, let key) = item else { return next }
            for link in try key.withUnsafeBytes({ try source.incomingLinks(to: $0, in: binding) })
            where link.typeName == origin.schema.name && link.propertyID == propertyID {
                guard let record = try link.key.withUnsafeBytes({ try source.record(in: origin, key: $0) }) else {
                    continue
                }
                let times = occurrences(of: key, in: record, origin: origin, propertyID: propertyID)
                for _ in 0..<times { next.append(.object(origin, record, key: link.key)) }
            }
        case .allBacklinksCount:
            guard case .object(let binding, _, let key) = item else { return [.value(.int(0))] }
            next.append(.value(.int(Int64(try backlinkCount(of: key, in: binding, source)))))
        case .index(let index):
            next = Self.pick(index, from: [item])
        case .aggregate(let kind), .collectionAggregate(let kind):
            next = [.value(OperandNumber.aggregate(kind, [item], counts: nil))]
        case .length, .elementLength:
            var nilLength = StoredValue.null
            if case .elementLength = step { nilLength = .int(0) }
            switch item.storedValue {
            case .string(let text): next.append(.value(.int(Int64(text.utf8.count))))
            case .data(let data): next.append(.value(.int(Int64(data.count))))
            default: next.append(.value(nilLength))
            }
        }
        return next
    }

    /// The values or objects a field holds, appended.
    private func read(
        _ field: RecordField, _ schema: PropertySchema, _ target: TypeBinding?, parentKey: [UInt8],
        into items: inout [OperandItem], in source: QueryReader
    ) throws {
        if schema.collection == .single {
            guard let target else {
                switch field {
                case .bytes(let bytes):
                    items.append(.value(codec.decodeValue(bytes, as: schema) ?? codec.zeroValue(of: schema)))
                case .null: items.append(.value(.null))
                case .absent: items.append(.value(codec.zeroValue(of: schema)))
                }
                return
            }
            guard case .bytes(let bytes) = field else { return items.append(.value(.null)) }
            if schema.type == .embedded {
                items.append(.object(target, try source.record(bytes, of: target), key: parentKey))
            } else if let linked = try source.record(in: target, key: bytes) {
                items.append(.object(target, linked, key: Array(bytes)))
            } else {
                items.append(.value(.null))
            }
            return
        }
        guard case .bytes(let bytes) = field else { return }
        var elements: [UnsafeRawBufferPointer?] = []
        codec.forEachElement(bytes, as: schema) { elements.append($0) }
        for element in elements {
            guard let element else {
                items.append(.value(.null))
                continue
            }
            guard let target else {
                if let value = codec.decodeValue(element, as: schema) { items.append(.value(value)) }
                continue
            }
            if schema.type == .embedded {
                items.append(.object(target, try source.record(element, of: target), key: parentKey))
            } else if let linked = try source.record(in: target, key: element) {
                items.append(.object(target, linked, key: Array(element)))
            }
        }
    }

    /// A map's value as an item: the linked object for a link.
    private func item(_ value: StoredValue, _ target: TypeBinding?, in source: QueryReader) throws -> OperandItem {
        guard let target, case .link(_, let key) = value else { return .value(value) }
        let bytes = ObjectKeyCodec.encode(key)
        guard let record = try bytes.withUnsafeBytes({ try source.record(in: target, key: $0) }) else {
            return .value(.null)
        }
        return .object(target, record, key: bytes)
    }

    /// How many links point at the object: every entry of every list, set, map and to-one link.
    private func backlinkCount(of key: [UInt8], in binding: TypeBinding, _ source: QueryReader) throws -> Int {
        var count = 0
        for link in try key.withUnsafeBytes({ try source.incomingLinks(to: $0, in: binding) }) {
            guard let origin = source.catalog.bindings[link.typeName],
                let record = try link.key.withUnsafeBytes({ try source.record(in: origin, key: $0) })
            else { continue }
            count += occurrences(of: key, in: record, origin: origin, propertyID: link.propertyID)
        }
        return count
    }

    /// How many times the `origin` record links to `key` through the property: a list may hold it twice.
    private func occurrences(of key: [UInt8], in record: RecordReader, origin: TypeBinding, propertyID: UInt16) -> Int {
        guard let property = origin.properties.first(where: { $0.schema.id == propertyID }),
            property.schema.collection == .list, case .bytes(let bytes) = record.field(property.slot)
        else { return 1 }
        var count = 0
        codec.forEachElement(bytes, as: property.schema) { element in
            if let element, element.elementsEqual(key) { count += 1 }
        }
        return max(count, 1)
    }
}
