/// Dates of the proleptic Gregorian calendar as day counts, without a `Calendar`: the one
/// conversion (and month length) that query literals, the inspector's exact dates and the sync mapping's date
/// formats share (each parses text into a date on a path where Foundation's calendar is slow or
/// rounds).
package enum CivilDate {
    /// Days from 1970-01-01 to `year`-`month`-`day`, negative before 1970 (Howard Hinnant's
    /// `days_from_civil`).
    package static func daysFrom1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let shifted = month <= 2 ? year - 1 : year
        let era = (shifted >= 0 ? shifted : shifted - 399) / 400
        let yearOfEra = shifted - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The days of `month` (1–12) in `year`.
    package static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
