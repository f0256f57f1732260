import Foundation
import ObjDB

/// How JSON maps onto one object type, declared in one place: which key paths feed which
/// properties, through which transformers, and which object links are found by identity.
///
/// ```swift
/// extension Beer {
///     static let jsonMapping = JSONMapping(Beer.self) {
///         $0.identity(\.id, "id")                                   // upsert by primary key
///         $0.map(\.name, "name")
///         $0.map(\.abv, "abv", .numberOrString)                     // "8" or 8
///         $0.map(\.breweries, "breweries", using: Brewery.jsonMapping)   // ordered to-many, by identity
///     }
/// }
/// let summary = try db.importJSON(data, at: "data", using: Beer.jsonMapping)
/// ```
///
/// The mapping is the Swift form of Mantle's `JSONKeyPathsByPropertyKey` and RestKit's entity
/// mappings: typed key paths on the model's side, ``JSONSource``s (key paths into nested JSON,
/// with fallbacks) on the payload's. It knows nothing of any particular API.
///
/// **Absent keys and `null`.** A key the payload leaves out writes nothing: an object already
/// stored keeps that property's value, a new one takes its default. `null` sets an optional
/// property to `nil`, an optional link to `nil`, and a list to empty; for a property that cannot
/// be `nil`, it is an error, like any other value of the wrong shape. Declare a property
/// `required` to make its absence an error too.
///
/// **Relationships.** A to-one link or a list of links maps through the target's mapping, which
/// must declare an ``Builder/identity(_:_:)``: each object is upserted by primary key (inserted,
/// updated or left alone), once per import however often the payload repeats it. Embedded
/// objects, alone or in lists, map through a mapping of their own without identity.
///
/// **Errors.** A value of the wrong shape fails the whole import with a ``SyncError`` naming its
/// JSON path: `response.docs[3].pub_date: expected a date string (ISO 8601), found 42`.
///
/// ## Topics
/// - ``Builder``
/// - ``ExistingObjectPolicy``
/// - ``MissingIdentityPolicy``
public final class JSONMapping<Model: ObjectBase>: @unchecked Sendable {
    // @unchecked because the rules hold key paths, which the standard library does not mark
    // Sendable; a mapping never changes after its initializer returns.

    let rules: [MappingRule<Model>]
    let identity: MappingIdentity<Model>?
    /// What an import does with an object whose identity the payload leaves out.
    public let missingIdentity: MissingIdentityPolicy

    /// Declares the mapping of `type`: `declare` receives a builder to state the rules on.
    ///
    /// - Parameters:
    ///   - missingIdentity: ``MissingIdentityPolicy/fail`` (the default) makes an unidentified
    ///     object an error; ``MissingIdentityPolicy/skip`` leaves it out and counts it as skipped.
    public init(
        _ type: Model.Type, missingIdentity: MissingIdentityPolicy = .fail, _ declare: (Builder) -> Void
    ) {
        let builder = Builder()
        declare(builder)
        rules = builder.rules
        identity = builder.identity
        self.missingIdentity = missingIdentity
    }

    /// The name the store knows the type by.
    public var typeName: String { String(describing: Model.self) }

    /// The rules of a mapping, stated once in ``JSONMapping/init(_:missingIdentity:_:)``.
    public final class Builder {
        var rules: [MappingRule<Model>] = []
        var identity: MappingIdentity<Model>?

        init() {}

        // MARK: Values

        /// Maps `source` onto the property `keyPath` through the property type's own transformer.
        ///
        /// - Parameter required: whether the payload must hold the value (else absence writes nothing).
        public func map<Value: JSONConvertible>(
            _ keyPath: ReferenceWritableKeyPath<Model, Value>, _ source: JSONSource, required: Bool = false
        ) {
            map(keyPath, source, Value.jsonTransformer, required: required)
        }

        /// Maps `source` onto the property `keyPath` through `transformer`.
        public func map<Value>(
            _ keyPath: ReferenceWritableKeyPath<Model, Value>, _ source: JSONSource,
            _ transformer: JSONTransformer<Value>, required: Bool = false
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: required) { model, json, _ in
                    model[keyPath: keyPath] = try transformer.transform(json)
                    return true
                })
        }

        /// Maps `source` onto the optional property `keyPath` through `transformer`; `null` sets `nil`.
        public func map<Value>(
            _ keyPath: ReferenceWritableKeyPath<Model, Value?>, _ source: JSONSource,
            _ transformer: JSONTransformer<Value>, required: Bool = false
        ) {
            map(keyPath, source, transformer.optional, required: required)
        }

        /// Maps `source` onto the property `keyPath` with `convert`, which may use the session
        /// (to upsert or embed objects) and returns the property's value.
        public func map<Value>(
            _ keyPath: ReferenceWritableKeyPath<Model, Value>, _ source: JSONSource, required: Bool = false,
            with convert: @escaping (JSONValue, JSONImportSession) throws -> Value
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: required) { model, json, session in
                    model[keyPath: keyPath] = try convert(json, session)
                    return true
                })
        }

        // MARK: Lists of values

        /// Maps a JSON array onto a list of values; with `element`, each value is found at that key
        /// path inside the array's objects (`entities.hashtags`, each `text`).
        public func map<Element: JSONConvertible>(
            _ keyPath: ReferenceWritableKeyPath<Model, List<Element>>, _ source: JSONSource,
            each element: JSONKeyPath? = nil
        ) {
            map(keyPath, source, each: element, Element.jsonTransformer)
        }

        /// Maps a JSON array onto a list of values through `transformer`.
        public func map<Element>(
            _ keyPath: ReferenceWritableKeyPath<Model, List<Element>>, _ source: JSONSource,
            each element: JSONKeyPath? = nil, _ transformer: JSONTransformer<Element>
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: false) { model, json, _ in
                    var values: [Element] = []
                    try forEachElement(of: json) { item in
                        guard let value = try element.map({ try item.value(at: $0) }) ?? item else { return }
                        values.append(try transformer.transform(value))
                    }
                    model[keyPath: keyPath] = List(values)
                    return true
                })
        }

        // MARK: Relationships by identity

        /// Maps a JSON object onto a link, found or created by primary key through `mapping`.
        ///
        /// - Parameters:
        ///   - mapping: the target's mapping, with an identity; it may be this very mapping
        ///     (a tweet's retweeted tweet), read when the import runs.
        ///   - existing: ``ExistingObjectPolicy/keep`` for partial copies that must never overwrite
        ///     a stored object.
        public func map<Target: Object>(
            _ keyPath: ReferenceWritableKeyPath<Model, Target?>, _ source: JSONSource,
            using mapping: @autoclosure @escaping @Sendable () -> JSONMapping<Target>,
            existing: ExistingObjectPolicy = .update
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: false) { model, json, session in
                    if json.isNull {
                        model[keyPath: keyPath] = nil
                        return true
                    }
                    guard let target = try session.upsert(json, using: mapping(), existing: existing) else {
                        return false
                    }
                    model[keyPath: keyPath] = target
                    return true
                })
        }

        /// Maps a JSON array of objects onto an ordered list of links, each found or created by
        /// primary key through `mapping`.
        public func map<Target: Object>(
            _ keyPath: ReferenceWritableKeyPath<Model, List<Target>>, _ source: JSONSource,
            using mapping: @autoclosure @escaping @Sendable () -> JSONMapping<Target>,
            existing: ExistingObjectPolicy = .update
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: false) { model, json, session in
                    let mapping = mapping()
                    var targets: [Target] = []
                    try forEachElement(of: json) { item in
                        if let target = try session.upsert(item, using: mapping, existing: existing) {
                            targets.append(target)
                        }
                    }
                    model[keyPath: keyPath] = List(targets)
                    return true
                })
        }

        // MARK: Embedded objects

        /// Maps a JSON object onto an embedded object through `mapping`; `null` sets `nil`.
        public func map<Target: EmbeddedObject>(
            _ keyPath: ReferenceWritableKeyPath<Model, Target?>, _ source: JSONSource,
            using mapping: @autoclosure @escaping @Sendable () -> JSONMapping<Target>
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: false) { model, json, session in
                    model[keyPath: keyPath] = json.isNull ? nil : try session.makeEmbedded(json, using: mapping())
                    return true
                })
        }

        /// Maps a JSON array of objects onto a list of embedded objects through `mapping`.
        public func map<Target: EmbeddedObject>(
            _ keyPath: ReferenceWritableKeyPath<Model, List<Target>>, _ source: JSONSource,
            using mapping: @autoclosure @escaping @Sendable () -> JSONMapping<Target>
        ) {
            rules.append(
                MappingRule(property: keyPath, source: source, required: false) { model, json, session in
                    let mapping = mapping()
                    var objects: [Target] = []
                    try forEachElement(of: json) { objects.append(try session.makeEmbedded($0, using: mapping)) }
                    model[keyPath: keyPath] = List(objects)
                    return true
                })
        }
    }
}

extension JSONMapping.Builder where Model: Object {
    /// Names the primary key and where the payload holds it: objects are then upserted by it.
    ///
    /// The identity is required: an object without it is an error, or skipped (see
    /// ``JSONMapping/missingIdentity``).
    public func identity<Key: PrimaryKeyValue & Hashable & JSONConvertible>(
        _ keyPath: ReferenceWritableKeyPath<Model, Key>, _ source: JSONSource
    ) {
        identity(keyPath, source, Key.jsonTransformer)
    }

    /// Names the primary key and where the payload holds it, read through `transformer`
    /// (`["id_str", "id"]` with ``JSONTransformer/integerOrString``: exact, never through `Double`).
    public func identity<Key: PrimaryKeyValue & Hashable>(
        _ keyPath: ReferenceWritableKeyPath<Model, Key>, _ source: JSONSource, _ transformer: JSONTransformer<Key>
    ) {
        precondition(identity == nil, "A mapping has one identity.")
        identity = TypedIdentity(keyPath: keyPath, source: source, transformer: transformer)
    }
}

/// What a relationship does when the store already holds the object it names.
public enum ExistingObjectPolicy: Sendable, Hashable {
    /// Write the properties the payload gives; the others keep their stored values.
    case update
    /// Leave the stored object as it is, and only insert one that is absent: for partial copies of
    /// an object (a mentioned user) that must never overwrite the full one.
    case keep
}

/// What an import does with an object whose identity the payload leaves out.
public enum MissingIdentityPolicy: Sendable, Hashable {
    /// Fail the import with ``SyncError/Code/missingValue``.
    case fail
    /// Leave the object out, and count it in ``ImportSummary/Counts/skipped``.
    case skip
}

/// One rule: where a property's JSON is, and how to set the property from it.
struct MappingRule<Model: ObjectBase> {
    let property: PartialKeyPath<Model>
    let source: JSONSource
    let required: Bool
    /// Sets the property from the value found (possibly `null`); returns whether it set it.
    let apply: (Model, JSONValue, JSONImportSession) throws -> Bool
}

/// The primary key of a mapping: how to read it, set it, and look up its object.
class MappingIdentity<Model: ObjectBase> {
    let property: PartialKeyPath<Model>
    let source: JSONSource

    init(property: PartialKeyPath<Model>, source: JSONSource) {
        self.property = property
        self.source = source
    }

    /// The key `json` (the identity's value, not `null`) stands for; set on `model` when given.
    func key(from json: JSONValue, settingOn model: Model?) throws -> AnyHashable {
        preconditionFailure("abstract")
    }

    /// The stored object with `key` (one ``key(from:settingOn:)`` returned), if any.
    func existing(_ key: AnyHashable, in transaction: WriteTransaction) -> Model? {
        preconditionFailure("abstract")
    }
}

private final class TypedIdentity<Model: Object, Key: PrimaryKeyValue & Hashable>: MappingIdentity<Model> {
    let keyPath: ReferenceWritableKeyPath<Model, Key>
    let transformer: JSONTransformer<Key>

    init(keyPath: ReferenceWritableKeyPath<Model, Key>, source: JSONSource, transformer: JSONTransformer<Key>) {
        self.keyPath = keyPath
        self.transformer = transformer
        super.init(property: keyPath, source: source)
    }

    override func key(from json: JSONValue, settingOn model: Model?) throws -> AnyHashable {
        let key = try transformer.transform(json)
        model?[keyPath: keyPath] = key
        return AnyHashable(key)
    }

    override func existing(_ key: AnyHashable, in transaction: WriteTransaction) -> Model? {
        guard let key = key.base as? Key else { return nil }
        return transaction.object(ofType: Model.self, forPrimaryKey: key)
    }
}

/// Calls `body` with each element of the array `json`; `null` is an empty array.
private func forEachElement(of json: JSONValue, _ body: (JSONValue) throws -> Void) throws {
    if json.isNull { return }
    guard json.node.kind == .array else {
        throw SyncError(.unexpectedValue, at: json.path, "expected an array, found \(json)")
    }
    var failure: (any Error)?
    json.forEachChild { child in
        guard failure == nil else { return }
        do {
            try body(JSONValue(document: json.document, index: child))
        } catch {
            failure = error
        }
    }
    if let failure { throw failure }
}
