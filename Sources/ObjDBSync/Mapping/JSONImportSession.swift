import ObjDB

/// One import in progress: its write transaction, the objects it has upserted, and their counts.
///
/// ```swift
/// let (newest, summary) = try db.importJSON(data) { root, session in
///     let tweets = try root.elements.compactMap { try session.upsert($0, using: Tweet.jsonMapping) }
///     return tweets.map(\.id).max()
/// }
/// ```
///
/// A session upserts each object once per payload, so that the same payload imported again finds
/// every object as it left it: when the payload holds an object again with the same JSON text, the
/// object stored the first time is reused; with other text, only the properties the first copy
/// left out are written from it (the first full copy wins over later ones, and over partial copies
/// made with ``ExistingObjectPolicy/keep``). ``summary`` counts each object once.
///
/// - Warning: A session belongs to the write transaction that made it, and to its thread.
public final class JSONImportSession {
    /// The write transaction everything commits in.
    public let transaction: WriteTransaction
    /// How deep objects may nest through relationships and embedded objects; deeper is an error
    /// (``SyncError/Code/limitExceeded``), so that no payload can exhaust the stack.
    public var maximumNesting = 200

    private var nesting = 0
    private var objects: [ObjectIdentifier: [AnyHashable: Entry]] = [:]
    private var typeNames: [ObjectIdentifier: String] = [:]
    private var recorded: [String: [ObjectKey: WriteTransaction.UpsertOutcome]] = [:]
    private var skipped: [String: Int] = [:]
    /// How many objects this session inserted or updated (or was told of through ``record(_:typeName:key:)``).
    public private(set) var changeCount = 0

    private struct Entry {
        let object: Object
        let source: JSONValue
        var outcome: WriteTransaction.UpsertOutcome
        /// The properties written from the payload so far.
        var written: Set<AnyKeyPath>
        /// Whether only a partial copy (``ExistingObjectPolicy/keep``) was written.
        var isPartial: Bool
    }

    /// A session writing through `transaction`.
    public init(transaction: WriteTransaction) {
        self.transaction = transaction
    }

    /// Upserts the object `json` describes, through `mapping`, and returns it (managed).
    ///
    /// - Parameters:
    ///   - existing: ``ExistingObjectPolicy/keep`` leaves an object already stored (or already
    ///     upserted by this session) untouched.
    ///   - complete: sets properties the JSON does not hold (a link the payload implies) on the
    ///     object before it is stored, and returns their key paths.
    /// - Returns: the object; `nil` when the JSON does not identify it and the mapping skips those.
    /// - Throws: ``SyncError`` naming the JSON path of the first value that does not map.
    /// - Precondition: `mapping` declares an identity.
    @discardableResult
    public func upsert<Target: Object>(
        _ json: JSONValue, using mapping: JSONMapping<Target>, existing: ExistingObjectPolicy = .update,
        completing complete: ((Target) throws -> [PartialKeyPath<Target>])? = nil
    ) throws -> Target? {
        guard json.node.kind == .object else {
            throw SyncError(.unexpectedValue, at: json.path, "expected an object, found \(json)")
        }
        guard let identity = mapping.identity else {
            preconditionFailure("The JSON mapping of \(Target.self) has no identity: declare one with identity(_:_:).")
        }
        guard let identityJSON = try identity.source.find(in: json), !identityJSON.isNull else {
            if mapping.missingIdentity == .skip {
                skipped[mapping.typeName, default: 0] += 1
                return nil
            }
            throw SyncError(
                .missingValue, at: json.path.appending(JSONPath(identity.source.keyPaths[0].components)),
                "a \(mapping.typeName) needs \(identity.source) to identify it")
        }
        let type = ObjectIdentifier(Target.self)
        let key = try identity.key(from: identityJSON, settingOn: nil)
        let earlier = objects[type]?[key]
        if let earlier, complete == nil {
            if existing == .keep || earlier.source.hasSameText(as: json) {
                return unsafeDowncast(earlier.object, to: Target.self)
            }
        } else if earlier == nil, existing == .keep, let stored = identity.existing(key, in: transaction) {
            remember(
                stored, key: key, type: type, typeName: mapping.typeName, source: json, outcome: .unchanged,
                written: [], isPartial: true)
            return stored
        }

        try enterNesting(at: json)
        defer { nesting -= 1 }
        let object = Target()
        _ = try identity.key(from: identityJSON, settingOn: object)
        var written: [PartialKeyPath<Target>] = [identity.property]
        try mapping.populate(object, from: json, session: self, written: &written)
        if let complete { written += try complete(object) }
        if let earlier, !earlier.isPartial {
            // Another copy in this payload: it only fills in what the first one left out.
            written = written.filter { !earlier.written.contains($0) }
            if written.isEmpty { return unsafeDowncast(earlier.object, to: Target.self) }
        }
        let outcome: WriteTransaction.UpsertOutcome
        do {
            outcome = try transaction.upsert(object, updating: written)
        } catch {
            throw SyncError(
                .store, at: json.path, "the store refused \(mapping.typeName) \(key): \(error)", underlyingError: error)
        }
        remember(
            object, key: key, type: type, typeName: mapping.typeName, source: json, outcome: outcome,
            written: Set(written), isPartial: existing == .keep)
        return object
    }

    /// Makes the embedded object `json` describes, through `mapping`, for an owner to hold.
    ///
    /// - Throws: ``SyncError`` naming the JSON path of the first value that does not map.
    public func makeEmbedded<Target: EmbeddedObject>(_ json: JSONValue, using mapping: JSONMapping<Target>) throws
        -> Target
    {
        guard json.node.kind == .object else {
            throw SyncError(.unexpectedValue, at: json.path, "expected an object, found \(json)")
        }
        try enterNesting(at: json)
        defer { nesting -= 1 }
        let object = Target()
        var written: [PartialKeyPath<Target>] = []
        try mapping.populate(object, from: json, session: self, written: &written)
        return object
    }

    /// Counts a write made directly through ``transaction``, so that ``summary`` includes it (and an
    /// import that changed nothing else still commits it).
    public func record(_ outcome: WriteTransaction.UpsertOutcome, typeName: String, key: ObjectKey) {
        if let earlier = recorded[typeName]?[key] {
            recorded[typeName]![key] = Self.combine(earlier, outcome)
        } else {
            recorded[typeName, default: [:]][key] = outcome
        }
        if outcome != .unchanged { changeCount += 1 }
    }

    /// Counts a write made directly through ``transaction`` to the object of `type` whose primary
    /// key is `key`: into the object's own count when the session upserted it (so it counts once),
    /// else as ``record(_:typeName:key:)`` does.
    func recordDirectWrite<Target: Object>(
        _ outcome: WriteTransaction.UpsertOutcome, to type: Target.Type, key: AnyHashable, typeName: String,
        objectKey: ObjectKey
    ) {
        let typeID = ObjectIdentifier(type)
        guard var entry = objects[typeID]?[key] else {
            record(outcome, typeName: typeName, key: objectKey)
            return
        }
        entry.outcome = Self.combine(entry.outcome, outcome)
        objects[typeID]![key] = entry
        if outcome != .unchanged { changeCount += 1 }
    }

    /// What the session did so far, per type.
    public var summary: ImportSummary {
        var summary = ImportSummary()
        func count(_ outcome: WriteTransaction.UpsertOutcome, in counts: inout ImportSummary.Counts) {
            switch outcome {
            case .inserted: counts.inserted += 1
            case .updated: counts.updated += 1
            case .unchanged: counts.unchanged += 1
            }
        }
        for (type, entries) in objects {
            var counts = summary[typeNames[type]!]
            for entry in entries.values { count(entry.outcome, in: &counts) }
            summary[typeNames[type]!] = counts
        }
        for (name, outcomes) in recorded {
            var counts = summary[name]
            for outcome in outcomes.values { count(outcome, in: &counts) }
            summary[name] = counts
        }
        for (name, number) in skipped { summary[name].skipped += number }
        return summary
    }

    // MARK: Helpers

    private func remember(
        _ object: Object, key: AnyHashable, type: ObjectIdentifier, typeName: String, source: JSONValue,
        outcome: WriteTransaction.UpsertOutcome, written: Set<AnyKeyPath>, isPartial: Bool
    ) {
        if outcome != .unchanged { changeCount += 1 }
        if typeNames[type] == nil { typeNames[type] = typeName }
        guard let earlier = objects[type]?[key] else {
            objects[type, default: [:]][key] = Entry(
                object: object, source: source, outcome: outcome, written: written, isPartial: isPartial)
            return
        }
        objects[type]![key] = Entry(
            object: earlier.object, source: earlier.source, outcome: Self.combine(earlier.outcome, outcome),
            written: earlier.written.union(written), isPartial: earlier.isPartial && isPartial)
    }

    /// One object's outcome over two upserts: inserted stays inserted; any update makes it updated.
    private static func combine(
        _ earlier: WriteTransaction.UpsertOutcome, _ later: WriteTransaction.UpsertOutcome
    ) -> WriteTransaction.UpsertOutcome {
        if earlier == .inserted || later == .inserted { return .inserted }
        return earlier == .updated || later == .updated ? .updated : .unchanged
    }

    private func enterNesting(at json: JSONValue) throws {
        guard nesting < maximumNesting else {
            throw SyncError(
                .limitExceeded, at: json.path, "objects nest deeper than \(maximumNesting) levels in this payload")
        }
        nesting += 1
    }
}

@available(*, unavailable, message: "an import session belongs to its write transaction's thread")
extension JSONImportSession: Sendable {}

extension JSONMapping {
    /// Sets `model`'s properties from the JSON object `object`, appending the key path of each
    /// property written to `written`.
    func populate(
        _ model: Model, from object: JSONValue, session: JSONImportSession, written: inout [PartialKeyPath<Model>]
    ) throws {
        for rule in rules {
            guard let found = try rule.source.find(in: object) else {
                if rule.required {
                    throw SyncError(
                        .missingValue, at: object.path.appending(JSONPath(rule.source.keyPaths[0].components)),
                        "\(typeName) needs \(rule.source)")
                }
                continue
            }
            let didWrite: Bool
            do {
                didWrite = try rule.apply(model, found, session)
            } catch let error as SyncError {
                throw error.placed(at: found.path)
            } catch {
                throw SyncError(.unexpectedValue, at: found.path, "\(error)")
            }
            if didWrite { written.append(rule.property) }
        }
    }
}
