import Foundation
import ObjDB
import Testing

/// One question asked three ways: a string predicate, a `where` closure and a Foundation
/// `#Predicate`. All three must find the same objects, and the objects ``Seed`` says.
struct FrontEndCase: Sendable, CustomTestStringConvertible {
    let format: String
    let arguments: [ConformanceArgument]
    /// The `where` closure, where the closure API can say it.
    let closure: (@Sendable (Query<RQLPerson>) -> Query<Bool>)?
    /// The `#Predicate`, where ObjDB translates what it would need.
    let predicate: Predicate<RQLPerson>?
    let expected: [String]

    var testDescription: String { format }

    init(
        _ format: String, _ arguments: ConformanceArgument...,
        closure: (@Sendable (Query<RQLPerson>) -> Query<Bool>)? = nil, predicate: Predicate<RQLPerson>? = nil,
        where match: (Seed.Person) -> Bool
    ) {
        self.format = format
        self.arguments = arguments
        self.closure = closure
        self.predicate = predicate
        self.expected = Seed.people.filter(match).map(\.name)
    }
}

@Suite("Query conformance: the three front-ends agree")
struct FrontEndAgreementTests {
    static let born1990 = Seed.date("1990-01-01T00:00:00Z")
    static let annKey = Seed.people[0].key
    static let hundred = Seed.decimal("100")

    static let questions: [FrontEndCase] = [
        FrontEndCase(
            "age > 30", closure: { $0.age > 30 }, predicate: #Predicate { $0.age > 30 }, where: { $0.age > 30 }),
        FrontEndCase(
            "age == 34", closure: { $0.age == 34 }, predicate: #Predicate { $0.age == 34 }, where: { $0.age == 34 }),
        FrontEndCase(
            "age != 34", closure: { $0.age != 34 }, predicate: #Predicate { $0.age != 34 }, where: { $0.age != 34 }),
        FrontEndCase(
            "age <= 27", closure: { $0.age <= 27 }, predicate: #Predicate { $0.age <= 27 }, where: { $0.age <= 27 }),
        FrontEndCase(
            "age >= 45 OR age < 10", closure: { $0.age >= 45 || $0.age < 10 },
            predicate: #Predicate { $0.age >= 45 || $0.age < 10 }, where: { $0.age >= 45 || $0.age < 10 }),
        FrontEndCase(
            "age > 20 AND isMember == true", closure: { $0.age > 20 && $0.isMember == true },
            predicate: #Predicate { $0.age > 20 && $0.isMember }, where: { $0.age > 20 && $0.isMember }),
        FrontEndCase(
            "NOT (age > 30)", closure: { !($0.age > 30) }, predicate: #Predicate { !($0.age > 30) },
            where: { !($0.age > 30) }),
        FrontEndCase(
            "isMember == false", closure: { $0.isMember == false }, predicate: #Predicate { !$0.isMember },
            where: { !$0.isMember }),
        FrontEndCase(
            "age IN {8, 27, 61}", closure: { $0.age.in([8, 27, 61]) },
            predicate: #Predicate { [8, 27, 61].contains($0.age) }, where: { [8, 27, 61].contains($0.age) }),
        FrontEndCase(
            "age BETWEEN {19, 34}", closure: { $0.age.contains(19...34) },
            predicate: #Predicate { $0.age >= 19 && $0.age <= 34 }, where: { (19...34).contains($0.age) }),
        FrontEndCase(
            "height == nil", closure: { $0.height == nil }, predicate: #Predicate { $0.height == nil },
            where: { $0.height == nil }),
        FrontEndCase(
            "height > 1.6", closure: { $0.height > 1.6 },
            predicate: #Predicate { $0.height != nil && $0.height! > 1.6 }, where: { ($0.height ?? 0) > 1.6 }),
        FrontEndCase(
            "rating >= 4.5", closure: { $0.rating >= 4.5 }, predicate: #Predicate { $0.rating >= 4.5 },
            where: { $0.rating >= 4.5 }),
        FrontEndCase(
            "name BEGINSWITH 'A'", closure: { $0.name.starts(with: "A") },
            predicate: #Predicate { $0.name.starts(with: "A") }, where: { $0.name.hasPrefix("A") }),
        FrontEndCase(
            "name CONTAINS 'mi'", closure: { $0.name.contains("mi") }, predicate: #Predicate { $0.name.contains("mi") },
            where: { $0.name.contains("mi") }),
        FrontEndCase(
            "name == 'hana'", closure: { $0.name == "hana" }, predicate: #Predicate { $0.name == "hana" },
            where: { $0.name == "hana" }),
        FrontEndCase(
            "nickname == nil", closure: { $0.nickname == nil }, predicate: #Predicate { $0.nickname == nil },
            where: { $0.nickname == nil }),
        FrontEndCase(
            "nickname == 'Fay'", closure: { $0.nickname == "Fay" }, predicate: #Predicate { $0.nickname == "Fay" },
            where: { $0.nickname == "Fay" }),
        FrontEndCase(
            "born > %@", .date(born1990), closure: { $0.born > FrontEndAgreementTests.born1990 },
            predicate: #Predicate { $0.born > born1990 }, where: { $0.born > born1990 }),
        FrontEndCase(
            "key == %@", .uuid(annKey), closure: { $0.key == FrontEndAgreementTests.annKey },
            predicate: #Predicate { $0.key == annKey }, where: { $0.key == annKey }),
        FrontEndCase(
            "balance > %@", .decimal(hundred), closure: { $0.balance > FrontEndAgreementTests.hundred },
            predicate: #Predicate { $0.balance > hundred }, where: { $0.balance > hundred }),
        FrontEndCase(
            "best.name == 'Rex'", closure: { $0.best.name == "Rex" }, predicate: #Predicate { $0.best?.name == "Rex" },
            where: { $0.best == "Rex" }),
        FrontEndCase(
            "best.age > 4", closure: { $0.best.age > 4 }, predicate: #Predicate { $0.best != nil && $0.best!.age > 4 },
            where: { ($0.bestDog?.age ?? 0) > 4 }),
        FrontEndCase(
            "7 IN luckyNumbers", closure: { $0.luckyNumbers.contains(7) },
            predicate: #Predicate { $0.luckyNumbers.contains(7) }, where: { $0.luckyNumbers.contains(7) }),
        FrontEndCase(
            "ANY luckyNumbers > 10",
            predicate: #Predicate { $0.luckyNumbers.contains { $0 > 10 } },
            where: { $0.luckyNumbers.contains { $0 > 10 } }),
        FrontEndCase(
            "ALL luckyNumbers > 2",
            predicate: #Predicate { $0.luckyNumbers.allSatisfy { $0 > 2 } },
            where: { $0.luckyNumbers.allSatisfy { $0 > 2 } }),
        FrontEndCase(
            "ANY dogs.name == 'Rex'", closure: { $0.dogs.name == "Rex" },
            predicate: #Predicate { $0.dogs.contains { $0.name == "Rex" } }, where: { $0.dogs.contains("Rex") }),
        FrontEndCase(
            "ALL dogs.age > 2",
            predicate: #Predicate { $0.dogs.allSatisfy { $0.age > 2 } },
            where: { $0.dogValues.allSatisfy { $0.age > 2 } }),
        FrontEndCase(
            "dogs.@count > 1", closure: { $0.dogs.count > 1 }, predicate: #Predicate { $0.dogs.count > 1 },
            where: { $0.dogs.count > 1 }),
        FrontEndCase(
            "luckyNumbers.@sum > 10", closure: { $0.luckyNumbers.sum > 10 },
            where: { $0.luckyNumbers.reduce(0, +) > 10 }),
    ]

    @Test(arguments: questions)
    func theStringTheClosureAndThePredicateFindTheSameObjects(question: FrontEndCase) throws {
        let view = try ConformanceStore.database().view()
        let people = view.objects(RQLPerson.self)
        let arguments = try question.arguments.map { try $0.resolve(in: view) }
        let byString = try ConformanceCase.filter(people, question.format, arguments).map(\.name)
        #expect(Set(byString) == Set(question.expected), "string")
        #expect(question.closure != nil || question.predicate != nil, "a question asked one way only")
        if let closure = question.closure {
            #expect(people.where(closure).map(\.name) == byString, "where closure")
        }
        if let predicate = question.predicate {
            #expect(try people.filter(predicate).map(\.name) == byString, "#Predicate")
        }
    }
}
