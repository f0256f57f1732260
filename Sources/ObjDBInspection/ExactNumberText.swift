/// Doubles and floats as text that reads back bit for bit: Swift's shortest round-trip digits for
/// numbers, `inf` and `-inf`, `nan` for the ordinary quiet NaN, and `nan(0x7ff8000000000007)`
/// (the bit pattern) for any other NaN, whose sign and payload `description` would drop.
package enum ExactNumberText {
    /// The text of `value`.
    package static func text(_ value: Double) -> String {
        guard value.isNaN, value.bitPattern != Double.nan.bitPattern else { return value.description }
        return "nan(0x" + hex(UInt64(value.bitPattern), digits: 16) + ")"
    }

    /// The text of `value`.
    package static func text(_ value: Float) -> String {
        guard value.isNaN, value.bitPattern != Float.nan.bitPattern else { return value.description }
        return "nan(0x" + hex(UInt64(value.bitPattern), digits: 8) + ")"
    }

    /// The double `text` gives, exactly; `nil` when it is not a number.
    package static func double(_ text: some StringProtocol) -> Double? {
        if let bits = payload(text, digits: 16) { return Double(bitPattern: bits) }
        return Double(String(text))
    }

    /// The float `text` gives, exactly (from its own digits, never through a Double); `nil` when it is not a number.
    package static func float(_ text: some StringProtocol) -> Float? {
        if let bits = payload(text, digits: 8) { return Float(bitPattern: UInt32(truncatingIfNeeded: bits)) }
        return Float(String(text))
    }

    private static func payload(_ text: some StringProtocol, digits: Int) -> UInt64? {
        guard text.hasPrefix("nan(0x"), text.hasSuffix(")") else { return nil }
        let hexDigits = text.dropFirst(6).dropLast()
        guard hexDigits.count == digits, let bits = UInt64(hexDigits, radix: 16) else { return nil }
        return bits
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
