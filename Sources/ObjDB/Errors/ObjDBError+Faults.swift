// One factory per code, named and labelled as the cases of earlier releases were, so that
// `throw ObjDBError.unknownType("Tweet")` and `#expect(throws: ObjDBError.unknownType("Tweet"))` read naturally.
extension ObjDBError {
    /// A write to `path` needed more space than its `mapSize`-byte map; it was rolled back.
    ///
    /// The map doubles before the next write (now, or once the `openReaders` read transactions of
    /// this process end), up to `maxMapSize`, so a retry succeeds once the map holds the write.
    /// The message says what to set for a single write larger than that.
    public static func mapFull(path: String, mapSize: Int, maxMapSize: Int, openReaders: Int) -> ObjDBError {
        let larger = "open the store with a Configuration.initialMapSize larger than the write"
        let growth =
            mapSize >= maxMapSize
            ? "the map is at its configured maximum of \(maxMapSize) bytes; raise Configuration.maxMapSize"
            : openReaders > 0
                ? "the map grows once the \(openReaders) open read transaction(s) of this process end; "
                    + "or \(larger) (at most Configuration.maxMapSize, \(maxMapSize) bytes)"
                : "the map has grown to \(min(mapSize * 2, maxMapSize)) bytes, so a retry of a write that fits "
                    + "succeeds; for a single write larger than that, \(larger) "
                    + "(at most Configuration.maxMapSize, \(maxMapSize) bytes)"
        return ObjDBError(
            .mapFull, "write to \(path) rolled back: the \(mapSize)-byte map is full; \(growth)", path: path,
            figures: [.mapSize: mapSize, .maxMapSize: maxMapSize, .openReaders: openReaders])
    }

    /// `operation` was refused because `path` is open read-only.
    public static func readOnly(path: String, operation: String) -> ObjDBError {
        ObjDBError(.readOnly, "\(operation) refused: \(path) is open read-only", path: path, operation: operation)
    }

    /// A storage-level write, `operation`, was attempted outside a write transaction.
    public static func notInWriteTransaction(operation: String) -> ObjDBError {
        ObjDBError(
            .notInWriteTransaction,
            "\(operation) refused: writes happen inside a write transaction (store.write { … })",
            operation: operation)
    }

    /// No store exists at `path`, and the open did not allow creating one.
    public static func storeNotFound(path: String) -> ObjDBError {
        ObjDBError(.storeNotFound, "no store at \(path)", path: path)
    }

    /// The file at `path` is not an ObjDB store; `reason` says what was found instead.
    public static func notAnObjDBStore(path: String, reason: String) -> ObjDBError {
        ObjDBError(.notAnObjDBStore, "\(path) is not an ObjDB store: \(reason)", path: path, details: [reason])
    }

    /// The store file at `path` is damaged where LMDB would read it: `reason` says where (a truncated
    /// file, a damaged meta page, a damaged page of a tree LMDB walks on opening). Nothing was read
    /// past the damage; `objdb-inspect PATH check` lists all of it.
    public static func damagedStore(path: String, reason: String) -> ObjDBError {
        ObjDBError(
            .damagedStore, "\(path) is damaged: \(reason); run objdb-inspect \(path) check to list the damage",
            path: path, details: [reason])
    }

    /// The store at `path` has format version `found`, newer than the `supported` one this build reads.
    public static func newerFormat(path: String, found: UInt32, supported: UInt32) -> ObjDBError {
        ObjDBError(
            .newerFormat,
            "\(path) has format version \(found); this ObjDB reads versions up to \(supported): upgrade ObjDB",
            path: path, figures: [.found: Int(found), .supported: Int(supported)])
    }

    /// The store at `path` has format version `found`, older than `supported`, the oldest this build
    /// reads: its records would be misread, so it is not opened. Export its objects with a build that reads
    /// format `found` (`objdb-inspect export`) and import them into a new store with this one (`objdb-inspect import`).
    public static func olderFormat(path: String, found: UInt32, supported: UInt32) -> ObjDBError {
        ObjDBError(
            .olderFormat,
            "\(path) has format version \(found), older than version \(supported), the oldest this ObjDB reads: "
                + "export its objects with an ObjDB build that reads format \(found) (objdb-inspect export), "
                + "then import them into a new store with this one (objdb-inspect import)",
            path: path, figures: [.found: Int(found), .supported: Int(supported)])
    }

    /// The store at `path` is already open in this process with other options.
    public static func incompatibleOpen(path: String, reason: String) -> ObjDBError {
        ObjDBError(
            .incompatibleOpen, "\(path) is already open in this process: \(reason)", path: path, details: [reason])
    }

    /// A key of `size` bytes exceeds LMDB's limit of `maximum` bytes.
    public static func keyTooLarge(size: Int, maximum: Int, operation: String) -> ObjDBError {
        ObjDBError(
            .keyTooLarge, "\(operation): a key of \(size) bytes exceeds LMDB's limit of \(maximum) bytes",
            operation: operation, figures: [.size: size, .maximum: maximum])
    }

    /// A zero-length key was given; LMDB keys hold at least one byte.
    public static func emptyKey(operation: String) -> ObjDBError {
        ObjDBError(.emptyKey, "\(operation): keys must not be empty", operation: operation)
    }

    /// The model classes differ from the schema stored in `path`; each difference is one sentence.
    public static func schemaMismatch(path: String, differences: [String]) -> ObjDBError {
        ObjDBError(
            .schemaMismatch,
            "the model classes differ from the schema stored in \(path); raise schemaVersion and "
                + "configure a migration: " + differences.joined(separator: "; "),
            path: path, details: differences)
    }

    /// The store at `path` has schema version `stored`, newer than the app's `declared` one.
    public static func newerSchemaVersion(path: String, stored: UInt64, declared: UInt64) -> ObjDBError {
        ObjDBError(
            .newerSchemaVersion,
            "\(path) has schema version \(stored), newer than this app's \(declared): upgrade the app", path: path,
            figures: [.found: Int(clamping: stored), .supported: Int(clamping: declared)])
    }

    /// A model class named `type` cannot be stored as declared; `reason` says why.
    public static func invalidSchema(type: String, reason: String) -> ObjDBError {
        ObjDBError(.invalidSchema, "\(type) cannot be stored: \(reason)", typeName: type, details: [reason])
    }

    /// No object type named `name` is in the schema.
    public static func unknownType(_ name: String) -> ObjDBError {
        ObjDBError(.unknownType, "no object type named \(name) in the schema", typeName: name)
    }

    /// `type` has no property named `property`.
    public static func unknownProperty(type: String, property: String) -> ObjDBError {
        ObjDBError(
            .unknownProperty, "\(type) has no property named \(property)", typeName: type, propertyName: property)
    }

    /// A value of the wrong kind (`found`) was given for `type.property`, which holds `expected`.
    public static func typeMismatch(type: String, property: String, expected: String, found: String) -> ObjDBError {
        ObjDBError(
            .typeMismatch, "\(type).\(property) holds \(expected), not \(found)", typeName: type,
            propertyName: property, details: [expected, found])
    }

    /// `type.property` cannot be `nil` but was given no value.
    public static func missingValue(type: String, property: String) -> ObjDBError {
        ObjDBError(.missingValue, "\(type).\(property) cannot be nil", typeName: type, propertyName: property)
    }

    /// A `type` with primary key `key` already exists and the update policy was ``UpdatePolicy/error``.
    public static func primaryKeyExists(type: String, key: String) -> ObjDBError {
        ObjDBError(
            .primaryKeyExists, "a \(type) with primary key \(key) already exists", typeName: type, details: [key])
    }

    /// Another `type` already has `property` = `value` in a unique index; the write was rolled back.
    public static func uniqueConstraintViolated(type: String, property: String, value: String) -> ObjDBError {
        ObjDBError(
            .uniqueConstraintViolated,
            "another \(type) already has \(property) = \(value); the write was rolled back", typeName: type,
            propertyName: property, details: [value])
    }

    /// The primary key of a stored `type` cannot change.
    public static func primaryKeyChanged(type: String) -> ObjDBError {
        ObjDBError(.primaryKeyChanged, "the primary key of a stored \(type) cannot change", typeName: type)
    }

    /// The `type` object was deleted, or the view or transaction it came from has ended.
    public static func objectInvalidated(type: String) -> ObjDBError {
        ObjDBError(
            .objectInvalidated, "the \(type) was deleted, or the view or transaction it came from has ended",
            typeName: type)
    }

    /// `predicate` has a syntax error at `position`, counted in Unicode scalars (what `text.unicodeScalars` holds).
    public static func predicateSyntax(predicate: String, position: Int, message: String) -> ObjDBError {
        let marker = caretIndent(predicate, upTo: position) + "^"
        return ObjDBError(
            .predicateSyntax, "syntax error at position \(position): \(message)\n  \(predicate)\n  \(marker)",
            position: position, details: [message, predicate])
    }

    /// A query on `type` cannot run as written; `reason` says why.
    public static func invalidQuery(type: String, reason: String) -> ObjDBError {
        ObjDBError(.invalidQuery, "cannot query \(type): \(reason)", typeName: type, details: [reason])
    }

    /// A `type` record (or key) in `path` cannot be decoded: the file is damaged.
    public static func corruptRecord(path: String, type: String, reason: String) -> ObjDBError {
        ObjDBError(
            .corruptRecord, "a \(type) record in \(path) is damaged: \(reason)", path: path, typeName: type,
            details: [reason])
    }

    /// Opening a read would pin one more version while `live` are pinned, the `maximum`; the oldest is `oldest`.
    public static func tooManyLiveVersions(path: String, live: Int, maximum: Int, oldest: Int) -> ObjDBError {
        ObjDBError(
            .tooManyLiveVersions,
            "\(path) already has \(live) pinned versions (the maximum is \(maximum)); the oldest, version "
                + "\(oldest), is held by a view that was not refreshed: refresh or release it",
            path: path, figures: [.live: live, .maximum: maximum, .oldest: oldest])
    }

    /// A ``ThreadSafeReference`` cannot be resolved: `reason` says why.
    public static func invalidThreadSafeReference(reason: String) -> ObjDBError {
        ObjDBError(
            .invalidThreadSafeReference, "the thread-safe reference cannot be resolved: \(reason)", details: [reason])
    }

    /// `name` is out of its range: `reason` says what it must be.
    public static func invalidArgument(_ name: String, reason: String) -> ObjDBError {
        ObjDBError(.invalidArgument, "\(name) \(reason)", details: [name, reason])
    }
}

/// The indent that puts a caret under Unicode scalar `position` of `text` in a terminal: a
/// tab stays a tab, a combining mark or a joiner takes no column, a wide character two.
private func caretIndent(_ text: String, upTo position: Int) -> String {
    var indent = ""
    for scalar in text.unicodeScalars.prefix(max(0, position)) {
        switch scalar.properties.generalCategory {
        case _ where scalar == "\t": indent += "\t"
        case .nonspacingMark, .enclosingMark, .format: continue
        default: indent += isWide(scalar) ? "  " : " "
        }
    }
    return indent
}

/// Whether a terminal gives `scalar` two columns (East Asian wide and full-width forms, emoji).
private func isWide(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.properties.isEmojiPresentation { return true }
    switch scalar.value {
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x20000...0x3FFFD:
        return true
    default: return false
    }
}
