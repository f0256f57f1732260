import Foundation
import Testing

@testable import ObjDBSync

@Suite("JSON documents")
struct JSONDocumentTests {
    private func parse(_ text: String) throws -> JSONValue {
        try JSONDocument(Data(text.utf8)).root
    }

    private func syntaxError(_ text: String) -> SyncError? {
        do {
            _ = try JSONDocument(Data(text.utf8))
            return nil
        } catch let error as SyncError {
            return error
        } catch {
            return nil
        }
    }

    @Test func scalarsReadAsWhatTheyAre() throws {
        let root = try parse(#"{"s": "a\u00e9\n\"b\/", "i": -42, "d": 2.5e-3, "t": true, "f": false, "n": null}"#)
        #expect(root["s"]?.stringValue == "aé\n\"b/")
        #expect(root["i"]?.int64Value == -42)
        #expect(root["d"]?.doubleValue == 0.0025)
        #expect(root["t"]?.boolValue == true)
        #expect(root["f"]?.boolValue == false)
        #expect(root["n"]?.isNull == true)
        #expect(root["missing"] == nil)
        #expect(root.count == 6)
    }

    @Test func integersAreExactBeyondTwoToThe53() throws {
        let root = try parse("[9007199254740993, 9223372036854775807, -9223372036854775808, 9223372036854775808, 1.0]")
        #expect(root[0]?.int64Value == 9_007_199_254_740_993)
        #expect(root[1]?.int64Value == Int64.max)
        #expect(root[2]?.int64Value == Int64.min)
        #expect(root[3]?.int64Value == nil)
        #expect(root[4]?.int64Value == nil)
    }

    @Test func surrogatePairsDecodeAndLoneSurrogatesBecomeReplacementCharacters() throws {
        let root = try parse(#"["\ud83d\ude80", "\ud83d", "x\udc00y"]"#)
        #expect(root[0]?.stringValue == "🚀")
        #expect(root[1]?.stringValue == "\u{FFFD}")
        #expect(root[2]?.stringValue == "x\u{FFFD}y")
    }

    @Test func rawUTF8IsKept() throws {
        let root = try parse("[\"山田 — Zoë 🚀\"]")
        #expect(root[0]?.stringValue == "山田 — Zoë 🚀")
    }

    @Test func pathsNameKeysAndPositions() throws {
        let root = try parse(#"{"response": {"docs": [{}, {}, {}, {"pub_date": 42}]}}"#)
        let value = try #require(root["response"]?["docs"]?[3]?["pub_date"])
        #expect(value.path.description == "response.docs[3].pub_date")
        #expect(root.path.description == "(top level)")
        #expect(try parse(#"{"a.b": [1]}"#)["a.b"]?[0]?.path.description == #"["a.b"][0]"#)
    }

    @Test func truncatedTextIsAnErrorNamingWhereItBroke() throws {
        let error = try #require(syntaxError(#"[{"user": {"name": "Ada", "id": 1"#))
        #expect(error.code == .malformedJSON)
        #expect(error.path?.description == "[0].user.id")
        #expect(error.message.contains("ends"))
        #expect(syntaxError(#"{"text": "never closed"#)?.message.contains("never ends") == true)
    }

    @Test func everyKindOfSyntaxErrorIsCaught() {
        for text in [
            "", " ", "[", "]", "{", "{\"a\" 1}", "{\"a\":}", "{a: 1}", "[1,]", "[1 2]", "01", "-", "1.", "1e", "+1",
            ".5", "tru", "nul", "[true false]", "\"\\x\"", "\"\\u12\"", "\"a\u{1}b\"", "[1]]", "{\"a\":1,}", "NaN",
        ] {
            #expect(syntaxError(text)?.code == .malformedJSON, "\(text.debugDescription) should not parse")
        }
    }

    @Test func invalidUTF8IsAnError() {
        for bytes: [UInt8] in [
            [0x22, 0xFF, 0x22], [0x22, 0xC3, 0x22], [0x22, 0xC0, 0xAF, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22],
            [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], [0x22, 0xE2, 0x82],
        ] {
            #expect(throws: SyncError.self) { try JSONDocument(bytes: bytes) }
        }
    }

    @Test func nestingDeeperThanTheLimitIsAnErrorNotACrash() throws {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        let error = try #require(syntaxError(deep))
        #expect(error.message.contains("deeper than 512"))
        let fine = String(repeating: "[", count: 512) + String(repeating: "]", count: 512)
        #expect(try parse(fine).kind == .array)
        let objects = String(repeating: "{\"a\":", count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        #expect(syntaxError(objects)?.code == .malformedJSON)
    }

    @Test func trailingTextIsAnError() {
        #expect(syntaxError("[1] [2]")?.message.contains("the end of the text") == true)
        #expect(syntaxError("{} x") != nil)
    }

    @Test func whitespaceAndEmptyContainersParse() throws {
        let root = try parse(" \n\t{ \"a\" : [ ] , \"b\" : { } }\r\n")
        #expect(root["a"]?.count == 0)
        #expect(root["b"]?.kind == .object)
        #expect(root.members.map(\.key) == ["a", "b"])
    }

    @Test(.enabled(if: fixturesAvailable, fixturesAbsent))
    func agreesWithFoundationOnTheRealPayloads() throws {
        for name in try fixtureNames("twitter") + fixtureNames("nyt") {
            let data = try fixture(name)
            let mine = try JSONDocument(data).root
            let theirs = try JSONSerialization.jsonObject(with: data)
            #expect(equal(mine, theirs), "\(name)")
        }
    }

    /// Whether a parsed value and Foundation's reading of it agree, value by value.
    private func equal(_ value: JSONValue, _ other: Any) -> Bool {
        switch value.kind {
        case .null: return other is NSNull
        case .bool: return (other as? NSNumber).map { $0.boolValue == value.boolValue } ?? false
        case .number:
            guard let number = other as? NSNumber else { return false }
            if let integer = value.int64Value { return number.int64Value == integer }
            return number.doubleValue == value.doubleValue
        case .string: return other as? String == value.stringValue
        case .array:
            guard let array = other as? [Any], array.count == value.count else { return false }
            return zip(value.elements, array).allSatisfy { equal($0, $1) }
        case .object:
            guard let object = other as? [String: Any], object.count == value.count else { return false }
            return value.members.allSatisfy { member in object[member.key].map { equal(member.value, $0) } ?? false }
        }
    }
}
