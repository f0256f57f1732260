import Foundation
import ObjDB
import ObjDBSync

/// W9: ObjDBSync's import of 200-status home-timeline pages, each in a write transaction of its own,
/// against Foundation's `JSONSerialization` parsing the same bytes, page by page, in the same run.
///
/// The pages come from the project's own generator: about 3 KB a status in the API's layout, with
/// retweets, quotes, mentions and media. Each repetition imports every page, in order, into a
/// fresh store's `home` timeline (durable commits, as an app would), and parses each page with
/// `JSONSerialization` and with ObjDBSync's own parser just before. The target (#13) is an import
/// costing at most twice Foundation's parse.
struct ImportWorkload: StandaloneWorkload {
    let name = "W9"
    let summary = [
        "ObjDBSync: import of 200-status timeline pages (a durable write transaction each), tweets/s,",
        "against JSONSerialization's parse of the same bytes; target import ÷ parse ≤ 2×",
    ]
    static let statusesPerPage = 200
    static let maximumRatio = 2.0

    func run(_ context: WorkloadContext) throws -> WorkloadSection {
        let pageCount = context.quick ? 2 : 20
        var generator = TwitterPayloadGenerator(seed: 9)
        let pages = (0..<pageCount).map { page in
            generator.timeline(count: Self.statusesPerPage, newestID: 9_000_000_000_000_000 - Int64(page) * 1_000_000)
        }
        var measurement = ImportMeasurement(
            tweets: pageCount * Self.statusesPerPage, bytes: pages.map(\.count).reduce(0, +))
        for _ in 0..<context.repetitions {
            let directory = try temporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let database = try Database(path: directory + "/w9.objdb", types: TwitterImporter.modelTypes)
            let importer = TwitterImporter(database: database)
            var parse = 0.0
            var ownParse = 0.0
            var imports = 0.0
            var imported = 0
            for page in pages {
                var values = 0
                parse += try time { values = (try JSONSerialization.jsonObject(with: page) as? [Any])?.count ?? 0 }
                ownParse += try time { values += try JSONDocument(page).root.count }
                imports += try time { imported += try importer.importPage(page, timeline: "home").statusIDs.count }
                guard values == 2 * Self.statusesPerPage else { throw ImportFailure("a page parsed to \(values / 2)") }
            }
            let stored = try database.view().object(ofType: Timeline.self, forPrimaryKey: "home")?.entries.count
            guard imported == measurement.tweets, stored == measurement.tweets else {
                throw ImportFailure("imported \(imported) statuses, the timeline holds \(stored ?? 0)")
            }
            measurement.parse.append(parse)
            measurement.ownParse.append(ownParse)
            measurement.imports.append(imports)
        }
        return WorkloadSection(
            lines: measurement.table, results: measurement.resultLines, jsonKey: "imports", json: measurement.json,
            targets: [
                TargetCheck(
                    workload: name, measure: "import ÷ JSONSerialization parse", measured: measurement.ratio,
                    bound: Self.maximumRatio, higherIsBetter: false)
            ])
    }
}

/// W9's timings, per repetition, in seconds for all pages.
private struct ImportMeasurement {
    let tweets: Int
    let bytes: Int
    var parse: [Double] = []
    var ownParse: [Double] = []
    var imports: [Double] = []

    /// Import time ÷ `JSONSerialization` time, of the medians.
    var ratio: Double { median(imports) / median(parse) }

    private func perSecond(_ times: [Double]) -> Double { Double(tweets) / median(times) }

    var table: [String] {
        var lines = [
            "W9 imports: \(tweets / ImportWorkload.statusesPerPage) pages of \(ImportWorkload.statusesPerPage) "
                + "statuses (\(bytes / 1024) KiB) into one timeline, medians (higher is better)",
            "",
        ]
        let rows = [
            ["", "tweets/s", "MB/s", "÷ JSONSerialization"],
            [
                "JSONSerialization parse", String(format: "%.0f", perSecond(parse)),
                String(format: "%.1f", Double(bytes) / median(parse) / 1e6), "1.00×",
            ],
            [
                "ObjDBSync parse (JSONDocument)", String(format: "%.0f", perSecond(ownParse)),
                String(format: "%.1f", Double(bytes) / median(ownParse) / 1e6),
                String(format: "%.2f×", median(ownParse) / median(parse)),
            ],
            [
                "ObjDBSync import (TwitterImporter)", String(format: "%.0f", perSecond(imports)),
                String(format: "%.1f", Double(bytes) / median(imports) / 1e6), String(format: "%.2f×", ratio),
            ],
        ]
        lines += aligned(rows)
        lines.append("(the last column is time ÷ JSONSerialization's time: the import's target is ≤ 2×)")
        return lines
    }

    var resultLines: [String] {
        [
            "RESULT jsonserialization W9 \(String(format: "%.0f", perSecond(parse)))",
            "RESULT objdbsync-parse W9 \(String(format: "%.0f", perSecond(ownParse)))",
            "RESULT objdbsync-import W9 \(String(format: "%.0f", perSecond(imports)))",
        ]
    }

    var json: Any {
        [
            "tweets": tweets, "bytes": bytes, "parse_seconds": parse, "own_parse_seconds": ownParse,
            "import_seconds": imports, "import_over_parse": ratio,
        ] as [String: Any]
    }
}

private struct ImportFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = "W9: " + description }
}
