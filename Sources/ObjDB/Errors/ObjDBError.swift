/// An error thrown by ObjDB: a fault in the store, the file, the data or the input, never a
/// misuse of the API.
///
/// Every error has a stable ``code`` to match on, a ``message`` that says what failed and what
/// to do about it, and the context a user needs to act: the store's ``path``, the ``typeName``
/// and ``propertyName`` involved, the ``operation`` that failed, and so on. Match errors by code
/// in a `catch` clause, as you would GRDB's `DatabaseError`:
///
/// ```swift
/// do {
///     let db = try Database(path: "tweets.objdb", types: [Tweet.self])
/// } catch ObjDBError.schemaMismatch {
///     // raise Configuration.schemaVersion and migrate
/// } catch let error as ObjDBError where error.code == .newerFormat {
///     print(error.message)
/// }
/// ```
///
/// New codes may be added in any release; a `switch` over ``code`` needs a `default`, and adding
/// one breaks no caller.
///
/// Misuse of the API (a view used off its thread, a write begun inside another on the same
/// thread, writing through a frozen view, a managed object changed outside a write) is not an
/// `ObjDBError`: it stops the program with a message that names the rule broken, as Realm does.
/// Where a caller can tell beforehand, a property says so (``ReadView/isFrozen``,
/// ``Database/isInWriteTransaction``).
///
/// ## Topics
///
/// ### Matching an error
/// - ``code``
/// - ``Code``
///
/// ### What the error says
/// - ``message``
/// - ``path``
/// - ``typeName``
/// - ``propertyName``
/// - ``operation``
/// - ``position``
/// - ``details``
/// - ``figures``
/// - ``Figure``
/// - ``resultCode``
public struct ObjDBError: Error, Hashable, Sendable {
    /// What kind of fault this is; stable across releases.
    public let code: Code
    /// A sentence that says what failed, where, and what to do about it.
    public let message: String
    /// The store the error is about, when it is about one.
    public let path: String?
    /// The object type involved, when one is.
    public let typeName: String?
    /// The property involved, when one is.
    public let propertyName: String?
    /// The operation that failed, such as `mdb_txn_begin` or `add Tweet`.
    public let operation: String?
    /// For ``Code/predicateSyntax``: the offset of the error in the predicate, in Unicode scalars.
    public let position: Int?
    /// One line per part of the error, such as each difference of a schema mismatch.
    public let details: [String]
    /// The sizes, counts and versions the error names, such as the map size of a full map.
    public let figures: [Figure: Int]
    /// LMDB's numeric result code, for ``Code/lmdb`` and ``Code/mapFull``.
    let lmdbCode: Int32?

    /// Creates an error; ObjDB's own code makes them through the factories named after each code.
    init(
        _ code: Code, _ message: String, path: String? = nil, typeName: String? = nil, propertyName: String? = nil,
        operation: String? = nil, position: Int? = nil, details: [String] = [], figures: [Figure: Int] = [:],
        lmdbCode: Int32? = nil
    ) {
        self.code = code
        self.message = message
        self.path = path
        self.typeName = typeName
        self.propertyName = propertyName
        self.operation = operation
        self.position = position
        self.details = details
        self.figures = figures
        self.lmdbCode = lmdbCode
    }
}

extension ObjDBError: CustomStringConvertible {
    /// The ``message``.
    public var description: String { message }
}

extension ObjDBError {
    /// A stable identifier of a kind of fault, which `catch` clauses match.
    ///
    /// ```swift
    /// catch ObjDBError.uniqueConstraintViolated { … }
    /// ```
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name, as in `uniqueConstraintViolated`.
        public let rawValue: String

        /// Creates a code from its name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code's name.
        public var description: String { rawValue }

        /// Whether `error` is an ``ObjDBError`` with this code: what lets `catch ObjDBError.mapFull` match.
        public static func ~= (code: Code, error: any Error) -> Bool {
            (error as? ObjDBError)?.code == code
        }
    }

    /// A named number in an error's ``figures``.
    public struct Figure: RawRepresentable, Hashable, Sendable {
        /// The figure's name, as in `mapSize`.
        public let rawValue: String

        /// Creates a figure name.
        public init(rawValue: String) {
            self.rawValue = rawValue
        }
    }
}
