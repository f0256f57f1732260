/// How a managed object reaches its record: its snapshot, its type, and its key.
@usableFromInline
final class ObjectAccessor {
    let snapshot: Snapshot
    let binding: TypeBinding
    // The mutable state below is read on every property access and rewritten on every recycled
    // row, so its dynamic exclusivity checks (a `swift_beginAccess` each, 8% of W5's object
    // work) are off. Sound because an accessor is confined to its snapshot's thread, and no
    // method here holds an access to one of these across a call that could reach another.
    /// The table key, or empty for an embedded object.
    @exclusivity(unchecked) private(set) var key: [UInt8]
    @exclusivity(unchecked) private(set) var objectKey: ObjectKey
    /// For an embedded object: where in its owner it lives.
    let owner: EmbeddedLocation?

    @exclusivity(unchecked) private var cachedReader: RecordReader?
    @exclusivity(unchecked) private var cachedGeneration: UInt64 = .max
    @exclusivity(unchecked) private var cachedCollections: [Int: Any] = [:]
    @exclusivity(unchecked) private var collectionsGeneration: UInt64 = .max

    init(snapshot: Snapshot, binding: TypeBinding, key: [UInt8], objectKey: ObjectKey) {
        self.snapshot = snapshot
        self.binding = binding
        self.key = key
        self.objectKey = objectKey
        self.owner = nil
    }

    init(embeddedIn owner: EmbeddedLocation, binding: TypeBinding) {
        self.snapshot = owner.accessor.snapshot
        self.binding = binding
        self.key = owner.accessor.key
        self.objectKey = owner.accessor.objectKey
        self.owner = owner
    }

    /// Points a recycled top-level object's accessor at another object of the same type and
    /// snapshot, forgetting what it cached of the old one.
    func repoint(key: [UInt8], objectKey: ObjectKey) {
        self.key = key
        repoint(objectKey: objectKey)
    }

    /// Points the accessor at `objectKey`, copying its table key into the key array it already has.
    func repoint(copying keyBytes: UnsafeRawBufferPointer, objectKey: ObjectKey) {
        // Keys of one type are mostly one length: then a copy over the old bytes, which the
        // generic `replaceSubrange` (4% of W5's samples) did element by element.
        if key.count == keyBytes.count, let source = keyBytes.baseAddress {
            key.withUnsafeMutableBytes { $0.baseAddress?.copyMemory(from: source, byteCount: keyBytes.count) }
        } else {
            key.removeAll(keepingCapacity: true)
            key.append(contentsOf: keyBytes)
        }
        repoint(objectKey: objectKey)
    }

    /// Points the accessor at `objectKey`, encoding its table key into the key array it already has.
    func repoint(to objectKey: ObjectKey) {
        ObjectKeyCodec.encode(objectKey, into: &key)
        repoint(objectKey: objectKey)
    }

    private func repoint(objectKey: ObjectKey) {
        precondition(owner == nil, "An embedded object's accessor cannot be repointed.")
        self.objectKey = objectKey
        cachedReader = nil
        cachedGeneration = .max
        if !cachedCollections.isEmpty { cachedCollections.removeAll() }
        collectionsGeneration = .max
    }

    /// Caches a record the caller just read for this object, saving the next lookup.
    func prime(with reader: RecordReader) {
        cachedReader = reader
        cachedGeneration = snapshot.generation
    }

    /// The record, re-fetched when the snapshot moved; `nil` when the object is gone.
    func reader() throws -> RecordReader? {
        if cachedGeneration == snapshot.generation, let cachedReader { return cachedReader }
        guard !snapshot.isClosed else { return nil }
        let reader: RecordReader?
        if let owner {
            reader = try owner.reader()
        } else {
            reader = try snapshot.record(in: binding, key: key)
        }
        cachedReader = reader
        cachedGeneration = snapshot.generation
        return reader
    }

    /// Whether the object still exists in its snapshot. A fault that keeps the record from being
    /// read is reported, and the object counts as existing: its properties read as zero values.
    var isValid: Bool {
        do {
            return try exists()
        } catch {
            snapshot.report(error)
            return true
        }
    }

    /// Whether the object still exists in its snapshot, or the fault that keeps it from being read.
    func exists() throws -> Bool {
        do {
            return try reader() != nil
        } catch let error as ObjDBError where error.code == .corruptRecord {
            return true
        }
    }

    /// The record of a managed object whose property is read, which must exist.
    func validReader() -> RecordReader {
        do {
            guard let reader = try reader() else {
                preconditionFailure(
                    "A \(binding.schema.name) was read after it was deleted or its view closed; check isInvalidated.")
            }
            return reader
        } catch {
            // A damaged record or a failing read must not stop the program: the properties read
            // as zero values, the fault is reported once, and `objdb-inspect check` finds it.
            snapshot.catalog.faults.report(error)
            return RecordReader.empty
        }
    }

    /// The property at `ordinal` of the object's class. Consuming: a getter's reference to
    /// the accessor moves into the property it reads through, with no retain of its own.
    @inline(__always)
    @usableFromInline
    __consuming func property(ordinal: Int) -> _ManagedProperty {
        precondition(
            ordinal < binding.propertiesByOrdinal.count,
            "A \(binding.schema.name) was created while another object's initializer was interrupted; "
                + "its properties cannot be told apart.")
        return _ManagedProperty(accessor: self, property: binding.propertiesByOrdinal[ordinal])
    }

    /// Assigns a property of the class; only in a write transaction.
    @usableFromInline
    func set<Value: Persistable>(_ value: Value, ordinal: Int) {
        property(ordinal: ordinal).write { context in try value._toStored(context) }
    }

    /// Whether a recycled object may point this accessor at another object of `binding` in
    /// `snapshot`: it is a top-level object's, of that type and snapshot. (Compares without
    /// copying `owner`, which would retain.)
    @inline(__always)
    func isRepointable(in snapshot: Snapshot, binding: TypeBinding) -> Bool {
        if case .some = owner { return false }
        return self.snapshot === snapshot && self.binding === binding
    }

    /// Whether both accessors reach the same stored object.
    func isSameObject(as other: ObjectAccessor) -> Bool {
        snapshot.catalog === other.snapshot.catalog && binding === other.binding && key == other.key
            && owner == nil && other.owner == nil
    }

    /// A decoded collection of property `slot`, built once per snapshot.
    func cachedCollection<Result>(slot: Int, _ build: () -> Result) -> Result {
        if collectionsGeneration != snapshot.generation {
            cachedCollections.removeAll()
            collectionsGeneration = snapshot.generation
        }
        if let cached = cachedCollections[slot] as? Result { return cached }
        let built = build()
        cachedCollections[slot] = built
        return built
    }
}

/// Where an embedded object lives: a property of its owner, and its position when the property is a list.
struct EmbeddedLocation {
    let accessor: ObjectAccessor
    let property: BoundProperty
    let element: Int?

    /// The embedded object's record, inside the owner's.
    func reader() throws -> RecordReader? {
        guard let ownerRecord = try accessor.reader() else { return nil }
        guard case .bytes(let bytes) = ownerRecord.field(property.slot) else { return nil }
        guard let element else { return RecordReader(validating: bytes) }
        var found: UnsafeRawBufferPointer?
        var position = 0
        ValueCodec(schema: accessor.snapshot.catalog.schemaIndex).forEachElement(bytes, as: property.schema) {
            if position == element { found = $0 }
            position += 1
        }
        return found.flatMap { RecordReader(validating: $0) }
    }
}
