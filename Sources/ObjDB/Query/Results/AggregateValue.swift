import Foundation

/// A type `Results.min(ofProperty:)` and `Results.max(ofProperty:)` can answer in: integers,
/// floating-point numbers, dates and decimals, as Realm's `MinMaxType`.
public protocol MinMaxType: Persistable {
    /// The value a stored aggregate holds, or `nil` when it holds another type.
    init?(_aggregated value: StoredValue)
}

/// A type `Results.sum(ofProperty:)` can answer in: integers, floating-point numbers and
/// decimals, as Realm's `AddableType`.
public protocol AddableType: MinMaxType {
    /// The sum of `values`, or `nil` when it does not fit the type.
    static func _sum(_ values: [Self]) -> Self?
}

extension AddableType where Self: FixedWidthInteger {
    /// The sum, or `nil` on overflow.
    public static func _sum(_ values: [Self]) -> Self? {
        var total: Self = 0
        for value in values {
            let (sum, overflow) = total.addingReportingOverflow(value)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

extension AddableType where Self: BinaryFloatingPoint {
    /// The sum.
    public static func _sum(_ values: [Self]) -> Self? { values.reduce(0, +) }
}

extension MinMaxType where Self: FixedWidthInteger {
    /// The stored integer, when it fits the type.
    public init?(_aggregated value: StoredValue) {
        guard case .int(let number) = value else { return nil }
        self.init(exactly: number)
    }
}

extension Int: AddableType {}
extension Int8: AddableType {}
extension Int16: AddableType {}
extension Int32: AddableType {}
extension Int64: AddableType {}

extension Double: AddableType {
    /// The stored `Double`.
    public init?(_aggregated value: StoredValue) {
        guard case .double(let number) = value else { return nil }
        self = number
    }
}

extension Float: AddableType {
    /// The stored `Float`.
    public init?(_aggregated value: StoredValue) {
        guard case .float(let number) = value else { return nil }
        self = number
    }
}

extension Decimal: AddableType {
    /// The stored `Decimal`.
    public init?(_aggregated value: StoredValue) {
        guard case .decimal(let number) = value else { return nil }
        self = number
    }

    /// The exact sum.
    public static func _sum(_ values: [Decimal]) -> Decimal? { values.reduce(0, +) }
}

extension Date: MinMaxType {
    /// The stored `Date`.
    public init?(_aggregated value: StoredValue) {
        guard case .date(let date) = value else { return nil }
        self = date
    }
}
