import ObjDB

/// ObjDB's storage layer: the Swift wrappers every object operation goes through.
final class StorageLayerEngine: BenchmarkEngine {
    let name = "objdb-storage"
    private var environment: Environment?
    private var database: DatabaseHandle?

    func open(directory: String) throws {
        var options = EnvironmentOptions()
        options.initialMapSize = 1 << 30
        options.durability = .processCrashOnly
        let environment = try Environment.open(path: directory + "/objdb-storage.lmdb", options: options)
        database = try environment.write { try $0.openDatabase(named: "records", options: .create) }
        self.environment = environment
    }

    func bulkInsert(_ records: RecordSet) throws {
        guard let environment, let database else { return }
        try environment.write { transaction in
            for key in records.keys {
                _ = try withKeyBytes(key) { keyBytes in
                    try transaction.put(reserving: records.valueSize, forKey: keyBytes, in: database) { value in
                        records.value(for: key, into: value)
                    }
                }
            }
        }
    }

    func pointReads(_ keys: [UInt64]) throws -> UInt64 {
        guard let environment, let database else { return 0 }
        return try environment.read { transaction in
            var checksum: UInt64 = 0
            for key in keys {
                guard let value = try withKeyBytes(key, { try transaction.get($0, in: database) }) else {
                    throw BenchmarkFailure.missingKey(key)
                }
                checksum &+= UInt64(value[0]) &+ UInt64(value[value.count - 1]) &+ UInt64(value.count)
            }
            return checksum
        }
    }

    func close() {
        environment = nil
        database = nil
    }
}

enum BenchmarkFailure: Error, CustomStringConvertible {
    case missingKey(UInt64)
    case lmdb(Int32, String)
    case disagreement(workload: String, detail: String)

    var description: String {
        switch self {
        case .missingKey(let key): return "key \(key) was not found"
        case .lmdb(let code, let operation): return "\(operation) returned LMDB code \(code)"
        case .disagreement(let workload, let detail): return "engines disagree on \(workload): \(detail)"
        }
    }
}
