import Synchronization

/// Follows one object across rounds and works out what each did to it. Used on the notifier's thread only.
final class ObjectChangeTracker {
    let binding: TypeBinding
    let key: [UInt8]
    private let observed: ObservedKeyPaths
    private(set) var version: Int?
    private var isDeleted = false
    private var hasHadRound = false

    /// A tracker from `version`, the version the object was read at (its view's), if known.
    init(binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths, version: Int? = nil) {
        self.binding = binding
        self.key = key
        self.observed = observed
        self.version = version
    }

    /// What `round` did to the object, or `nil` when nothing observed changed (or on the first round).
    func advance(_ round: NotificationRound, observerID: Int) throws -> ObjectRoundChange? {
        // A throw leaves the version where it was, so the next round compares from there.
        let change = try change(in: round, observerID: observerID)
        version = round.newVersion
        hasHadRound = true
        return change
    }

    private func change(in round: NotificationRound, observerID: Int) throws -> ObjectRoundChange? {
        guard !isDeleted, let version, version != round.newVersion else { return nil }
        let (changes, old) = round.changes(forObserverAt: version)
        // The first round, from the view's version, without a log that covers it: nothing to
        // compare with, and reporting every property would be a false alarm.
        if changes == nil && old == nil && !hasHadRound { return nil }
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

        let codec = ValueCodec(schema: round.new.catalog.schemaIndex)
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
    private let deliveryTarget: ViewDelivery
    private let target: DeliveryTarget<Observed, ObjectChange<Observed>>
    let isActive = ActiveFlag()

    init(
        id: Int, binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths, delivery: ViewDelivery,
        object: Observed, version: Int?, block: @escaping (ObjectChange<Observed>) -> Void
    ) {
        self.id = id
        self.tracker = ObjectChangeTracker(binding: binding, key: key, observed: observed, version: version)
        self.deliveryTarget = delivery
        self.target = DeliveryTarget(subject: object, block: block)
    }

    var version: Int? { tracker.version }
    var delivery: ViewDelivery? { deliveryTarget }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        guard let change = try tracker.advance(round, observerID: id) else { return nil }
        let target = self.target
        let isActive = self.isActive
        return .view(deliveryTarget) {
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
        id: Int, binding: TypeBinding, key: [UInt8], objectKey: ObjectKey, database: Database, version: Int?,
        continuation: AsyncStream<ObjectChange<Frozen<Observed>>>.Continuation
    ) {
        self.id = id
        self.tracker = ObjectChangeTracker(
            binding: binding, key: key, observed: .everything(of: binding, in: database), version: version)
        self.objectKey = objectKey
        self.continuation = continuation
    }

    var version: Int? { tracker.version }
    var delivery: ViewDelivery? { nil }

    func end() {
        continuation.finish()
    }

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
