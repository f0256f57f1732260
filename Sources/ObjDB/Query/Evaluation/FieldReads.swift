import Foundation

/// The scalar reads the query engine makes of a field's bytes, in one place, all through
/// ``FieldDecoding`` and ``ValueCodec``: each returns `nil` for bytes that are not a value of its
/// type (a damaged field), which a query reads as the zero value, as a typed getter does.
enum FieldReads {
    /// An integer field of any width.
    @inline(__always)
    static func integer(_ bytes: UnsafeRawBufferPointer, type: PropertyType) -> Int64? {
        FieldDecoding.integer(bytes)
    }

    /// Whether `bytes` have the length of the integer encoding they start: a field whose bytes
    /// then compare, bytewise, as its value does (``OrderedVarInt``).
    @inline(__always)
    static func isInteger(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let first = bytes.first else { return false }
        return OrderedVarInt.length(startingWith: first) == bytes.count
    }

    /// Appends the encoding of an integer field holding `value`, whose bytes sort as values do.
    static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        OrderedVarInt.append(value, to: &bytes)
    }

    /// A `Double` field, or a `Date` field's seconds since 2001.
    @inline(__always)
    static func double(_ bytes: UnsafeRawBufferPointer) -> Double? {
        FieldDecoding.double(bytes)
    }

    /// A `Float` field.
    @inline(__always)
    static func float(_ bytes: UnsafeRawBufferPointer) -> Float? {
        FieldDecoding.float(bytes)
    }

    /// A `Bool` field.
    @inline(__always)
    static func bool(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        FieldDecoding.bool(bytes)
    }

    /// A `Decimal` field.
    static func decimal(_ bytes: UnsafeRawBufferPointer) -> Decimal? {
        guard case .decimal(let value)? = decimalCodec.decodeValue(bytes, as: decimalProperty) else { return nil }
        return value
    }

    /// The number of elements of a list or set field, or of entries of a map field.
    @inline(__always)
    static func elementCount(_ bytes: UnsafeRawBufferPointer) -> Int {
        ValueCodec.elementCount(bytes)
    }

    private static let decimalProperty = PropertySchema(id: 0, name: "", type: .decimal)
    private static let decimalCodec = ValueCodec(schema: SchemaIndex(Schema(version: 0, types: [])))
}
