import Foundation
import ObjDB

/// Reads objects from an export, streaming, and stores them: `objdb-inspect import`.
///
/// The input is NDJSON (one object per line, each with `_type`; `\r\n` line ends too), a JSON
/// array of such objects, or an object of arrays by type name, as `export --format json` writes.
/// It is read in blocks and parsed one object at a time, so the importer's own memory stays flat;
/// what grows is the open write transaction's: LMDB's dirty pages, and, for types that were
/// empty, the objects held to be stored in key order (`BulkLoad`, within its budget).
///
/// Objects keep their keys: an object with a primary key is upserted under it, and one of a
/// type without a primary key under its exported internal ID (`"_key": "#7"`), so links between
/// them hold without a remapping table. Properties an object leaves out keep the stored
/// object's values (or the type's zero values for a new object).
///
/// By default the whole file is one write transaction: it lands whole or not at all. With a
/// batch size, every that many objects commit together, and a failure says which batch failed.
package final class ObjectImport {
    /// What an import did.
    package struct Summary: Sendable {
        /// Objects stored.
        package var objects = 0
        /// Transactions committed.
        package var batches = 0
    }

    /// An import that stopped: where, why, and what was committed before it.
    package struct ImportFailure: Error, CustomStringConvertible {
        /// The input file.
        package let file: String
        /// The line of the input the failure is about.
        package let line: Int
        /// What is wrong.
        package let reason: String
        /// The batch that failed (from 1), when the import is batched.
        package let batch: Int?
        /// Objects committed by earlier batches.
        package let committed: Int

        package var description: String {
            var text = "\(file):\(line): \(reason)"
            if let batch {
                text += "; batch \(batch) was rolled back"
                text += committed > 0 ? ", \(batch - 1) earlier batch(es) of \(committed) object(s) are committed" : ""
            } else {
                text += "; nothing was imported"
            }
            return text
        }
    }

    private let database: Database
    private let file: String
    private let batchSize: Int?
    private var transaction: WriteTransaction?
    private var summary = Summary()
    private var inBatch = 0
    /// The highest internal ID stored per type, so the type's counter moves past it.
    private var highestInternalID: [String: UInt64] = [:]
    private let zeroValues: [String: [StoredValue]]

    /// An import of `file` into `database`, committing every `batchSize` objects (`nil`: once).
    package init(database: Database, file: String, batchSize: Int? = nil) {
        self.database = database
        self.file = file
        self.batchSize = batchSize
        let codec = ValueCodec(schema: database.schemaIndex)
        zeroValues = database.bindings.mapValues { binding in binding.properties.map { codec.zeroValue(of: $0.schema) }
        }
    }

    /// Reads and stores every object; `progress` is told the objects stored and the bytes read so far.
    ///
    /// - Throws: ``ImportFailure``, or ``OutputError`` when the file cannot be read.
    @discardableResult
    package func run(progress: ((_ objects: Int, _ bytesRead: Int) -> Void)? = nil) throws -> Summary {
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw OutputError(path: file, code: errno, action: "read") }
        defer { close(descriptor) }
        let reader = JSONStreamReader(descriptor: descriptor)
        let residency = ResidentMap(path: database.configuration.path)
        var lastProgress = 0
        func store(_ members: [(key: String, value: JSONValue)], type: String?) throws {
            try self.store(members, type: type)
            residency.note(512)
            if let progress, summary.objects - lastProgress >= 10_000 {
                lastProgress = summary.objects
                progress(summary.objects, reader.offset)
            }
        }
        do {
            try begin()
            switch try reader.peekSignificant() {
            case nil:
                break
            case UInt8(ascii: "["):
                reader.advance()
                try readArray(reader, type: nil, store)
                try expectEnd(reader)
            case UInt8(ascii: "{"):
                reader.advance()
                try readObjects(reader, store)
            default:
                throw reader.error("expected a JSON object\(try reader.found())")
            }
            try commit()
            progress?(summary.objects, reader.offset)
            return summary
        } catch let failure as ImportFailure {
            transaction?.cancel()
            throw failure
        } catch let syntax as JSONSyntaxError {
            transaction?.cancel()
            throw failed(line: syntax.line, syntax.message)
        } catch {
            transaction?.cancel()
            throw failed(line: reader.line, "\(error)")
        }
    }

    /// After a top-level `{`: an NDJSON stream whose first object is open, or an object of arrays by type.
    private func readObjects(
        _ reader: JSONStreamReader, _ store: ([(key: String, value: JSONValue)], String?) throws -> Void
    ) throws {
        if try reader.peekSignificant() == UInt8(ascii: "}") {
            reader.advance()
            return try readNDJSON(reader, store)
        }
        let firstKey = try reader.readKey()
        // An object of arrays by type name (export --format json), not an NDJSON object whose first
        // property is a list.
        if database.bindings[firstKey] != nil, try reader.peekSignificant() == UInt8(ascii: "[") {
            // {"Tweet": [...], "TwitterUser": [...]}
            var key = firstKey
            while true {
                try reader.expect(UInt8(ascii: "["), "an array of \(key) objects")
                try readArray(reader, type: key, store)
                guard let next = try reader.peekSignificant() else { throw reader.error("an object is not closed") }
                reader.advance()
                if next == UInt8(ascii: "}") { break }
                guard next == UInt8(ascii: ",") else { throw reader.error("expected ',' or '}' after an array") }
                key = try reader.readKey()
            }
            return try expectEnd(reader)
        }
        try store(try reader.readMembers(depth: 1, first: firstKey), nil)
        try readNDJSON(reader, store)
    }

    private func readNDJSON(
        _ reader: JSONStreamReader, _ store: ([(key: String, value: JSONValue)], String?) throws -> Void
    ) throws {
        while let next = try reader.peekSignificant() {
            guard next == UInt8(ascii: "{") else { throw reader.error("expected a JSON object\(try reader.found())") }
            reader.advance()
            try store(try reader.readMembers(depth: 1), nil)
        }
    }

    /// The elements of an array whose `[` was consumed: objects, of `type` when the array is a group.
    private func readArray(
        _ reader: JSONStreamReader, type: String?, _ store: ([(key: String, value: JSONValue)], String?) throws -> Void
    ) throws {
        if try reader.peekSignificant() == UInt8(ascii: "]") {
            reader.advance()
            return
        }
        while true {
            try reader.expect(UInt8(ascii: "{"), "an object")
            try store(try reader.readMembers(depth: 2), type)
            guard let next = try reader.peekSignificant() else { throw reader.error("an array is not closed") }
            reader.advance()
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { throw reader.error("expected ',' or ']' in an array") }
        }
    }

    private func expectEnd(_ reader: JSONStreamReader) throws {
        if try reader.peekSignificant() != nil { throw reader.error("unexpected text after the end of the JSON") }
    }

    /// Stores one object from its members; `type` when its group names it.
    private func store(_ members: [(key: String, value: JSONValue)], type groupType: String?) throws {
        var typeName = groupType
        var keyJSON: JSONValue?
        for member in members where member.key.hasPrefix("_") {
            switch member.key {
            case "_type":
                guard case .string(let name) = member.value else { throw ImportProblem("_type must be a string") }
                typeName = name
            case "_key":
                keyJSON = member.value
            default:
                throw ImportProblem("unknown member \(member.key)")
            }
        }
        guard let typeName else { throw ImportProblem("an object without _type") }
        guard let binding = database.bindings[typeName], let table = binding.table, binding.table != nil else {
            throw database.bindings[typeName] == nil
                ? ObjDBError.unknownType(typeName)
                : ImportProblem("\(typeName) is embedded: import it inside its owner")
        }
        _ = table
        let schemaIndex = database.schemaIndex
        var values = zeroValues[typeName]!
        var given = [Bool](repeating: false, count: values.count)
        for member in members where !member.key.hasPrefix("_") {
            guard let property = binding[member.key] else {
                throw ObjDBError.unknownProperty(type: typeName, property: member.key)
            }
            guard property.schema.isStored else { continue }
            values[property.position] = try StoredValue.importing(
                member.value, for: property.schema, of: typeName, in: schemaIndex)
            given[property.position] = true
        }
        let key: ObjectKey
        if let primaryKey = binding.primaryKey {
            let fromKey = try keyJSON.map { try ObjectKey.importing($0, primaryKeyType: primaryKey.schema.type) }
            if given[primaryKey.position] {
                guard
                    let fromProperty = ObjectKeyCodec.key(
                        fromPrimaryKey: values[primaryKey.position], type: primaryKey.schema.type)
                else { throw ImportProblem("\(typeName).\(primaryKey.schema.name) cannot be nil") }
                if let fromKey, fromKey != fromProperty {
                    throw ImportProblem("_key \(fromKey) differs from \(primaryKey.schema.name) \(fromProperty)")
                }
                key = fromProperty
            } else {
                guard let fromKey else { throw ImportProblem("a \(typeName) without its \(primaryKey.schema.name)") }
                key = fromKey
                values[primaryKey.position] = fromKey.storedValue
                given[primaryKey.position] = true
            }
        } else if let keyJSON {
            key = try ObjectKey.importing(keyJSON, primaryKeyType: nil)
            if case .internalID(let id) = key {
                highestInternalID[typeName] = max(highestInternalID[typeName] ?? 0, id)
            }
        } else {
            key = .internalID(try transaction!.scope.nextInternalID(for: binding))
        }
        let context = transaction!.scope
        if given.contains(false), let existing = try context.record(in: binding, key: ObjectKeyCodec.encode(key)) {
            // Properties left out keep the stored object's values.
            let old = context.values(of: existing, in: binding)
            for position in values.indices where !given[position] { values[position] = old[position] }
        }
        try context.put(values, key: key, in: binding, policy: .modified)
        summary.objects += 1
        inBatch += 1
        if let batchSize, inBatch >= batchSize {
            try commit()
            try begin()
        }
    }

    private func begin() throws {
        transaction = try database.beginWrite()
        inBatch = 0
    }

    private func commit() throws {
        guard let transaction else { return }
        if inBatch > 0 || summary.batches == 0 {
            try advanceCounters(transaction.scope)
            try transaction.commit()
            summary.batches += 1
        } else {
            transaction.cancel()
        }
        self.transaction = nil
        inBatch = 0
    }

    /// Moves each type's internal-ID counter past the IDs the import stored.
    private func advanceCounters(_ context: WriteScope) throws {
        for (type, highest) in highestInternalID {
            guard let binding = database.bindings[type] else { continue }
            let next = try context.nextInternalID(for: binding)
            context.sequences[type] = max(next + 1, highest + 1)
        }
        highestInternalID = [:]
    }

    private func failed(line: Int, _ reason: String) -> ImportFailure {
        let batch = batchSize.map { _ in summary.batches + 1 }
        return ImportFailure(
            file: file, line: line, reason: reason, batch: batch, committed: batchSize == nil ? 0 : committedObjects)
    }

    private var committedObjects: Int { summary.objects - inBatch }
}

/// Something wrong with one object of the input.
struct ImportProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
