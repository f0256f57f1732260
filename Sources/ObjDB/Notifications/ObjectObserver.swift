import Dispatch

/// Follows one object across rounds and works out what each did to it. Made where the object's
/// view belongs, then used on the notifier's thread only.
///
/// It keeps a copy of the object's record at the version it last reached, so every change it
/// reports has its old values, however the rounds fell (the first one, one after the view was
/// busy, or one the change log does not cover), and a snapshot at that version while it may
/// (not during map growth), for the linked objects when the log cannot say what changed.
final class ObjectChangeTracker {
    let binding: TypeBinding
    let key: [UInt8]
    private let observed: ObservedKeyPaths
    /// The version the tracker has reached: the object's view's when it was made.
    private(set) var version: Int
    /// The object's record at `version`; `nil` for an object observed in the write that creates it.
    private var record: [UInt8]?
    /// A snapshot at `version`, when one may be kept.
    private var baseline: Snapshot?
    private var isDeleted = false

    /// A tracker from the version `baseline` (a frozen snapshot of the object's view) reads.
    /// `isWriting`: the view is in a write, and the object may be one the write creates; its
    /// commit is then not reported (the observer saw the object as it commits), its rollback is
    /// a deletion.
    ///
    /// - Throws: ``ObjDBError/objectInvalidated(type:)`` when the object is not there.
    init(binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths, baseline: Snapshot, isWriting: Bool = false)
        throws
    {
        self.binding = binding
        self.key = key
        self.observed = observed
        self.version = try baseline.readVersion()
        let reader = try baseline.record(in: binding, key: key)
        guard reader != nil || isWriting else { throw ObjDBError.objectInvalidated(type: binding.schema.name) }
        self.record = reader.map { Array($0.record) }
        self.baseline = baseline
    }

    /// What `round` did to the object, or `nil` when nothing observed changed. A throw leaves
    /// the tracker where it was.
    func advance(_ round: NotificationRound, observerID: Int) throws -> ObjectRoundChange? {
        guard !isDeleted, version != round.newVersion else { return nil }
        let changes = try round.changes(since: version)
        guard let newReader = try round.new.record(in: binding, key: key) else {
            isDeleted = true
            baseline = nil
            return ObjectRoundChange(isDeletion: true, properties: [])
        }
        guard let record else {
            moved(to: round, record: newReader)
            return nil
        }
        var changed = try changedProperties(from: record, to: newReader, changes: changes, in: round)
        if let properties = observed.properties { changed.formIntersection(properties) }
        let codec = ValueCodec(schema: round.new.catalog.schemaIndex)
        let properties = record.withUnsafeBytes { oldBytes in
            let oldReader = RecordReader(header: oldBytes)
            return binding.properties.filter { changed.contains($0.schema.id) && $0.schema.isStored }.map { property in
                PropertyChange(
                    name: property.schema.name,
                    oldValue: oldReader.map { codec.decodeField($0.field(property.slot), of: property.schema) },
                    newValue: codec.decodeField(newReader.field(property.slot), of: property.schema))
            }
        }
        moved(to: round, record: newReader)
        if properties.isEmpty || round.silenced.contains(observerID) { return nil }
        return ObjectRoundChange(isDeletion: false, properties: properties)
    }

    private func moved(to round: NotificationRound, record newReader: RecordReader) {
        version = round.newVersion
        record = Array(newReader.record)
        baseline = round.mayKeepSnapshot ? round.new : nil
    }

    /// The IDs of the properties that changed from `version` to the round's: from the change
    /// log where it covers them, by comparing records where it does not.
    private func changedProperties(
        from record: [UInt8], to newReader: RecordReader, changes: ChangeSet?, in round: NotificationRound
    ) throws -> Set<UInt16> {
        let name = binding.schema.name
        var changed = Set<UInt16>()
        if let own = changes?.types[name], !own.isWholesale {
            if let change = own.objects[key] {
                changed = change.allProperties ? Set(binding.properties.map(\.schema.id)) : change.properties
            }
        } else if let changes, !changes.touches(name) {
            // Nothing of its own changed; its links may reach something that did.
        } else {
            record.withUnsafeBytes { oldBytes in
                guard let oldReader = RecordReader(header: oldBytes) else {
                    changed = Set(binding.properties.map(\.schema.id))
                    return
                }
                for property in binding.properties where property.schema.isStored {
                    if !oldReader.field(property.slot).hasSameBytes(as: newReader.field(property.slot)) {
                        changed.insert(property.schema.id)
                    }
                }
            }
        }
        // One link away: the log names the changed targets, and backlinks lead back here; for
        // targets it does not list one by one, the records are compared, when a snapshot of
        // the old version is at hand, or else the link counts as changed.
        var unlisted = Set(observed.links.map(\.target))
        if let changes {
            for source in try observed.linkingSources(of: changes, in: round.new, binding: binding)
            where source.key == key {
                changed.insert(source.propertyID)
            }
            unlisted = unlisted.filter { changes.types[$0]?.isWholesale == true }
        }
        guard !unlisted.isEmpty else { return changed }
        if let baseline {
            changed.formUnion(
                try observed.changedLinks(
                    of: newReader, binding: binding, from: baseline, to: round.new, targets: unlisted))
        } else {
            changed.formUnion(observed.links.filter { unlisted.contains($0.target) }.map(\.propertyID))
        }
        return changed
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
        id: Int, tracker: ObjectChangeTracker, delivery: ViewDelivery, object: Observed,
        block: @escaping (ObjectChange<Observed>) -> Void
    ) {
        self.id = id
        self.tracker = tracker
        self.deliveryTarget = delivery
        self.target = DeliveryTarget(subject: object, block: block, queue: delivery.queue)
    }

    var version: Int? { tracker.version }
    var delivery: ViewDelivery? { deliveryTarget }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
        guard let change = try tracker.advance(round, observerID: id) else { return nil }
        let target = self.target
        let isActive = self.isActive
        return .view(deliveryTarget) {
            guard isActive.isActive else { return }
            if change.isDeletion {
                isActive.clear()
                target.block(.deleted)
            } else {
                target.block(.change(target.subject, change.properties))
            }
        }
    }

    func fail(_ error: any Error) -> ObserverOutput {
        let target = self.target
        let isActive = self.isActive
        return .view(deliveryTarget) {
            guard isActive.isActive else { return }
            isActive.clear()
            target.block(.error(error))
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
        id: Int, tracker: ObjectChangeTracker, objectKey: ObjectKey,
        continuation: AsyncStream<ObjectChange<Frozen<Observed>>>.Continuation
    ) {
        self.id = id
        self.tracker = tracker
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

    func fail(_ error: any Error) -> ObserverOutput {
        let continuation = self.continuation
        return .now {
            continuation.yield(.error(error))
            continuation.finish()
        }
    }
}
