import Foundation
import TestSupport
import Testing

@testable import ObjDB

final class InspectedShelf: Object {
    @Persisted(primaryKey: true) var id = 0
    @Persisted(deleteRule: .cascade) var books: List<InspectedBook>
    @Persisted(deleteRule: .deny) var keeper: InspectedBook?
    @Persisted var favourite: InspectedBook?
}

final class InspectedBook: Object {
    @Persisted var author = ""
    @Persisted var edition = 0
    override class var uniquenessConstraints: [[String]] { [["author", "edition"]] }
}

/// `objdb-inspect schema` shows delete rules and uniqueness constraints (#30).
@Suite("objdb-inspect schema: delete rules and constraints")
struct InspectSchemaRulesTests {
    let directory = TemporaryDirectory()

    @Test func schemaShowsDeleteRulesAndUniquenessConstraints() throws {
        let store = directory.path + "/rules.objdb"
        _ = try Database(path: store, types: [InspectedShelf.self, InspectedBook.self])
        let result = try run("objdb-inspect", [store, "schema", "--no-color"])
        #expect(result.status == 0, "\(result.error)")
        let lines = result.output.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.hasPrefix("books") && $0.contains("on delete cascade") })
        #expect(lines.contains { $0.hasPrefix("keeper") && $0.contains("on delete deny") })
        #expect(lines.contains { $0.hasPrefix("favourite") && !$0.contains("on delete") })
        #expect(lines.contains("unique together: author, edition"))
        let json = try run("objdb-inspect", [store, "schema", "--json"])
        let schema = try JSONDecoder().decode(Schema.self, from: Data(json.output.utf8))
        #expect(schema["InspectedShelf"]?["books"]?.deleteRule == .cascade)
        #expect(schema["InspectedBook"]?.uniquenessConstraints == [["author", "edition"]])
    }
}
