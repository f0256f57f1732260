/// A query's whole filter, compiled when it is made or at its first use; shared by the queries
/// ``PreparedQuery/limited(to:)`` derives.
final class LazyFilter: Sendable {
    private enum State {
        case compiled(FilterProgram?)
        case pending(QueryExpression, FilterCompiler)
    }
    private let state: Lock<State>

    init(_ program: FilterProgram?) {
        state = Lock(.compiled(program))
    }

    init(compiling expression: QueryExpression, with compiler: FilterCompiler) {
        state = Lock(.pending(expression, compiler))
    }

    func program() throws -> FilterProgram? {
        try state.withLock { state in
            switch state {
            case .compiled(let program): return program
            case .pending(let expression, let compiler):
                let program = try compiler.compile(expression)
                state = .compiled(program)
                return program
            }
        }
    }
}
