/// A token, secret or key that never shows itself: its description, debug description and
/// mirror are `<redacted>`, so printing, logging or dumping it (or anything holding it) leaks nothing.
///
/// ```swift
/// let key = Secret("d8f1…")
/// print(key)   // "<redacted>"
/// ```
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The value itself, for the code that signs or sends it.
    package let revealed: String

    /// A secret holding `value`.
    public init(_ value: String) {
        revealed = value
    }

    /// Whether the secret is the empty string.
    public var isEmpty: Bool { revealed.isEmpty }

    /// `<redacted>`.
    public var description: String { "<redacted>" }
    /// `<redacted>`.
    public var debugDescription: String { "<redacted>" }
    /// A mirror with no children, so `dump` shows nothing of the value.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
