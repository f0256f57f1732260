import Foundation
import ObjDB
import Synchronization

extension JSONTransformer where Value == Date {
    /// Twitter's `created_at`: `Sat Aug 17 17:06:49 +0000 2013` (`EEE MMM dd HH:mm:ss Z yyyy`, POSIX locale).
    public static var twitterDate: Self { date(format: "EEE MMM dd HH:mm:ss Z yyyy") }

    /// An ISO 8601 date and time: `2012-01-01T18:32:01Z`, `2018-10-26T17:11:14+0000`, with `+00:00`
    /// or `-05` offsets, fractional seconds, or a date alone (midnight UTC).
    public static var iso8601: Self {
        Self(expecting: "a date string (ISO 8601)") { json in
            json.withStringBytes { parseISO8601Date($0) } ?? nil
        }
    }

    /// A date string in `format`, a `DateFormatter` pattern read in the POSIX locale; times without an
    /// offset are in `timeZone`.
    ///
    /// Twitter's `EEE MMM dd HH:mm:ss Z yyyy` and `yyyyMMdd` (in UTC) are parsed by hand, exactly and
    /// without a formatter; other patterns go through one `DateFormatter`.
    public static func date(format: String, timeZone: TimeZone = TimeZone(identifier: "UTC")!) -> Self {
        let expectation = "a date string (\(format))"
        let utc = ["UTC", "GMT"].contains(timeZone.identifier)
        switch format {
        case "EEE MMM dd HH:mm:ss Z yyyy":
            return Self(expecting: expectation) { json in json.withStringBytes { parseTwitterDate($0) } ?? nil }
        case "yyyyMMdd" where utc:
            return Self(expecting: expectation) { json in json.withStringBytes { parseCompactDate($0) } ?? nil }
        default:
            let formatter = LockedDateFormatter(format: format, timeZone: timeZone)
            return Self(expecting: expectation) { json in json.stringValue.flatMap(formatter.date(from:)) }
        }
    }

    /// A number of seconds since 1970-01-01 00:00:00 UTC.
    public static var secondsSince1970: Self {
        Self(expecting: "a number of seconds since 1970") { json in
            json.node.kind == .number ? json.doubleValue.map(Date.init(timeIntervalSince1970:)) : nil
        }
    }
}

/// A `DateFormatter` that one transformer shares across threads, one parse at a time.
private final class LockedDateFormatter: Sendable {
    private let formatter: Mutex<DateFormatter>

    init(format: String, timeZone: TimeZone) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = format
        self.formatter = Mutex(formatter)
    }

    func date(from text: String) -> Date? {
        formatter.withLock { $0.date(from: text) }
    }
}

/// Parses `Sat Aug 17 17:06:49 +0000 2013`.
func parseTwitterDate(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
    guard b.count == 30, b[3] == 0x20, b[7] == 0x20, b[10] == 0x20, b[13] == 0x3A, b[16] == 0x3A, b[19] == 0x20,
        b[25] == 0x20, weekdays.contains(word(b, 0)), let monthIndex = months.firstIndex(of: word(b, 4)),
        let day = digits(b, 8, 2), let hour = digits(b, 11, 2), let minute = digits(b, 14, 2),
        let second = digits(b, 17, 2), b[20] == UInt8(ascii: "+") || b[20] == UInt8(ascii: "-"),
        let offsetHours = digits(b, 21, 2), let offsetMinutes = digits(b, 23, 2), let year = digits(b, 26, 4)
    else { return nil }
    let sign = b[20] == UInt8(ascii: "-") ? -1 : 1
    return makeDate(
        year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: second, fraction: 0,
        offsetSeconds: sign * (offsetHours * 3600 + offsetMinutes * 60), maximumOffsetHours: offsetHours)
}

/// Parses `20081001` as midnight UTC.
func parseCompactDate(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
    guard b.count == 8, let year = digits(b, 0, 4), let month = digits(b, 4, 2), let day = digits(b, 6, 2) else {
        return nil
    }
    return makeDate(
        year: year, month: month, day: day, hour: 0, minute: 0, second: 0, fraction: 0, offsetSeconds: 0,
        maximumOffsetHours: 0)
}

/// Parses ISO 8601's extended format: `YYYY-MM-DD`, then optionally `THH:MM[:SS[.fff]]` and `Z`,
/// `±HH:MM`, `±HHMM` or `±HH` (no offset means UTC).
func parseISO8601Date(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
    guard b.count >= 10, let year = digits(b, 0, 4), b[4] == UInt8(ascii: "-"), let month = digits(b, 5, 2),
        b[7] == UInt8(ascii: "-"), let day = digits(b, 8, 2)
    else { return nil }
    var hour = 0
    var minute = 0
    var second = 0
    var fraction = 0.0
    var offset = 0
    var offsetHours = 0
    var p = 10
    if p < b.count {
        guard b[p] == UInt8(ascii: "T") || b[p] == UInt8(ascii: "t"), let h = digits(b, p + 1, 2),
            p + 3 < b.count, b[p + 3] == UInt8(ascii: ":"), let m = digits(b, p + 4, 2)
        else { return nil }
        hour = h
        minute = m
        p += 6
        if p < b.count, b[p] == UInt8(ascii: ":") {
            guard let s = digits(b, p + 1, 2) else { return nil }
            second = s
            p += 3
            if p < b.count, b[p] == UInt8(ascii: ".") || b[p] == UInt8(ascii: ",") {
                p += 1
                var scale = 0.1
                let start = p
                while p < b.count, b[p] &- UInt8(ascii: "0") < 10 {
                    fraction += Double(b[p] &- UInt8(ascii: "0")) * scale
                    scale /= 10
                    p += 1
                }
                guard p > start else { return nil }
            }
        }
        if p < b.count {
            switch b[p] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                p += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[p] == UInt8(ascii: "-") ? -1 : 1
                guard let oh = digits(b, p + 1, 2) else { return nil }
                offsetHours = oh
                p += 3
                var om = 0
                if p < b.count, b[p] == UInt8(ascii: ":") { p += 1 }
                if p < b.count {
                    guard let minutes = digits(b, p, 2) else { return nil }
                    om = minutes
                    p += 2
                }
                offset = sign * (oh * 3600 + om * 60)
            default:
                return nil
            }
        }
        guard p == b.count else { return nil }
    }
    return makeDate(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction,
        offsetSeconds: offset, maximumOffsetHours: offsetHours)
}

private let weekdays: [UInt32] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map(packed)
private let months: [UInt32] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    .map(packed)

private func packed(_ name: String) -> UInt32 {
    name.utf8.reduce(0) { $0 << 8 | UInt32($1) }
}

private func word(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
    UInt32(b[at]) << 16 | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2])
}

private func digits(_ b: UnsafeBufferPointer<UInt8>, _ at: Int, _ count: Int) -> Int? {
    guard at >= 0, at + count <= b.count else { return nil }
    var value = 0
    for index in at..<at + count {
        let digit = b[index] &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        value = value * 10 + Int(digit)
    }
    return value
}

/// The date of a civil date and time at a UTC offset, or `nil` when a field is out of range.
private func makeDate(
    year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double, offsetSeconds: Int,
    maximumOffsetHours: Int
) -> Date? {
    guard (1...12).contains(month), day >= 1, day <= CivilDate.daysIn(month: Int64(month), year: Int64(year)),
        hour < 24, minute < 60, second < 60, maximumOffsetHours < 24
    else { return nil }
    let days = Int(CivilDate.daysFrom1970(year: Int64(year), month: Int64(month), day: Int64(day)))
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
}
