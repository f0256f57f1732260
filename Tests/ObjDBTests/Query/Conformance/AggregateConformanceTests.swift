import Foundation
import Testing

/// `@count`, `@sum`, `@min`, `@max` and `@avg` of collections. As in Realm, the sum of an empty
/// collection is 0 and its minimum, maximum and average are null (no comparison with a number holds).
@Suite("Query conformance: aggregates")
struct AggregateConformanceTests {
    static let ofValues: [ConformanceCase] = [
        .person("luckyNumbers.@count == 0") { $0.luckyNumbers.isEmpty },
        .person("luckyNumbers.@count > 2") { $0.luckyNumbers.count > 2 },
        .person("luckyNumbers.@count == 3") { $0.luckyNumbers.count == 3 },
        .person("luckyNumbers.@sum > 10") { $0.luckyNumbers.reduce(0, +) > 10 },
        .person("luckyNumbers.@sum == 0") { $0.luckyNumbers.reduce(0, +) == 0 },
        .person("luckyNumbers.@sum < 0") { $0.luckyNumbers.reduce(0, +) < 0 },
        .person("luckyNumbers.@sum == 24") { $0.luckyNumbers.reduce(0, +) == 24 },
        .person("luckyNumbers.@min < 1") { ($0.luckyNumbers.min() ?? .max) < 1 },
        .person("luckyNumbers.@min >= 7") { ($0.luckyNumbers.min() ?? .min) >= 7 },
        .person("luckyNumbers.@max == 8") { $0.luckyNumbers.max() == 8 },
        .person("luckyNumbers.@max > 10") { ($0.luckyNumbers.max() ?? .min) > 10 },
        .person("luckyNumbers.@avg > 5") { average($0.luckyNumbers.map(Double.init)).map { $0 > 5 } ?? false },
        .person("luckyNumbers.@avg == 2.5") { average($0.luckyNumbers.map(Double.init)) == 2.5 },
        .person("luckyNumbers.@avg < 5.5") { average($0.luckyNumbers.map(Double.init)).map { $0 < 5.5 } ?? false },
        .person("luckyNumbers.@sum BETWEEN {5, 20}") { (5...20).contains($0.luckyNumbers.reduce(0, +)) },
        .person("luckyNumbers.@max IN {8, 13, 42}") { [8, 13, 42].contains($0.luckyNumbers.max()) },
        .person("ratings.@avg >= 3.5") { average($0.ratings).map { $0 >= 3.5 } ?? false },
        .person("ratings.@sum < 4") { $0.ratings.reduce(0, +) < 4 },
        .person("ratings.@min > 2") { ($0.ratings.min() ?? -.infinity) > 2 },
        .person("ratings.@max == 4.5") { $0.ratings.max() == 4.5 },
        .person("ratings.@count == 1") { $0.ratings.count == 1 },
        .person("ratings.@avg == 2") { average($0.ratings) == 2 },
        .person("ratings.@sum == 6") { $0.ratings.reduce(0, +) == 6 },
        .person("luckyNumbers.@count > 1 AND ratings.@count > 1") {
            $0.luckyNumbers.count > 1 && $0.ratings.count > 1
        },
        .person("NOT luckyNumbers.@count > 1") { !($0.luckyNumbers.count > 1) },
        .person("3 < luckyNumbers.@count") { $0.luckyNumbers.count > 3 },
        .person("luckyNumbers.@sum > %@", .int(12)) { $0.luckyNumbers.reduce(0, +) > 12 },
        .person("ratings.@max < $0", .double(4.5)) { ($0.ratings.max() ?? .infinity) < 4.5 },
    ]

    @Test(arguments: ofValues) func aggregatesOfValues(query: ConformanceCase) throws { try query.check() }
}

func average(_ values: [Double]) -> Double? {
    values.isEmpty ? nil : values.reduce(0, +) / Double(values.count)
}
