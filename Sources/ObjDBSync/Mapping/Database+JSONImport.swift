import Foundation
import ObjDB

extension Database {
    /// Imports the objects a JSON payload holds at `keyPath` (an array of them, or one), through
    /// `mapping`, in one write transaction.
    ///
    /// ```swift
    /// let summary = try db.importJSON(data, at: "data", using: Beer.jsonMapping)
    /// print(summary[Beer.self].inserted)
    /// ```
    ///
    /// The payload is parsed before the write begins, and mapped inside it: any value that does
    /// not map fails the import and leaves the store exactly as it was. An import that changes
    /// nothing (the same payload again) writes nothing and notifies no observer.
    ///
    /// - Parameter keyPath: where the objects are; `nil` for the top level.
    /// - Returns: the inserted, updated and unchanged objects per type.
    /// - Throws: ``SyncError``, with ObjDB's own errors as ``SyncError/Code/store``.
    @discardableResult
    public func importJSON<Model: Object>(
        _ data: Data, at keyPath: JSONKeyPath? = nil, using mapping: JSONMapping<Model>
    ) throws -> ImportSummary {
        try importJSON(data) { root, session in
            var objects = root
            if let keyPath {
                guard let found = try root.value(at: keyPath), !found.isNull else {
                    throw SyncError(
                        .unexpectedPayload, at: JSONPath(keyPath.components), "the payload holds nothing at \(keyPath)")
                }
                objects = found
            }
            switch objects.kind {
            case .array:
                for element in objects.elements { try session.upsert(element, using: mapping) }
            case .object:
                try session.upsert(objects, using: mapping)
            default:
                throw SyncError(
                    .unexpectedPayload, at: objects.path, "expected an array of objects or an object, found \(objects)")
            }
        }.summary
    }

    /// Parses `data`, then runs `body` with its top-level value and an import session in one write
    /// transaction: the form for payloads that need more than one mapping.
    ///
    /// The transaction commits when `body` returns, unless the session changed nothing: then it is
    /// rolled back, so observers hear of nothing. Writes made directly through
    /// ``JSONImportSession/transaction`` count only when reported with
    /// ``JSONImportSession/record(_:typeName:key:)``. A throw rolls everything back.
    ///
    /// - Returns: what `body` returns, and the summary of the import.
    /// - Throws: ``SyncError``, with ObjDB's own errors as ``SyncError/Code/store``.
    public func importJSON<Result>(
        _ data: Data, _ body: (JSONValue, JSONImportSession) throws -> Result
    ) throws -> (result: Result, summary: ImportSummary) {
        try importJSON(try JSONDocument(data), body)
    }

    /// Runs `body` with the top-level value of a parsed document and an import session, in one
    /// write transaction, as ``importJSON(_:_:)-(Data,_)`` does.
    public func importJSON<Result>(
        _ document: JSONDocument, _ body: (JSONValue, JSONImportSession) throws -> Result
    ) throws -> (result: Result, summary: ImportSummary) {
        do {
            return try write { transaction in
                let session = JSONImportSession(transaction: transaction)
                let result = try body(document.root, session)
                let summary = session.summary
                if session.changeCount == 0 { transaction.cancel() }
                return (result, summary)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw SyncError(.store, "the store refused the import: \(error)", underlyingError: error)
        }
    }
}
