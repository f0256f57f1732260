/// What one subcommand takes, declared the way swift-argument-parser's `ParsableCommand` declares it:
/// its operands, its options (each either a `--flag` or an `--option VALUE`), and its help.
///
/// ``parse(_:)`` checks a command line against it: an option the command does not declare, a flag
/// given a value (`--json=1`), an option without its value, and too many or too few operands are
/// ``UsageError``s (exit code 2).
public struct CommandSpec: Sendable {
    /// One operand.
    public struct Operand: Sendable {
        /// Its name in the usage line (`TYPE`).
        public var name: String
        /// Whether it may be left out.
        public var isOptional: Bool
        /// Whether it takes any number of words (the last operand only).
        public var isRepeating: Bool

        public init(_ name: String, optional: Bool = false, repeating: Bool = false) {
            self.name = name
            self.isOptional = optional || repeating
            self.isRepeating = repeating
        }
    }

    /// One option.
    public struct Option: Sendable {
        /// `--name`.
        public var name: String
        /// The value's name in the usage line (`N`), or `nil` for a flag.
        public var valueName: String?
        /// One line of help.
        public var help: String

        /// An option taking a value: `--limit N`.
        public static func value(_ name: String, _ valueName: String, _ help: String) -> Option {
            Option(name: name, valueName: valueName, help: help)
        }

        /// A switch: `--json`.
        public static func flag(_ name: String, _ help: String) -> Option {
            Option(name: name, valueName: nil, help: help)
        }
    }

    /// The command's name.
    public var name: String
    /// One line: what the command does.
    public var abstract: String
    /// More help, after the options.
    public var discussion: String
    /// The operands, in order.
    public var operands: [Operand]
    /// The options.
    public var options: [Option]

    public init(
        name: String, abstract: String, discussion: String = "", operands: [Operand] = [], options: [Option] = []
    ) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.operands = operands
        self.options = options
    }

    /// `dump TYPE [--where P] [--limit N]`.
    public var synopsis: String {
        var parts = [name]
        for operand in operands {
            if operand.isRepeating {
                parts.append("[\(operand.name)…]")
            } else {
                parts.append(operand.isOptional ? "[\(operand.name)]" : operand.name)
            }
        }
        for option in options {
            parts.append("[--\(option.name)\(option.valueName.map { " \($0)" } ?? "")]")
        }
        return parts.joined(separator: " ")
    }

    /// The full help: usage, abstract, options, discussion.
    public func help(prefix: String) -> String {
        var lines = ["usage: \(prefix) \(synopsis)", "", abstract]
        if !options.isEmpty {
            lines.append("")
            lines.append("options:")
            let width = options.map { $0.name.count + ($0.valueName.map { $0.count + 1 } ?? 0) }.max() ?? 0
            for option in options {
                let left = "--\(option.name)\(option.valueName.map { " \($0)" } ?? "")"
                lines.append("  " + left + String(repeating: " ", count: width + 4 - left.count) + option.help)
            }
        }
        if !discussion.isEmpty {
            lines.append("")
            lines.append(discussion)
        }
        return lines.joined(separator: "\n")
    }

    /// Checks `words` (after the command's name) against the declaration.
    ///
    /// - Throws: ``UsageError`` saying what is wrong.
    public func parse(_ words: [String]) throws(UsageError) -> ParsedCommand {
        var parsed = ParsedCommand()
        var index = 0
        var onlyOperands = false
        while index < words.count {
            let word = words[index]
            index += 1
            if onlyOperands || !Self.looksLikeOption(word) {
                parsed.operands.append(word)
                continue
            }
            if word == "--" {
                onlyOperands = true
                continue
            }
            guard word.hasPrefix("--") else { throw UsageError("\(name) has no option \(word)") }
            var optionName = String(word.dropFirst(2))
            var inlineValue: String?
            if let equals = optionName.firstIndex(of: "=") {
                inlineValue = String(optionName[optionName.index(after: equals)...])
                optionName = String(optionName[..<equals])
            }
            guard let option = options.first(where: { $0.name == optionName }) else {
                throw UsageError("\(name) takes no option --\(optionName)")
            }
            guard option.valueName != nil else {
                if inlineValue != nil { throw UsageError("--\(optionName) is a switch and takes no value") }
                parsed.flags.insert(optionName)
                continue
            }
            let value: String
            if let inlineValue {
                value = inlineValue
            } else {
                guard index < words.count else { throw UsageError("--\(optionName) needs a value") }
                value = words[index]
                index += 1
            }
            if parsed.values[optionName] != nil { throw UsageError("--\(optionName) is given twice") }
            parsed.values[optionName] = value
        }
        let required = operands.filter { !$0.isOptional }
        if parsed.operands.count < required.count {
            throw UsageError(
                "\(name) needs \(required[parsed.operands.count...].map(\.name).joined(separator: " and "))")
        }
        if operands.last?.isRepeating != true, parsed.operands.count > operands.count {
            let extra = parsed.operands[operands.count...]
            throw UsageError(
                "\(name) takes \(operands.isEmpty ? "no operands" : operands.map(\.name).joined(separator: " "))"
                    + ", not '\(extra.joined(separator: " "))'")
        }
        return parsed
    }

    /// Whether `word` is meant as an option: it starts with `-` and is not a number (`-5`, a negative key).
    public static func looksLikeOption(_ word: String) -> Bool {
        guard word.hasPrefix("-"), word.count > 1 else { return false }
        return Double(word) == nil
    }
}

/// A command line checked against a ``CommandSpec``.
public struct ParsedCommand: Sendable {
    /// The operands, in order.
    public internal(set) var operands: [String] = []
    var values: [String: String] = [:]
    var flags: Set<String> = []

    /// Whether the switch `--name` was given.
    public func has(_ name: String) -> Bool { flags.contains(name) }

    /// The value of `--name`, if given.
    public func value(_ name: String) -> String? { values[name] }

    /// The value of `--name` as a whole number in `range`; `nil` when not given.
    ///
    /// - Throws: ``UsageError`` for a value that is not a whole number or lies outside `range`.
    public func integer(_ name: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[name] else { return nil }
        let digits = text.filter { $0 != "_" }
        guard let number = Int(digits) else {
            if !digits.isEmpty, digits.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "+" }),
                digits.dropFirst().allSatisfy(\.isNumber)
            {
                throw UsageError("--\(name) \(text) is too large: at most \(range.upperBound)")
            }
            throw UsageError("--\(name) takes a whole number, not '\(text)'")
        }
        guard range.contains(number) else {
            if number < range.lowerBound {
                throw UsageError(
                    "--\(name) must be \(range.lowerBound == 0 ? "0 or more" : "at least \(range.lowerBound)"), not \(text)"
                )
            }
            throw UsageError("--\(name) \(text) is too large: at most \(range.upperBound)")
        }
        return number
    }

    /// The value of `--name`, which must be one of `choices`; `nil` when not given.
    public func choice(_ name: String, of choices: [String]) throws(UsageError) -> String? {
        guard let text = values[name] else { return nil }
        guard choices.contains(text) else {
            throw UsageError(
                "--\(name) is \(choices.dropLast().joined(separator: ", ")) or \(choices.last!), not '\(text)'")
        }
        return text
    }
}
