/// The words of a command line, taken apart the way LMDB's and swift-format's tools read them:
/// positional words in order, `--name value` options and `--flag` switches anywhere.
public struct CommandLineArguments: Sendable {
    /// The words that are neither options nor their values, in order.
    public private(set) var positional: [String] = []
    private var options: [String: String] = [:]
    private var flags: Set<String> = []

    /// Parses `words` (without the program name); `valueOptions` names the options that take a value.
    ///
    /// - Throws: ``UsageError`` when a value option comes last with no value.
    public init(_ words: [String], valueOptions: Set<String>) throws(UsageError) {
        var index = 0
        while index < words.count {
            let word = words[index]
            if word.hasPrefix("--"), word.count > 2 {
                let name = String(word.dropFirst(2))
                if let equals = name.firstIndex(of: "=") {
                    options[String(name[..<equals])] = String(name[name.index(after: equals)...])
                } else if valueOptions.contains(name) {
                    guard index + 1 < words.count else { throw UsageError("--\(name) needs a value") }
                    options[name] = words[index + 1]
                    index += 1
                } else {
                    flags.insert(name)
                }
            } else {
                positional.append(word)
            }
            index += 1
        }
    }

    /// Whether the switch `--name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    public func value(_ name: String) -> String? { options[name] }

    /// The value of `--name` as an integer, `defaultValue` when absent.
    ///
    /// - Throws: ``UsageError`` when the value is not a whole number.
    public func integer(_ name: String, default defaultValue: Int) throws(UsageError) -> Int {
        guard let text = options[name] else { return defaultValue }
        guard let number = Int(String(text.filter { $0 != "_" })) else {
            throw UsageError("--\(name) takes a whole number, not '\(text)'")
        }
        return number
    }

    /// The switches and options given that are not in `known`, to report as usage errors.
    public func unknown(known: Set<String>) -> [String] {
        (Array(flags) + Array(options.keys)).filter { !known.contains($0) }.sorted()
    }
}

/// A command line the tool cannot make sense of; exit code 2.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    /// What is wrong with the command line.
    public let message: String
    /// Creates a usage error saying `message`.
    public init(_ message: String) { self.message = message }
    /// The message.
    public var description: String { message }
}
