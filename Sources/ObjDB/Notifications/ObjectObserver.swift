import Synchronization

/// Follows one object across rounds and works out what each did to it. Used on the notifier's thread only.
final class ObjectChangeTracker {
    let binding: TypeBinding
    let key: [UInt8]
    private let observed: ObservedKeyPaths
    private var version: Int?
    private var isDeleted = false

    init(binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths) {
        self.binding = binding
        self.key = key
        self.observed = observed
    }

    var isNew: Bool { version == nil }

    /// What `round` did to the object, or `nil` when nothing observed changed (or on the first round).
    func advance(_ round: NotificationRound, observerID: Int) throws -> ObjectRoundChange? {
        defer { version = round.newVersion }
        guard !isDeleted, let version else { return nil }
        let inStep = version == round.oldVersion
        let changes = inStep ? round.changes : nil
        let old = inStep ? round.old : nil
        var changed = Set<UInt16>()
        let newRecord = try round.new.record(in: binding, key: key)
        if let typeChanges = changes?.types[binding.schema.name], !typeChanges.isWholesale {
            if let change = typeChanges.objects[key] {
                changed = change.allProperties ? Set(binding.properties.map(\.schema.id)) : change.properties
            }
        } else if let changes, !changes.touches(binding.schema.name) {
            // Nothing of its own changed; its links may reach something that did.
        } else if newRecord != nil, let oldRecord = try old?.record(in: binding, key: key) {
            changed = Set(
                binding.properties.filter { property in
                    property.schema.isStored
                        && !oldRecord.field(property.slot).hasSameBytes(as: newRecord!.field(property.slot))
                }.map(\.schema.id))
        } else {
            changed = Set(binding.properties.map(\.schema.id))
        }
        if let changes, newRecord != nil {
            for source in try observed.linkingSources(of: changes, in: round.new, binding: binding)
            where source.key == key {
                changed.insert(source.propertyID)
            }
        }
        if let properties = observed.properties { changed.formIntersection(properties) }
        let deleted = newRecord == nil
        isDeleted = deleted
        if !deleted && (changed.isEmpty || round.silenced.contains(observerID)) { return nil }

        let codec = ValueCodec(schema: round.new.database.schemaIndex)
        let oldRecord = try old?.record(in: binding, key: key)
        let properties: [PropertyChange] =
            deleted
            ? []
            : binding.properties.filter { changed.contains($0.schema.id) && $0.schema.isStored }.map { property in
                PropertyChange(
                    name: property.schema.name,
                    oldValue: oldRecord.map { codec.decodeField($0.field(property.slot), of: property.schema) },
                    newValue: newRecord.map { codec.decodeField($0.field(property.slot), of: property.schema) })
            }
        return ObjectRoundChange(isDeletion: deleted, properties: properties)
    }
}

/// What one round did to an observed object.
struct ObjectRoundChange {
    let isDeletion: Bool
    /// The changed properties, in declaration order; empty for a deletion.
    let properties: [PropertyChange]
}

/// An observer of one live object: reports the properties a round changed, or its deletion.
final class ObjectObserver<Observed: Object>: ChangeObserver {
    let id: Int
    private let tracker: ObjectChangeTracker
    private let delivery: ViewDelivery
    private let target: DeliveryTarget<Observed, ObjectChange<Observed>>
    let isActive = ActiveFlag()

    init(
        id: Int, binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths, delivery: ViewDelivery,
        object: Observed, block: @escaping (ObjectChange<Observed>) -> Void
    ) {
        self.id = id
        self.tracker = ObjectChangeTracker(binding: binding, key: key, observed: observed)
        self.delivery = delivery
        self.target = DeliveryTarget(subject: object, block: block)
    }

    var isNew: Bool { tracker.isNew }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        guard let change = try tracker.advance(round, observerID: id) else { return nil }
        let target = self.target
        let isActive = self.isActive
        return .view(delivery) {
            guard isActive.isActive else { return }
            let object = target.subject
            let block = target.block
            if change.isDeletion {
                isActive.clear()
                block(.deleted)
            } else {
                block(.change(object, change.properties))
            }
        }
    }

}

/// An observer feeding an object's async sequence with frozen copies: delivers on the notifier's thread.
final class ObjectStreamObserver<Observed: Object>: ChangeObserver {
    let id: Int
    private let tracker: ObjectChangeTracker
    private let continuation: AsyncStream<ObjectChange<Frozen<Observed>>>.Continuation
    private let objectKey: ObjectKey

    init(
        id: Int, binding: TypeBinding, key: [UInt8], objectKey: ObjectKey, database: Database,
        continuation: AsyncStream<ObjectChange<Frozen<Observed>>>.Continuation
    ) {
        self.id = id
        self.tracker = ObjectChangeTracker(
            binding: binding, key: key, observed: .everything(of: binding, in: database))
        self.objectKey = objectKey
        self.continuation = continuation
    }

    var isNew: Bool { tracker.isNew }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        guard let change = try tracker.advance(round, observerID: id) else { return nil }
        let continuation = self.continuation
        if change.isDeletion {
            return .now {
                continuation.yield(.deleted)
                continuation.finish()
            }
        }
        guard let object = try round.new.object(Observed.self, key: objectKey) else { return nil }
        let frozen = Frozen(object)
        return .now { continuation.yield(.change(frozen, change.properties)) }
    }
}
