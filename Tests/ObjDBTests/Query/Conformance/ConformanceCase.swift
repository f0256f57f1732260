import Foundation
import ObjDB
import Testing

/// An argument of a conformance query, as a `Sendable` description of what the query is given.
enum ConformanceArgument: Sendable, CustomStringConvertible {
    case int(Int)
    case double(Double)
    case string(String)
    case bool(Bool)
    case date(Date)
    case uuid(UUID)
    case decimal(Decimal)
    case data(Data)
    case null
    case list([ConformanceArgument])
    /// The stored dog of that name.
    case dog(String)
    /// The stored item of that name.
    case item(String)

    var description: String {
        switch self {
        case .int(let value): return "\(value)"
        case .double(let value): return "\(value)"
        case .string(let value): return "'\(value)'"
        case .bool(let value): return "\(value)"
        case .date(let value): return "\(value)"
        case .uuid(let value): return "uuid(\(value))"
        case .decimal(let value): return "\(value)"
        case .data(let value): return "data\(Array(value))"
        case .null: return "nil"
        case .list(let values): return "[" + values.map(\.description).joined(separator: ", ") + "]"
        case .dog(let name): return "dog \(name)"
        case .item(let name): return "item \(name)"
        }
    }

    /// The value a query is given, resolved in `view` (objects are the view's own).
    func resolve(in view: ReadView) throws -> Any {
        switch self {
        case .int(let value): return value
        case .double(let value): return value
        case .string(let value): return value
        case .bool(let value): return value
        case .date(let value): return value
        case .uuid(let value): return value
        case .decimal(let value): return value
        case .data(let value): return value
        case .null: return NSNull()
        case .list(let values): return try values.map { try $0.resolve(in: view) }
        case .dog(let name):
            guard let dog = view.object(ofType: RQLDog.self, forPrimaryKey: name) else {
                throw ConformanceFailure("no dog \(name)")
            }
            return dog
        case .item(let name):
            guard let item = view.object(ofType: RQLItem.self, forPrimaryKey: name) else {
                throw ConformanceFailure("no item \(name)")
            }
            return item
        }
    }
}

struct ConformanceFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The type a conformance query runs on.
enum ConformanceModel: String, Sendable {
    case person = "RQLPerson"
    case dog = "RQLDog"
    case item = "RQLItem"
    case project = "RQLProject"
}

/// One query of Realm's query language and the names of the objects it must find, worked out
/// from ``Seed`` in plain Swift.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    let model: ConformanceModel
    let query: String
    let arguments: [ConformanceArgument]
    /// The names found: in this order when ``ordered``, as a set otherwise.
    let expected: [String]
    let ordered: Bool

    var testDescription: String {
        "\(model.rawValue): \(query)" + (arguments.isEmpty ? "" : " with \(arguments)")
    }

    static func person(
        _ query: String, _ arguments: ConformanceArgument..., where match: (Seed.Person) -> Bool
    ) -> ConformanceCase {
        ConformanceCase(
            model: .person, query: query, arguments: arguments,
            expected: Seed.people.filter(match).map(\.name), ordered: false)
    }

    static func dog(_ query: String, _ arguments: ConformanceArgument..., where match: (Seed.Dog) -> Bool)
        -> ConformanceCase
    {
        ConformanceCase(
            model: .dog, query: query, arguments: arguments, expected: Seed.dogs.filter(match).map(\.name),
            ordered: false)
    }

    static func item(_ query: String, _ arguments: ConformanceArgument..., where match: (Seed.Item) -> Bool)
        -> ConformanceCase
    {
        ConformanceCase(
            model: .item, query: query, arguments: arguments, expected: Seed.items.filter(match).map(\.name),
            ordered: false)
    }

    static func project(
        _ query: String, _ arguments: ConformanceArgument..., where match: (Seed.Project) -> Bool
    ) -> ConformanceCase {
        ConformanceCase(
            model: .project, query: query, arguments: arguments,
            expected: Seed.projects.filter(match).map(\.name), ordered: false)
    }

    /// A query whose result is written out by hand: `names` in this order when `ordered`.
    static func names(
        _ model: ConformanceModel, _ query: String, _ arguments: ConformanceArgument..., are names: [String],
        ordered: Bool = false
    ) -> ConformanceCase {
        ConformanceCase(model: model, query: query, arguments: arguments, expected: names, ordered: ordered)
    }

    /// Runs the query on the shared store and returns the names it finds, in the results' order.
    func run() throws -> [String] {
        let view = try ConformanceStore.database().view()
        let arguments = try self.arguments.map { try $0.resolve(in: view) }
        switch model {
        case .person: return try Self.filter(view.objects(RQLPerson.self), query, arguments).map(\.name)
        case .dog: return try Self.filter(view.objects(RQLDog.self), query, arguments).map(\.name)
        case .item: return try Self.filter(view.objects(RQLItem.self), query, arguments).map(\.name)
        case .project: return try Self.filter(view.objects(RQLProject.self), query, arguments).map(\.name)
        }
    }

    /// Checks the query finds what it must.
    func check() throws {
        let found = try run()
        if ordered {
            #expect(found == expected, "\(testDescription)")
        } else {
            #expect(found.count == Set(found).count, "\(testDescription) found an object twice: \(found)")
            #expect(Set(found) == Set(expected), "\(testDescription)")
        }
    }

    /// `filter(_:_:)` through the public, variadic entry point, as a user calls it.
    static func filter<T: Object>(_ results: Results<T>, _ query: String, _ arguments: [Any]) throws -> Results<T> {
        switch arguments.count {
        case 0: return try results.filter(query)
        case 1: return try results.filter(query, arguments[0])
        case 2: return try results.filter(query, arguments[0], arguments[1])
        case 3: return try results.filter(query, arguments[0], arguments[1], arguments[2])
        case 4: return try results.filter(query, arguments[0], arguments[1], arguments[2], arguments[3])
        default: throw ConformanceFailure("more than four arguments")
        }
    }
}

/// A query Realm rejects, and what ObjDB's error must say: the problem (`mentioning`) and, for a
/// syntax error, the position (in Unicode scalars from the start) where it lies.
struct RejectedQuery: Sendable, CustomTestStringConvertible {
    let model: ConformanceModel
    let query: String
    let arguments: [ConformanceArgument]
    /// The error's position, or `nil` where the query parses but does not fit the schema.
    let position: Int?
    let mentioning: String

    var testDescription: String { "\(model.rawValue): \(query)" }

    init(_ query: String, _ arguments: ConformanceArgument..., at position: Int?, mentioning: String) {
        self.init(.person, query, arguments, position, mentioning)
    }

    init(
        _ model: ConformanceModel, _ query: String, _ arguments: ConformanceArgument..., at position: Int?,
        mentioning: String
    ) {
        self.init(model, query, arguments, position, mentioning)
    }

    private init(
        _ model: ConformanceModel, _ query: String, _ arguments: [ConformanceArgument], _ position: Int?,
        _ mentioning: String
    ) {
        self.model = model
        self.query = query
        self.arguments = arguments
        self.position = position
        self.mentioning = mentioning
    }

    func check() throws {
        let probe = ConformanceCase(model: model, query: query, arguments: arguments, expected: [], ordered: false)
        do {
            let found = try probe.run()
            Issue.record("\(query) was accepted and found \(found)")
        } catch let error as ObjDBError {
            if let position {
                #expect(error.code == .predicateSyntax, "\(query): \(error)")
                #expect(error.position == position, "\(query): \(error)")
            } else {
                #expect(error.code == .invalidQuery || error.code == .predicateSyntax, "\(query): \(error)")
            }
            // The problem as the error states it, without the predicate it quotes.
            let problem = error.details.first ?? error.message
            #expect(
                problem.localizedCaseInsensitiveContains(mentioning),
                "\(query): '\(problem)' does not mention '\(mentioning)'")
        }
    }
}
