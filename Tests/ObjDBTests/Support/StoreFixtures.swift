import TestSupport

@testable import ObjDB

/// Opens a fresh ObjDB store in `directory` and one named database in it.
func makeStore(
    in directory: TemporaryDirectory, name: String = "store.objdb", options: EnvironmentOptions = .init(),
    database: String = "records", databaseOptions: DatabaseOptions = []
) throws -> (Environment, DatabaseHandle) {
    let (environment, _) = try StoreFormat.open(path: directory.store(name), options: options)
    let handle = try environment.write {
        try $0.openDatabase(named: database, options: databaseOptions.union(.create))
    }
    return (environment, handle)
}
