import Foundation
import ObjDB
import ToolSupport

/// `objdb-inspect PATH info`: the store's format, file, map, readers and databases, like `mdb_stat -efa`.
struct InfoCommand {
    let path: String

    func run() throws -> ToolExitCode {
        let info = try StoreInfo.read(path: path)
        let environment = info.environment
        let usedPercent = Double(environment.usedBytes) * 100 / Double(max(environment.mapSize, 1))
        print("Store:              \(info.path)")
        print("Format version:     \(info.formatVersion)")
        print("Schema version:     \(info.schemaVersion.map(String.init) ?? "none stored")")
        print("File size:          \(info.fileSize) bytes")
        print("Page size:          \(environment.pageSize) bytes")
        print(
            "Map size:           \(environment.mapSize) bytes (\(environment.usedBytes) used, "
                + "\(String(format: "%.1f", usedPercent))%)")
        print("Last page:          \(environment.lastPageNumber)")
        print("Last transaction:   \(environment.lastTransactionID)")
        print(
            "Readers:            \(environment.readers.count) open, \(environment.readerSlotsUsed) of "
                + "\(environment.maxReaders) slots used, \(info.staleReadersCleared) stale cleared")
        for reader in environment.readers {
            print("  pid \(reader.processID) reads transaction \(reader.transactionID)")
        }
        if let oldest = info.oldestPinnedVersion {
            print("Oldest pinned:      transaction \(oldest.version), \(oldest.behind) commit(s) behind")
        } else {
            print("Oldest pinned:      none (no open readers)")
        }
        print("")
        var table = TextTable(header: ["Database", "Depth", "Branch", "Leaf", "Overflow", "Entries"])
        let rows = [("(main)", info.mainDatabase)] + info.databases.map { ($0.name, $0.statistics) }
        for (name, statistics) in rows {
            table.append([
                name, "\(statistics.depth)", "\(statistics.branchPages)", "\(statistics.leafPages)",
                "\(statistics.overflowPages)", "\(statistics.entries)",
            ])
        }
        print(table.render())
        return .success
    }
}
