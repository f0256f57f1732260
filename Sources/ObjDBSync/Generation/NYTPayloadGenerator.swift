import Foundation

/// NYT Article Search v2 response bodies made up from a seed, in the shapes the API has sent:
/// for tests, the benchmark and the demo, which must not depend on recorded payloads.
///
/// Not API: `package` so that the project's own tests, benchmark and demo share it.
package struct NYTPayloadGenerator {
    /// The era of doc shape to write.
    package enum Shape: Sendable {
        /// Since 2025: `nyt://` IDs, `multimedia` as one object with `default` and `thumbnail`
        /// images, a reduced `headline` and `byline`, keywords without `major`.
        case current
        /// 2018–2019: hex IDs with `uri`, `blog` as `{}`, keywords with `major`, `multimedia` as a list of crops.
        case classic
    }

    private var random: SeededRandom
    /// When the first doc was published; each next one is an hour older.
    package var clock = Date(timeIntervalSince1970: 1_740_000_000)

    /// A generator deterministic for `seed`.
    package init(seed: UInt64 = 1) {
        random = SeededRandom(seed: seed)
    }

    /// One page of results: `count` docs starting at `offset` of `hits`.
    package mutating func page(count: Int = 10, offset: Int = 0, hits: Int = 100, shape: Shape = .current) -> Data {
        let docs = (0..<count).map { doc(number: offset + $0, shape: shape) }
        let body = """
            {"status":"OK","copyright":"Copyright (c) 2025 The New York Times Company. All Rights Reserved.",\
            "response":{"docs":[\(docs.joined(separator: ","))],"meta":{"hits":\(hits),"offset":\(offset),"time":12}}}
            """
        return Data(body.utf8)
    }

    /// The gateway's fault body (HTTP 401 or 429), as NYT's Apigee front sends it.
    package static func faultBody(_ text: String, code: String) -> Data {
        Data("{\"fault\":{\"faultstring\":\(jsonLiteral(text)),\"detail\":{\"errorcode\":\(jsonLiteral(code))}}}".utf8)
    }

    /// The rate-limit fault.
    package static var rateLimitBody: Data {
        faultBody(
            "Rate limit quota violation. Quota limit  exceeded. Identifier : 0000",
            code: "policies.ratelimit.QuotaViolation")
    }

    /// The old `status: ERROR` envelope.
    package static func statusErrorBody(_ errors: [String]) -> Data {
        let list = errors.map { jsonLiteral($0) }.joined(separator: ",")
        return Data(
            "{\"status\":\"ERROR\",\"copyright\":\"Copyright (c) 2014 The New York Times Company.\",\"errors\":[\(list)],\"results\":[]}"
                .utf8)
    }

    /// The identifier the doc with `number` gets in `shape`.
    package static func identifier(number: Int, shape: Shape) -> String {
        switch shape {
        case .current:
            let hex = String(UInt64(number) &* 0x9E37_79B9 % 0xFFFF_FFFF_FFFF, radix: 16)
            return "nyt://article/00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - hex.count) + hex
        case .classic:
            let hex = String(number, radix: 16)
            return "5b1e" + String(repeating: "0", count: 20 - hex.count) + hex
        }
    }

    private mutating func doc(number: Int, shape: Shape) -> String {
        let id = Self.identifier(number: number, shape: shape)
        let date = clock.addingTimeInterval(-3600 * Double(number))
        let day = iso8601String(date).prefix(10).replacingOccurrences(of: "-", with: "/")
        let slug = "story-\(number)"
        let url = "https://www.nytimes.com/\(day)/business/\(slug).html"
        let headline = "Story \(number): Markets Weigh a Bailout — Again"
        let words = 200 + Int(random.next() % 2000)
        switch shape {
        case .current:
            return """
                {"abstract":\(jsonLiteral("What happened in story \(number).")),"byline":{"original":"By Jane Doe"},\
                "document_type":"article","headline":{"main":\(jsonLiteral(headline)),"kicker":"","print_headline":""},\
                "_id":"\(id)","keywords":[{"name":"Subject","value":"Banking and Financial Institutions","rank":1},\
                {"name":"Location","value":"Lisbon","rank":2}],\
                "multimedia":{"caption":"A trading floor.","credit":"Photo by A. Photographer",\
                "default":{"url":"https://static01.nyt.com/images/2025/\(slug)-superJumbo.jpg","height":1365,"width":2048},\
                "thumbnail":{"url":"https://static01.nyt.com/images/2025/\(slug)-thumbStandard.jpg","height":75,"width":75}},\
                "news_desk":"Business","print_page":"1","print_section":"B","pub_date":"\(iso8601String(date))",\
                "section_name":"Business","snippet":\(jsonLiteral("A snippet of story \(number).")),\
                "source":"The New York Times","subsection_name":"Economy","type_of_material":"News",\
                "uri":"\(id)","web_url":"\(url)","word_count":\(words)}
                """
        case .classic:
            return """
                {"web_url":"\(url)","snippet":\(jsonLiteral("A snippet of story \(number).")),\
                "lead_paragraph":"The first paragraph.","print_page":"1","blog":{},"source":"The New York Times",\
                "multimedia":[{"rank":0,"subtype":"xlarge","caption":null,"credit":null,"type":"image",\
                "url":"images/2018/\(slug)-articleLarge.jpg","height":400,"width":600,"legacy":{"xlarge":\
                "images/2018/\(slug)-articleLarge.jpg","xlargewidth":600,"xlargeheight":"400"},"subType":"xlarge",\
                "crop_name":"articleLarge"}],"headline":{"main":\(jsonLiteral(headline)),"kicker":null,\
                "content_kicker":null,"print_headline":"Bailout\\nAgain","name":null,"seo":null,"sub":null},\
                "keywords":[{"name":"subject","value":"Bailouts","rank":1,"major":"N"}],"pub_date":"\(iso8601String(date))",\
                "document_type":"article","news_desk":"Business","section_name":"Business","byline":null,\
                "type_of_material":"News","_id":"\(id)","word_count":\(words),"score":2.6911076E-11,\
                "uri":"nyt://article/\(id)"}
                """
        }
    }
}
