import Foundation
import ObjDB

/// Dates as ISO 8601 text that reads back bit for bit: `2011-03-13T07:06:40.123456Z`.
///
/// A date is stored as a Double of seconds since 2001-01-01 UTC. The text holds the whole
/// seconds as a calendar date and time (UTC), and the fraction as the digits of the Double's
/// shortest round-trip form, so that reading the text back rounds to the same Double.
/// Dates outside the years 0001–9999, `-0.0`, and NaN or infinite ones are written as `@`
/// and the seconds since 2001 (`@-0.0`, `@1e+300`, `@nan`).
package enum ExactDateText {
    /// Seconds from 1970-01-01 to 2001-01-01.
    static let referenceOffset: Int64 = 978_307_200

    /// Appends the text of `seconds` since the reference date.
    static func write<Sink: TextSink>(_ seconds: Double, to sink: Sink) {
        guard let parts = split(seconds) else {
            sink.write(UInt8(ascii: "@"))
            sink.write(double: seconds)
            return
        }
        let unix = parts.whole + referenceOffset
        var days = unix / 86_400
        var secondOfDay = unix % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        guard (1...9999).contains(year) else {
            sink.write(UInt8(ascii: "@"))
            sink.write(double: seconds)
            return
        }
        func two(_ value: Int64) {
            sink.write(UInt8(ascii: "0") + UInt8(value / 10))
            sink.write(UInt8(ascii: "0") + UInt8(value % 10))
        }
        two(year / 100)
        two(year % 100)
        sink.write(UInt8(ascii: "-"))
        two(month)
        sink.write(UInt8(ascii: "-"))
        two(day)
        sink.write(UInt8(ascii: "T"))
        two(secondOfDay / 3600)
        sink.write(UInt8(ascii: ":"))
        two(secondOfDay / 60 % 60)
        sink.write(UInt8(ascii: ":"))
        two(secondOfDay % 60)
        if !parts.fraction.isEmpty {
            sink.write(UInt8(ascii: "."))
            parts.fraction.withUnsafeBytes { sink.write($0) }
        }
        sink.write(UInt8(ascii: "Z"))
    }

    /// The text of `seconds` since the reference date.
    package static func text(_ seconds: Double) -> String {
        let buffer = ByteBuffer()
        write(seconds, to: buffer)
        return buffer.text
    }

    /// The seconds since the reference date that `text` gives: ISO 8601 (`2011-03-13T07:06:40.5Z`,
    /// `…+01:00`, `2011-03-13`), or `@` and seconds since 2001. `nil` when it is neither.
    package static func parse(_ text: some StringProtocol) -> Double? {
        var text = String(text)
        return text.withUTF8 { parse(UnsafeRawBufferPointer($0)) }
    }

    /// The seconds since the reference date that the UTF-8 `bytes` give; `nil` when they are not a date.
    static func parse(_ bytes: UnsafeRawBufferPointer) -> Double? {
        if bytes.first == UInt8(ascii: "@") {
            return ExactNumberText.double(String(decoding: bytes.dropFirst(), as: UTF8.self))
        }
        var position = 0
        func digits(_ count: Int) -> Int64? {
            guard position + count <= bytes.count else { return nil }
            var value: Int64 = 0
            for _ in 0..<count {
                let byte = bytes[position]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int64(byte - UInt8(ascii: "0"))
                position += 1
            }
            return value
        }
        func expect(_ character: Character) -> Bool {
            guard position < bytes.count, bytes[position] == character.asciiValue! else { return false }
            position += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: month, year: year)
        else { return nil }
        var secondOfDay: Int64 = 0
        var fraction: [UInt8] = []
        var offset: Int64 = 0
        if position < bytes.count {
            guard expect("T") || expect(" "), let hour = digits(2), expect(":"), let minute = digits(2),
                hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if expect(":") {
                guard let value = digits(2), value < 60 else { return nil }
                second = value
                if expect(".") || expect(",") {
                    while position < bytes.count, bytes[position] >= UInt8(ascii: "0"),
                        bytes[position] <= UInt8(ascii: "9")
                    {
                        fraction.append(bytes[position])
                        position += 1
                    }
                    guard !fraction.isEmpty else { return nil }
                }
            }
            secondOfDay = hour * 3600 + minute * 60 + second
            if expect("Z") || expect("z") {
            } else if position < bytes.count,
                bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-")
            {
                let sign: Int64 = bytes[position] == UInt8(ascii: "-") ? -1 : 1
                position += 1
                guard let hours = digits(2) else { return nil }
                _ = expect(":")
                guard let minutes = digits(2), hours < 24, minutes < 60 else { return nil }
                offset = sign * (hours * 3600 + minutes * 60)
            }
            guard position == bytes.count else { return nil }
        }
        while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
        let whole =
            CivilDate.daysFrom1970(year: year, month: month, day: day) * 86_400 + secondOfDay - offset - referenceOffset
        guard !fraction.isEmpty else { return Double(whole) }
        // whole + 0.fraction, as the decimal text a correctly rounded parse turns into the Double.
        let decimal: String
        if whole >= 0 {
            decimal = "\(whole)." + String(decoding: fraction, as: UTF8.self)
        } else {
            decimal = "-\(-whole - 1)." + String(decoding: complement(fraction), as: UTF8.self)
        }
        return Double(decimal)
    }

    // MARK: Helpers

    /// The whole seconds (rounded down) and the fraction's digits of the shortest text of `seconds`;
    /// `nil` for values the calendar form cannot hold exactly.
    private static func split(_ seconds: Double) -> (whole: Int64, fraction: [UInt8])? {
        guard seconds.isFinite, abs(seconds) < 4e11, !(seconds == 0 && seconds.sign == .minus) else { return nil }
        var text = seconds.description
        return text.withUTF8 { utf8 -> (Int64, [UInt8])? in
            var negative = false
            var digits: [UInt8] = []
            var point: Int?
            var exponent = 0
            var index = 0
            if utf8.first == UInt8(ascii: "-") {
                negative = true
                index = 1
            }
            while index < utf8.count {
                let byte = utf8[index]
                if byte == UInt8(ascii: ".") {
                    point = digits.count
                } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                    guard
                        let value = Int(
                            String(decoding: UnsafeBufferPointer(rebasing: utf8[(index + 1)...]), as: UTF8.self))
                    else { return nil }
                    exponent = value
                    break
                } else {
                    digits.append(byte)
                }
                index += 1
            }
            let pointAt = (point ?? digits.count) + exponent
            var integerDigits: [UInt8]
            var fraction: [UInt8]
            if pointAt <= 0 {
                integerDigits = []
                fraction = [UInt8](repeating: UInt8(ascii: "0"), count: -pointAt) + digits
            } else if pointAt >= digits.count {
                integerDigits = digits + [UInt8](repeating: UInt8(ascii: "0"), count: pointAt - digits.count)
                fraction = []
            } else {
                integerDigits = Array(digits[..<pointAt])
                fraction = Array(digits[pointAt...])
            }
            while fraction.last == UInt8(ascii: "0") { fraction.removeLast() }
            var whole: Int64 = 0
            for digit in integerDigits { whole = whole * 10 + Int64(digit - UInt8(ascii: "0")) }
            if !negative { return (whole, fraction) }
            if fraction.isEmpty { return (-whole, []) }
            return (-whole - 1, complement(fraction))
        }
    }

    /// The digits of 10ⁿ − f for the n digits f (the last one not zero): `7` → `3`, `25` → `75`.
    private static func complement(_ digits: [UInt8]) -> [UInt8] {
        var result = digits.map { UInt8(ascii: "9") - ($0 - UInt8(ascii: "0")) }
        var index = result.count - 1
        while index >= 0 {
            if result[index] == UInt8(ascii: "9") {
                result[index] = UInt8(ascii: "0")
                index -= 1
            } else {
                result[index] += 1
                break
            }
        }
        while result.last == UInt8(ascii: "0") { result.removeLast() }
        return result
    }

    /// The proleptic Gregorian date of a day since 1970-01-01.
    static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
