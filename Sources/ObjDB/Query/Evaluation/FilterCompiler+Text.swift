/// `TEXT`: a full-text search of one string, tested on the record when no index decides it.
extension FilterCompiler {
    /// The test of `property TEXT 'words'` on the record's field at `slot`.
    func textSearchTest(_ comparison: QueryComparison, for schema: PropertySchema, slot: Int) throws -> NestedTest {
        let label = "\(schema.name) (\(schema.typeDescription))"
        guard schema.type == .string, schema.collection == .single else {
            throw invalid("TEXT searches a String property's words, but \(label) is not one")
        }
        guard comparison.options.isEmpty else {
            throw invalid("TEXT ignores case and diacritics already: drop [c] and [d]")
        }
        guard case .string(let text) = comparison.value else {
            throw invalid("TEXT needs the words to search for as a string, such as \(schema.name) TEXT 'swift -objc'")
        }
        return .textSearch(slot: slot, search: TextSearch(text), isOptional: schema.isOptional)
    }
}
