import ObjDB

/// Writes scanned objects as JSON objects, CSV rows or table cells, byte by byte into the output.
///
/// Columns are the properties asked for, in that order. A linking-objects property, which no
/// record holds, is answered from the backlinks.
package struct ObjectTextWriter {
    let encoder: FieldEncoder
    let binding: TypeBinding
    let view: ReadView
    /// The columns.
    package let properties: [PropertySchema]
    private let typeName: [UInt8]

    /// A writer of `properties` (every stored property when `nil`) of the objects `scan` selects.
    ///
    /// - Throws: ``ObjDBError/unknownProperty(type:property:)``.
    package init(scan: ObjectScan, properties names: [String]? = nil) throws {
        binding = scan.binding
        view = scan.view
        encoder = FieldEncoder(schema: scan.view.database.schemaIndex)
        let schema = scan.binding.schema
        if let names {
            properties = try names.map { name in
                guard let property = schema[name] else {
                    throw ObjDBError.unknownProperty(type: schema.name, property: name)
                }
                return property
            }
        } else {
            properties = schema.properties.filter(\.isStored)
        }
        typeName = Array(schema.name.utf8)
    }

    /// What an object's JSON says about which object it is, before its properties.
    package enum Identity {
        /// Nothing: a dump.
        case none
        /// `_key`: an export grouped by type.
        case key
        /// `_type` and `_key`: an NDJSON export.
        case typeAndKey
    }

    /// Writes `object` as one JSON object, its identity first.
    package func writeJSON(_ object: ScannedObject, identity: Identity = .none, to output: ByteOutput) throws {
        output.write(UInt8(ascii: "{"))
        var first = true
        if identity != .none {
            if identity == .typeAndKey {
                output.write("\"_type\":")
                typeName.withUnsafeBytes { encoder.writeJSONString($0, to: output) }
                output.write(UInt8(ascii: ","))
            }
            output.write("\"_key\":")
            if let key = ObjectKeyCodec.view(object.key, primaryKeyType: binding.primaryKey?.schema.type) {
                encoder.writeJSON(key, to: output)
            } else {
                output.write("null")
            }
            first = false
        }
        for property in properties {
            if !first { output.write(UInt8(ascii: ",")) }
            first = false
            encoder.writeJSONString(name: property.name, to: output)
            output.write(UInt8(ascii: ":"))
            if property.isStored {
                encoder.writeJSON(object.reader.field(Int(property.id)), of: property, to: output)
            } else {
                output.write(UInt8(ascii: "["))
                for (index, key) in try linkingKeys(object, property).enumerated() {
                    if index > 0 { output.write(UInt8(ascii: ",")) }
                    key.withUnsafeBytes { bytes in
                        if let view = ObjectKeyCodec.view(bytes, primaryKeyType: origin(of: property)?.primaryKey?.type)
                        {
                            encoder.writeJSON(view, to: output)
                        }
                    }
                }
                output.write(UInt8(ascii: "]"))
            }
        }
        output.write(UInt8(ascii: "}"))
    }

    /// Writes the CSV header line: the column names.
    package func writeCSVHeader(to output: ByteOutput) {
        for (index, property) in properties.enumerated() {
            if index > 0 { output.write(UInt8(ascii: ",")) }
            var name = property.name
            name.withUTF8 { Self.writeCSVField(UnsafeRawBufferPointer($0), to: output) }
        }
        output.write(UInt8(ascii: "\n"))
    }

    /// Writes `object` as one CSV line (RFC 4180 quoting): `nil` empty, links as keys, collections as JSON.
    package func writeCSV(_ object: ScannedObject, scratch: ByteBuffer, to output: ByteOutput) throws {
        for (index, property) in properties.enumerated() {
            if index > 0 { output.write(UInt8(ascii: ",")) }
            scratch.removeAll()
            try writeText(object, property, style: .csv, to: scratch)
            scratch.bytes.withUnsafeBytes { Self.writeCSVField($0, to: output) }
        }
        output.write(UInt8(ascii: "\n"))
    }

    /// The table cells of `object`, one per column, into `cells` (reused from row to row).
    package func writeCells(_ object: ScannedObject, into cells: [ByteBuffer]) throws {
        for (column, property) in properties.enumerated() {
            cells[column].removeAll()
            try writeText(object, property, style: .table, to: cells[column])
        }
    }

    private func writeText(
        _ object: ScannedObject, _ property: PropertySchema, style: FieldEncoder.TextStyle, to sink: ByteBuffer
    ) throws {
        if property.isStored {
            encoder.writeText(object.reader.field(Int(property.id)), of: property, style: style, to: sink)
            return
        }
        let keys = try linkingKeys(object, property)
        if style == .table {
            sink.write(UInt8(ascii: "["))
            sink.write(integer: Int64(keys.count))
            sink.write(keys.count == 1 ? " item]" : " items]")
            return
        }
        sink.write(UInt8(ascii: "["))
        for (index, key) in keys.enumerated() {
            if index > 0 { sink.write(UInt8(ascii: ",")) }
            key.withUnsafeBytes { bytes in
                if let view = ObjectKeyCodec.view(bytes, primaryKeyType: origin(of: property)?.primaryKey?.type) {
                    encoder.writeJSON(view, to: sink)
                }
            }
        }
        sink.write(UInt8(ascii: "]"))
    }

    private func origin(of property: PropertySchema) -> ObjectSchema? {
        property.objectType.flatMap { view.database.schemaIndex[$0] }
    }

    /// The table keys of the objects linking to `object` through the linking-objects `property`.
    private func linkingKeys(_ object: ScannedObject, _ property: PropertySchema) throws -> [[UInt8]] {
        guard let originName = property.objectType, let origin = view.database.bindings[originName],
            let originProperty = property.originProperty.flatMap({ origin[$0] })
        else { return [] }
        return try view.recordSource().incomingLinks(to: object.key, in: binding)
            .filter { $0.typeName == originName && $0.propertyID == originProperty.schema.id }
            .map(\.key)
    }

    /// Writes one CSV field, quoted when it holds a comma, a quote or a line break.
    static func writeCSVField(_ bytes: UnsafeRawBufferPointer, to output: ByteOutput) {
        let needsQuotes = bytes.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
        }
        guard needsQuotes else {
            output.write(bytes)
            return
        }
        output.write(UInt8(ascii: "\""))
        var start = 0
        for index in 0..<bytes.count where bytes[index] == UInt8(ascii: "\"") {
            output.write(UnsafeRawBufferPointer(rebasing: bytes[start...index]))
            output.write(UInt8(ascii: "\""))
            start = index + 1
        }
        if start < bytes.count { output.write(UnsafeRawBufferPointer(rebasing: bytes[start...])) }
        output.write(UInt8(ascii: "\""))
    }
}

extension ObjectTextWriter {
    /// Writes one property of `object` as JSON (a whole list, map or embedded object) into `sink`.
    package func writeJSON(_ object: ScannedObject, property: PropertySchema, to sink: ByteBuffer) throws {
        if property.isStored {
            encoder.writeJSON(object.reader.field(Int(property.id)), of: property, to: sink)
            return
        }
        sink.write(UInt8(ascii: "["))
        for (index, key) in try linkingKeys(object, property).enumerated() {
            if index > 0 { sink.write(UInt8(ascii: ",")) }
            key.withUnsafeBytes { bytes in
                if let view = ObjectKeyCodec.view(bytes, primaryKeyType: origin(of: property)?.primaryKey?.type) {
                    encoder.writeJSON(view, to: sink)
                }
            }
        }
        sink.write(UInt8(ascii: "]"))
    }

    /// Writes one property of `object` as a table cell into `sink`.
    package func writeCell(_ object: ScannedObject, property: PropertySchema, to sink: ByteBuffer) throws {
        try writeText(object, property, style: .table, to: sink)
    }

    /// The number of elements or entries of a collection property of `object`.
    package func count(_ object: ScannedObject, property: PropertySchema) throws -> Int {
        guard property.isStored else { return try linkingKeys(object, property).count }
        guard case .bytes(let bytes) = object.reader.field(Int(property.id)) else { return 0 }
        return ValueCodec.elementCount(bytes)
    }
}

extension ObjectScan {
    /// Calls `body` with each object linking to `object`, by the source's type, the linking
    /// property and the source's key, grouped by type and property, in key order; `body` returns
    /// `false` to stop. Read from the backlinks one entry at a time.
    package func forEachBacklink(
        of object: ScannedObject, _ body: (_ type: String, _ property: String, _ key: ObjectKey) throws -> Bool
    ) throws {
        let database = view.database
        guard let backlinks = database.backlinks else { return }
        let target = BacklinkCodec.targetKey(type: binding.schema.name, key: object.key)
        let cursor = try view.recordSource().transaction.cursor(backlinks)
        var entry = try target.withUnsafeBytes { try cursor.seek(exactly: $0) }
        var group: (type: String, property: UInt16, binding: TypeBinding?, name: String)?
        while let current = entry {
            if let source = BacklinkCodec.source(current.value) {
                if group?.type != source.typeName || group?.property != source.propertyID {
                    let sourceBinding = database.bindings[source.typeName]
                    let name =
                        sourceBinding?.properties.first { $0.schema.id == source.propertyID }?.schema.name
                        ?? "#\(source.propertyID)"
                    group = (source.typeName, source.propertyID, sourceBinding, name)
                }
                if let group, let sourceBinding = group.binding,
                    let key = source.key.withUnsafeBytes({
                        ObjectKeyCodec.decode($0, primaryKeyType: sourceBinding.primaryKey?.schema.type)
                    })
                {
                    guard try body(group.type, group.name, key) else { return }
                }
            }
            entry = try cursor.nextValueOfKey()
        }
    }
}
