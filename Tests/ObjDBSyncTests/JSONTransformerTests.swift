import Foundation
import Testing

@testable import ObjDBSync

@Suite("JSON transformers")
struct JSONTransformerTests {
    private func value(_ json: String) throws -> JSONValue {
        try JSONDocument(Data("[\(json)]".utf8)).root[0]!
    }

    private func transform<Value>(_ json: String, _ transformer: JSONTransformer<Value>) -> Value? {
        try? transformer.transform(try value(json))
    }

    @Test func twitterDatesAgreeWithFoundationsFormatterOverTheYears() throws {
        var random = SeededRandom(seed: 5)
        for _ in 0..<2_000 {
            let date = Date(timeIntervalSince1970: Double(random.next() % 4_000_000_000))
            let text = twitterDateString(date)
            #expect(foundationTwitterDate(text) == date, "\(text)")
            #expect(transform("\"\(text)\"", .twitterDate) == date, "\(text)")
        }
        #expect(
            transform(#""Sat Aug 17 17:06:49 -0130 2013""#, .twitterDate)
                == foundationTwitterDate("Sat Aug 17 17:06:49 -0130 2013"))
    }

    @Test func malformedTwitterDatesAreRejected() {
        for text in [
            "Sat Aug 17 17:06:49 +0000", "Sat Aug 17 17:06:49 0000 2013", "Sat Foo 17 17:06:49 +0000 2013",
            "Xyz Aug 17 17:06:49 +0000 2013", "Sat Feb 30 17:06:49 +0000 2013", "Sat Aug 17 24:06:49 +0000 2013",
            "Sat Aug 17 17:60:49 +0000 2013", "2013-08-17T17:06:49Z", "",
        ] {
            #expect(transform("\"\(text)\"", .twitterDate) == nil, "\(text)")
        }
        #expect(transform("1376759209", .twitterDate) == nil)
    }

    @Test func iso8601TakesEveryOffsetFormTheAPIsSend() throws {
        let moment = Date(timeIntervalSince1970: 1_325_442_721)  // 2012-01-01T18:32:01Z
        for text in [
            "2012-01-01T18:32:01Z", "2012-01-01T18:32:01+0000", "2012-01-01T18:32:01+00:00", "2012-01-01T19:32:01+01",
            "2012-01-01T13:32:01-05:00", "2012-01-01t18:32:01z",
        ] {
            #expect(transform("\"\(text)\"", .iso8601) == moment, "\(text)")
        }
        #expect(transform(#""2012-01-01""#, .iso8601) == Date(timeIntervalSince1970: 1_325_376_000))
        #expect(transform(#""2012-01-01T18:32:01.250Z""#, .iso8601) == moment.addingTimeInterval(0.25))
        for text in ["2012-13-01T00:00:00Z", "2012-02-30", "2012-01-01T18", "2012-01-01T18:32:01Q", "20120101", ""] {
            #expect(transform("\"\(text)\"", .iso8601) == nil, "\(text)")
        }
    }

    @Test func compactDaysAndOtherFormatsParseInUTC() throws {
        #expect(transform(#""20081001""#, .date(format: "yyyyMMdd")) == Date(timeIntervalSince1970: 1_222_819_200))
        #expect(transform(#""20080230""#, .date(format: "yyyyMMdd")) == nil)
        #expect(transform(#""2008-10-01""#, .date(format: "yyyyMMdd")) == nil)
        let custom = JSONTransformer<Date>.date(format: "dd.MM.yyyy HH:mm")
        #expect(transform(#""01.10.2008 12:30""#, custom) == Date(timeIntervalSince1970: 1_222_864_200))
        #expect(transform(#""not a date""#, custom) == nil)
        #expect(ArticleSearchQuery.dayString(Date(timeIntervalSince1970: 1_222_819_200)) == "20081001")
    }

    @Test func numbersAsStringsOrIntegersWithinTheirType() throws {
        #expect(transform("123", JSONTransformer<Int>.integerOrString) == 123)
        #expect(transform(#""123""#, JSONTransformer<Int>.integerOrString) == 123)
        #expect(transform(#""-9223372036854775808""#, JSONTransformer<Int64>.integerOrString) == Int64.min)
        #expect(transform(#""9223372036854775808""#, JSONTransformer<Int64>.integerOrString) == nil)
        #expect(transform("300", JSONTransformer<Int8>.integerOrString) == nil)
        for text in [#"" 12""#, #""12 ""#, #""1e3""#, #""0x1F""#, #""""#, "1.5", "true"] {
            #expect(transform(text, JSONTransformer<Int>.integerOrString) == nil, "\(text)")
        }
        #expect(transform(#""123""#, JSONTransformer<Int>.integer) == nil)
        #expect(transform(#""5.2""#, JSONTransformer<Double>.numberOrString) == 5.2)
        #expect(transform(#""1e3""#, JSONTransformer<Double>.numberOrString) == 1000)
        #expect(transform(#""nan""#, JSONTransformer<Double>.numberOrString) == nil)
        #expect(transform(#"" 5""#, JSONTransformer<Double>.numberOrString) == nil)
        #expect(transform("2.6911076E-11", JSONTransformer<Double>.number) == 2.6911076E-11)
        #expect(transform("0.1", JSONTransformer<Decimal>.decimal) == Decimal(string: "0.1"))
    }

    @Test func urlsAreAbsoluteOrResolvedAgainstABase() throws {
        #expect(transform(#""https:\/\/pbs.twimg.com\/a.jpg""#, .url) == "https://pbs.twimg.com/a.jpg")
        #expect(transform(#""images/a.jpg""#, .url) == nil)
        #expect(transform(#""not a url""#, .url) == nil)
        let nyt = JSONTransformer<String>.url(relativeTo: "https://www.nytimes.com/")
        #expect(transform(#""images/2016/a.jpg""#, nyt) == "https://www.nytimes.com/images/2016/a.jpg")
        #expect(transform(#""https://static01.nyt.com/b.jpg""#, nyt) == "https://static01.nyt.com/b.jpg")
    }

    @Test func nullIsNilForOptionalsAndAReplacementWhereAsked() throws {
        #expect(transform("null", String?.jsonTransformer) == .some(nil))
        #expect(transform("null", String.jsonTransformer) == nil)
        #expect(transform("null", JSONTransformer<Int>.integer.replacingNull(with: 7)) == 7)
        let doubled = JSONTransformer<Int>.integer.map { $0 * 2 }
        #expect(transform("21", doubled) == 42)
    }

    @Test func aRejectedValueSaysWhatWasExpectedAndFound() throws {
        let document = try JSONDocument(Data(#"{"a": [{"b": "soon"}]}"#.utf8))
        let json = try #require(document.root["a"]?[0]?["b"])
        let error = try #require(throws: SyncError.self) { try JSONTransformer<Date>.iso8601.transform(json) }
        #expect(error.description == #"a[0].b: expected a date string (ISO 8601), found "soon""#)
    }
}
