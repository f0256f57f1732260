import Foundation

/// The values of Realm's literal forms, read from their text: numbers (with `+`, hexadecimal,
/// `inf`, `NaN` and the `f` suffix), dates, `uuid(…)` and `B64"…"`.
///
/// Each reader returns the value, or the reason the text is not one (for the caller to put in
/// a syntax error at the literal's position).
enum PredicateLiteral {
    /// Seconds from 1970 (Realm's `T` literals) to 2001 (`Date`'s reference date).
    static let secondsFrom1970To2001: Int64 = 978_307_200

    /// A number as Realm reads it: an integer when it is one, hexadecimal after `0x`, a `Float`
    /// with the `f` suffix, and otherwise a `Double`; or a `Decimal` when the text has more
    /// digits than the `Double` keeps, so `decimal == 3.141592653589793238` compares exactly.
    static func number(_ text: String) -> Result<StoredValue, LiteralError> {
        var body = Substring(text)
        var negative = false
        if let sign = body.first, sign == "+" || sign == "-" {
            negative = sign == "-"
            body = body.dropFirst()
        }
        if body.hasPrefix("0x") || body.hasPrefix("0X") {
            let digits = body.dropFirst(2)
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else {
                return .failure(LiteralError("\(text) is not a hexadecimal number"))
            }
            guard let magnitude = UInt64(digits, radix: 16) else {
                return .failure(LiteralError("\(text) does not fit in a 64-bit integer"))
            }
            guard let value = Int64(exactly: magnitude) ?? (negative && magnitude == 1 << 63 ? Int64.min : nil) else {
                return .failure(LiteralError("\(text) does not fit in a 64-bit integer"))
            }
            return .success(.int(negative && value != .min ? -value : value))
        }
        let unsigned = (negative ? "-" : "") + body
        if body.allSatisfy(\.isASCIIDigit), !body.isEmpty {
            if let integer = Int64(unsigned) { return .success(.int(integer)) }
            // Past Int64: exact as a decimal (Realm reads it as the nearest Double).
            return decimalOrDouble(unsigned, text: text)
        }
        if body.hasSuffix("f") || body.hasSuffix("F") {
            let digits = String(unsigned.dropLast())
            guard let value = Float(digits), value.isFinite, isDecimalText(digits) else {
                return .failure(LiteralError("\(text) is not a Float"))
            }
            return .success(.float(value))
        }
        guard isDecimalText(unsigned) else { return .failure(LiteralError("\(text) is not a number")) }
        return decimalOrDouble(unsigned, text: text)
    }

    /// The instant `year-month-day@hour:minute:second[:nanoseconds]` (UTC), as Realm reads it:
    /// before 1970 the nanoseconds count away from 1970 like the seconds do (Realm's `Timestamp`
    /// keeps both parts with one sign), and years before 1900 are rejected as Realm rejects them.
    static func date(_ fields: [Int64]) -> Result<Date, LiteralError> {
        let (year, month, day, hour, minute, second) = (
            fields[0], fields[1], fields[2], fields[3], fields[4], fields[5]
        )
        let nanoseconds = fields.count > 6 ? fields[6] : 0
        guard year >= 1900 else { return .failure(LiteralError("dates before 1900 are not supported (as in Realm)")) }
        guard year <= 200_000 else { return .failure(LiteralError("the year \(year) is out of range")) }
        guard (1...12).contains(month) else { return .failure(LiteralError("the month \(month) is not 1 to 12")) }
        let days = CivilDate.daysIn(month: month, year: year)
        guard (1...days).contains(day) else {
            return .failure(LiteralError("the day \(day) is not 1 to \(days) in that month"))
        }
        guard (0...23).contains(hour) else { return .failure(LiteralError("the hour \(hour) is not 0 to 23")) }
        guard (0...59).contains(minute) else { return .failure(LiteralError("the minute \(minute) is not 0 to 59")) }
        guard (0...60).contains(second) else { return .failure(LiteralError("the second \(second) is not 0 to 60")) }
        guard nanoseconds < 1_000_000_000 else {
            return .failure(LiteralError("the nanoseconds \(nanoseconds) are not below 1000000000"))
        }
        let seconds =
            CivilDate.daysFrom1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return .success(timestamp(seconds: seconds, nanoseconds: seconds < 0 ? -nanoseconds : nanoseconds))
    }

    /// The instant `T<seconds>:<nanoseconds>` from 1970, whose two parts must not differ in sign.
    static func timestamp(_ seconds: Int64, _ nanoseconds: Int64) -> Result<Date, LiteralError> {
        guard (seconds >= 0 && nanoseconds >= 0) || (seconds <= 0 && nanoseconds <= 0) else {
            return .failure(LiteralError("the seconds and nanoseconds of T\(seconds):\(nanoseconds) differ in sign"))
        }
        guard nanoseconds.magnitude < 1_000_000_000 else {
            return .failure(LiteralError("the nanoseconds \(nanoseconds) are not below 1000000000"))
        }
        return .success(timestamp(seconds: seconds, nanoseconds: nanoseconds))
    }

    /// The UUID in `uuid(…)`: 8-4-4-4-12 hexadecimal digits, in either case.
    static func uuid(_ text: String) -> Result<UUID, LiteralError> {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        guard groups.map(\.count) == [8, 4, 4, 4, 12], groups.allSatisfy({ $0.allSatisfy(\.isHexDigit) }),
            let uuid = UUID(uuidString: text)
        else {
            return .failure(LiteralError("'\(text)' is not a UUID (8-4-4-4-12 hexadecimal digits)"))
        }
        return .success(uuid)
    }

    /// The bytes of `B64"…"`, padded or not.
    static func base64(_ text: String) -> Result<Data, LiteralError> {
        var padded = text
        if !text.contains("=") {
            switch text.count % 4 {
            case 2: padded += "=="
            case 3: padded += "="
            default: break
            }
        }
        guard let data = Data(base64Encoded: padded) else {
            return .failure(LiteralError("'\(text)' is not base64"))
        }
        return .success(data)
    }

    // MARK: Helpers

    private static func decimalOrDouble(_ text: String, text original: String) -> Result<StoredValue, LiteralError> {
        let posix = Locale(identifier: "en_US_POSIX")
        guard let double = Double(text) else { return .failure(LiteralError("\(original) is not a number")) }
        let exact = Decimal(string: text, locale: posix)
        if let exact, !exact.isNaN, exact != Decimal(string: "\(double)", locale: posix) {
            // More digits than the Double holds (or beyond its range): keep them all.
            return .success(.decimal(exact))
        }
        guard double.isFinite else { return .failure(LiteralError("\(original) is out of range")) }
        return .success(.double(double))
    }

    /// Digits with at most one `.` and an optional exponent: `1.`, `.5`, `2.5e-3`.
    private static func isDecimalText(_ text: String) -> Bool {
        var scalars = Substring(text)
        if scalars.first == "-" || scalars.first == "+" { scalars = scalars.dropFirst() }
        var mantissa = scalars
        if let e = scalars.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = scalars[..<e]
            var exponent = scalars[scalars.index(after: e)...]
            if exponent.first == "-" || exponent.first == "+" { exponent = exponent.dropFirst() }
            guard !exponent.isEmpty, exponent.allSatisfy(\.isASCIIDigit) else { return false }
        }
        let parts = mantissa.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2, parts.allSatisfy({ $0.allSatisfy(\.isASCIIDigit) }) else { return false }
        return parts.contains { !$0.isEmpty }
    }

    private static func timestamp(seconds: Int64, nanoseconds: Int64) -> Date {
        // From 2001 in whole seconds first, so the nanoseconds are not lost to a large sum.
        Date(
            timeIntervalSinceReferenceDate: Double(seconds - secondsFrom1970To2001) + Double(nanoseconds) / 1e9)
    }
}

/// Why a literal's text is not a value.
struct LiteralError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
