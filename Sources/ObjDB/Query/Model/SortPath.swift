/// The key path a sort or a `distinct` reads, as ``SortKey/keyPath`` holds it: property names
/// joined by `.`, through to-one links, the last one a map's possibly followed by a key in brackets
/// (`scores['math']`, `scores["second try"]`), as Realm's `SORT(…)` and `DISTINCT(…)` write it.
enum SortPath {
    /// What a map-key component starts with, followed by the key itself (no property name starts so).
    static let mapKeyMark: Character = "["

    /// The path's components: property names, and a map key as ``mapKeyMark`` followed by the key.
    static func components(_ keyPath: String) -> [String] {
        var components: [String] = []
        var current = ""
        var characters = keyPath.makeIterator()
        while let character = characters.next() {
            switch character {
            case ".":
                components.append(current)
                current = ""
            case "[" where !current.isEmpty:
                // `name['key']`: the name, then its key; anything malformed stays in the name, to be
                // reported as a property the type lacks.
                var key = ""
                var closed = false
                var rest = characters
                if let quote = rest.next(), quote == "'" || quote == "\"" {
                    while let next = rest.next() {
                        if next == "\\", let escaped = rest.next() {
                            key.append(escaped)
                        } else if next == quote {
                            closed = rest.next() == "]"
                            break
                        } else {
                            key.append(next)
                        }
                    }
                }
                guard closed else {
                    current.append(character)
                    continue
                }
                characters = rest
                components.append(current)
                current = String(mapKeyMark) + key
            default:
                current.append(character)
            }
        }
        components.append(current)
        return components
    }

    /// Whether a component is a map key.
    static func isMapKey(_ component: String) -> Bool { component.first == mapKeyMark }

    /// The key a map-key component holds.
    static func mapKey(_ component: String) -> String { String(component.dropFirst()) }

    /// The text of a map's subscript by `key`, as ``components(_:)`` reads it back.
    static func subscriptText(_ key: String) -> String {
        var escaped = ""
        for character in key {
            if character == "'" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "['\(escaped)']"
    }
}
