import Synchronization

/// An observer of one live object: reports the properties a round changed, or its deletion.
final class ObjectObserver<Observed: Object>: ChangeObserver {
    let id: Int
    private let binding: TypeBinding
    private let key: [UInt8]
    private let observed: ObservedKeyPaths
    private let delivery: ViewDelivery
    private let target: DeliveryTarget<Observed, ObjectChange<Observed>>
    let isActive = ActiveFlag()
    private var version: Int?
    private var isDeleted = false

    init(
        id: Int, binding: TypeBinding, key: [UInt8], observed: ObservedKeyPaths, delivery: ViewDelivery,
        object: Observed, block: @escaping (ObjectChange<Observed>) -> Void
    ) {
        self.id = id
        self.binding = binding
        self.key = key
        self.observed = observed
        self.delivery = delivery
        self.target = DeliveryTarget(subject: object, block: block)
    }

    var isNew: Bool { version == nil }

    func process(_ round: NotificationRound) throws -> ObserverOutput? {
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
        if !deleted && (changed.isEmpty || round.silenced.contains(id)) { return nil }

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
        let target = self.target
        let isActive = self.isActive
        return .view(delivery) {
            guard isActive.isActive else { return }
            let object = target.subject
            let block = target.block
            if deleted {
                isActive.clear()
                block(.deleted)
            } else {
                block(.change(object, properties))
            }
        }
    }

}
