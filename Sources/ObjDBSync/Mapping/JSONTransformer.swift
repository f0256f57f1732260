import Foundation

/// Turns a JSON value into a property's value: a number sent as a string, a date in one of the
/// API's formats, a URL.
///
/// ```swift
/// $0.map(\.createdAt, "created_at", .twitterDate)
/// $0.map(\.wordCount, "word_count", .integerOrString)
/// $0.map(\.score, "score", JSONTransformer(expecting: "a score") { $0.doubleValue.map { $0 * 100 } })
/// ```
///
/// A transformer that returns `nil` rejects the value: the import fails with
/// ``SyncError/Code/unexpectedValue`` at the value's path, saying what the transformer expected
/// and what it found (`response.docs[3].pub_date: expected an ISO 8601 date string, found 42`).
public struct JSONTransformer<Value>: Sendable {
    /// What the transformer accepts, for messages: `a Twitter date string`.
    public let expectation: String
    private let convert: @Sendable (JSONValue) throws -> Value?

    /// A transformer accepting what `convert` turns into a value; `expectation` says what that is.
    public init(expecting expectation: String, _ convert: @escaping @Sendable (JSONValue) throws -> Value?) {
        self.expectation = expectation
        self.convert = convert
    }

    /// The value `json` stands for.
    ///
    /// - Throws: ``SyncError`` at `json`'s path when the transformer rejects it.
    public func transform(_ json: JSONValue) throws -> Value {
        let converted: Value?
        do {
            converted = try convert(json)
        } catch let error as SyncError {
            throw error.placed(at: json.path)
        } catch {
            throw SyncError(.unexpectedValue, at: json.path, "expected \(expectation), found \(json): \(error)")
        }
        guard let converted else {
            throw SyncError(.unexpectedValue, at: json.path, "expected \(expectation), found \(json)")
        }
        return converted
    }

    /// The same transformer for an optional property: `null` becomes `nil`.
    public var optional: JSONTransformer<Value?> {
        let convert = self.convert
        return JSONTransformer<Value?>(expecting: expectation) { json in
            if json.isNull { return .some(nil) }
            return try convert(json).map { .some($0) }
        }
    }

    /// The same transformer, taking `null` as `value`: for properties that cannot be `nil` but
    /// whose JSON sometimes is.
    public func replacingNull(with value: Value) -> JSONTransformer<Value> where Value: Sendable {
        let convert = self.convert
        return JSONTransformer(expecting: expectation) { json in
            json.isNull ? value : try convert(json)
        }
    }

    /// A transformer that converts with this one, then with `next`.
    public func map<Next>(expecting expectation: String? = nil, _ next: @escaping @Sendable (Value) throws -> Next?)
        -> JSONTransformer<Next>
    {
        let convert = self.convert
        return JSONTransformer<Next>(expecting: expectation ?? self.expectation) { json in
            try convert(json).flatMap(next)
        }
    }
}

// MARK: - Strings, Booleans, numbers

extension JSONTransformer where Value == String {
    /// A JSON string.
    public static var string: Self { Self(expecting: "a string") { $0.stringValue } }

    /// An absolute URL in a string (`https://…`), kept as its text.
    public static var url: Self {
        Self(expecting: "an absolute URL string") { json in
            guard let text = json.stringValue, let url = URL(string: text), url.scheme != nil, url.host != nil
            else { return nil }
            return text
        }
    }

    /// A URL in a string, made absolute against `base` when relative (`images/a.jpg`).
    public static func url(relativeTo base: String) -> Self {
        let baseURL = URL(string: base)
        return Self(expecting: "a URL string") { json in
            guard let text = json.stringValue else { return nil }
            if let url = URL(string: text), url.scheme != nil { return url.host != nil ? text : nil }
            guard let baseURL, let resolved = URL(string: text, relativeTo: baseURL) else { return nil }
            return resolved.absoluteString
        }
    }
}

extension JSONTransformer where Value == Bool {
    /// `true` or `false`.
    public static var bool: Self { Self(expecting: "true or false") { $0.boolValue } }
}

extension JSONTransformer where Value: FixedWidthInteger & SignedInteger & SendableMetatype {
    /// An integer that fits the property's type; no fraction, no exponent, never through `Double`.
    public static var integer: Self {
        Self(expecting: "an integer that fits \(Value.self)") { json in
            json.int64Value.flatMap { Value(exactly: $0) }
        }
    }

    /// An integer, or a string of one (`"123"`): APIs that send both, even in one payload.
    public static var integerOrString: Self {
        Self(expecting: "an integer (or a string of one) that fits \(Value.self)") { json in
            if let number = json.int64Value { return Value(exactly: number) }
            return json.withStringBytes { parseInt64($0) }.flatMap { $0.flatMap { Value(exactly: $0) } }
        }
    }
}

extension JSONTransformer where Value: BinaryFloatingPoint & LosslessStringConvertible & SendableMetatype {
    /// Any JSON number, as the nearest value of the property's type.
    public static var number: Self {
        Self(expecting: "a number") { json in
            json.node.kind == .number ? json.numberText.flatMap { Value($0) } : nil
        }
    }

    /// A number, or a string of one (`"5.2"`).
    public static var numberOrString: Self {
        Self(expecting: "a number (or a string of one)") { json in
            switch json.node.kind {
            case .number: return json.numberText.flatMap { Value($0) }
            case .string: return json.stringValue.flatMap { isJSONNumber($0) ? Value($0) : nil }
            default: return nil
            }
        }
    }
}

extension JSONTransformer where Value == Decimal {
    /// Any JSON number, exactly as written.
    public static var decimal: Self {
        Self(expecting: "a number") { json in
            json.node.kind == .number ? json.numberText.flatMap { Decimal(string: $0, locale: nil) } : nil
        }
    }
}

extension JSONValue {
    /// A number's text, `-1.5e3`.
    var numberText: String? {
        let node = self.node
        guard node.kind == .number else { return nil }
        return document.withBytes(of: node) { String(decoding: $0, as: UTF8.self) }
    }
}

/// Whether `text` is a JSON number, so `"1e3"` counts and `" 12"`, `"0x1F"` and `"nan"` do not.
private func isJSONNumber(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard let first = bytes.first, let last = bytes.last, first > 0x20, last > 0x20 else { return false }
    return (try? JSONDocument(bytes: bytes))?.root.kind == .number
}
