import Foundation

/// A property type with a transformer of its own, used when a mapping names none:
/// `$0.map(\.name, "name")` reads a string because `String` is `JSONConvertible`.
///
/// Strings, Booleans, the signed integers, `Double`, `Float` and `Decimal` conform strictly: an
/// integer property takes only JSON integers, a string property only JSON strings. Optionals of
/// them also take `null`. For leniency, name a transformer (``JSONTransformer/integerOrString``).
public protocol JSONConvertible {
    /// The transformer a mapping uses for properties of this type.
    static var jsonTransformer: JSONTransformer<Self> { get }
}

extension String: JSONConvertible {
    /// A JSON string.
    public static var jsonTransformer: JSONTransformer<String> { .string }
}

extension Bool: JSONConvertible {
    /// `true` or `false`.
    public static var jsonTransformer: JSONTransformer<Bool> { .bool }
}

extension Int: JSONConvertible {
    /// A JSON integer.
    public static var jsonTransformer: JSONTransformer<Int> { .integer }
}

extension Int8: JSONConvertible {
    /// A JSON integer that fits.
    public static var jsonTransformer: JSONTransformer<Int8> { .integer }
}

extension Int16: JSONConvertible {
    /// A JSON integer that fits.
    public static var jsonTransformer: JSONTransformer<Int16> { .integer }
}

extension Int32: JSONConvertible {
    /// A JSON integer that fits.
    public static var jsonTransformer: JSONTransformer<Int32> { .integer }
}

extension Int64: JSONConvertible {
    /// A JSON integer, exactly.
    public static var jsonTransformer: JSONTransformer<Int64> { .integer }
}

extension Double: JSONConvertible {
    /// Any JSON number.
    public static var jsonTransformer: JSONTransformer<Double> { .number }
}

extension Float: JSONConvertible {
    /// Any JSON number.
    public static var jsonTransformer: JSONTransformer<Float> { .number }
}

extension Decimal: JSONConvertible {
    /// Any JSON number, exactly.
    public static var jsonTransformer: JSONTransformer<Decimal> { .decimal }
}

extension Optional: JSONConvertible where Wrapped: JSONConvertible {
    /// The wrapped type's transformer, taking `null` as `nil`.
    public static var jsonTransformer: JSONTransformer<Wrapped?> { Wrapped.jsonTransformer.optional }
}
