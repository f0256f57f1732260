/// What an observer watches: properties of its own objects, and, one link away, properties of
/// the objects those links reach (`"author.name"`).
///
/// Without key paths it watches every property, and every object its links reach: a change to
/// a linked object reports the linking object as modified, in its link property (Realm goes
/// four links deep; ObjDB one). A key path names a property of the observed type, or a link
/// and a property of its target; anything after a second dot is not looked at.
struct ObservedKeyPaths: Sendable {
    /// The IDs of the observed type's properties whose changes count; `nil` for all.
    let properties: Set<UInt16>?
    /// The links followed to the objects they reach.
    let links: [LinkedObservation]

    /// Every property, and every object a link reaches.
    static func everything(of binding: TypeBinding, in database: Database) -> ObservedKeyPaths {
        ObservedKeyPaths(
            properties: nil,
            links: binding.properties.compactMap { property in
                guard property.schema.type == .object, let target = property.schema.objectType,
                    database.bindings[target]?.schema.isEmbedded == false
                else { return nil }
                return LinkedObservation(propertyID: property.schema.id, target: target, targetProperties: nil)
            })
    }

    private init(properties: Set<UInt16>?, links: [LinkedObservation]) {
        self.properties = properties
        self.links = links
    }

    /// What `keyPaths` name; `nil` for ``everything(of:in:)``.
    ///
    /// - Throws: ``ObjDBError/unknownProperty(type:property:)``, or
    ///   ``ObjDBError/invalidQuery(type:reason:)`` for a dotted path through something not a link.
    init(keyPaths: [String]?, binding: TypeBinding, database: Database) throws {
        guard let keyPaths else {
            self = .everything(of: binding, in: database)
            return
        }
        var properties = Set<UInt16>()
        var links: [UInt16: LinkedObservation] = [:]
        for path in keyPaths {
            let names = path.split(separator: ".").map(String.init)
            guard let name = names.first, let property = binding[name] else {
                throw ObjDBError.unknownProperty(type: binding.schema.name, property: names.first ?? path)
            }
            properties.insert(property.schema.id)
            guard names.count > 1 else { continue }
            guard property.schema.type == .object, let target = property.schema.objectType,
                let targetBinding = database.bindings[target]
            else {
                throw ObjDBError.invalidQuery(type: binding.schema.name, reason: "\(name) is not a link")
            }
            guard !targetBinding.schema.isEmbedded else { continue }  // stored inside: an own change
            guard let targetProperty = targetBinding[names[1]] else {
                throw ObjDBError.unknownProperty(type: target, property: names[1])
            }
            var link =
                links[property.schema.id]
                ?? LinkedObservation(propertyID: property.schema.id, target: target, targetProperties: [])
            link.targetProperties?.insert(targetProperty.schema.id)
            links[property.schema.id] = link
        }
        self.properties = properties
        self.links = links.values.sorted { $0.propertyID < $1.propertyID }
    }

    /// The types whose changes the links make the observer look at.
    var linkedTypes: Set<String> { Set(links.map(\.target)) }

    /// The objects of `binding` whose observed links reach an object that `changes` changed (in
    /// an observed property), and through which link property; read in `snapshot`.
    func linkingSources(of changes: ChangeSet, in snapshot: Snapshot, binding: TypeBinding) throws
        -> [(key: [UInt8], propertyID: UInt16)]
    {
        var sources: [(key: [UInt8], propertyID: UInt16)] = []
        for link in links {
            guard let changed = changes.types[link.target], !changed.isWholesale,
                let target = snapshot.catalog.bindings[link.target]
            else { continue }
            for (key, change) in changed.objects where change.existedBefore && change.existsAfter {
                if let watched = link.targetProperties, !change.allProperties,
                    change.properties.isDisjoint(with: watched)
                {
                    continue
                }
                for source in try snapshot.source().incomingLinks(to: key, in: target)
                where source.typeName == binding.schema.name && source.propertyID == link.propertyID {
                    sources.append((source.key, link.propertyID))
                }
            }
        }
        return sources
    }

    /// The link properties of the object whose record (in `new`) is `record` that reach an
    /// object of `targets` whose record differs, in a watched property, between `old` and
    /// `new`: what ``linkingSources(of:in:binding:)`` finds when the change log cannot say.
    func changedLinks(
        of record: RecordReader, binding: TypeBinding, from old: Snapshot, to new: Snapshot, targets: Set<String>
    ) throws -> Set<UInt16> {
        let codec = ValueCodec(schema: new.catalog.schemaIndex)
        var changed = Set<UInt16>()
        for link in links where targets.contains(link.target) {
            guard let property = binding.properties.first(where: { $0.schema.id == link.propertyID }),
                let target = new.catalog.bindings[link.target]
            else { continue }
            for key in Self.linkedKeys(in: codec.decodeField(record.field(property.slot), of: property.schema)) {
                let bytes = ObjectKeyCodec.encode(key)
                guard let before = try old.record(in: target, key: bytes),
                    let after = try new.record(in: target, key: bytes)
                else {
                    changed.insert(link.propertyID)
                    break
                }
                let differs =
                    link.targetProperties.map { watched in
                        target.properties.contains { property in
                            watched.contains(property.schema.id) && property.schema.isStored
                                && !before.field(property.slot).hasSameBytes(as: after.field(property.slot))
                        }
                    } ?? !before.record.elementsEqual(after.record)
                if differs {
                    changed.insert(link.propertyID)
                    break
                }
            }
        }
        return changed
    }

    /// The keys of the objects a link property's value reaches: one, or each element's.
    private static func linkedKeys(in value: StoredValue) -> [ObjectKey] {
        switch value {
        case .link(_, let key): return [key]
        case .list(let elements): return elements.flatMap(linkedKeys)
        case .map(let entries): return entries.values.flatMap(linkedKeys)
        default: return []
        }
    }
}

/// A link an observer follows: a change to an object it reaches (in `targetProperties`, or
/// any property when `nil`) counts as a change to the link property.
struct LinkedObservation: Sendable {
    let propertyID: UInt16
    let target: String
    var targetProperties: Set<UInt16>?
}
