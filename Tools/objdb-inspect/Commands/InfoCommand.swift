import Foundation
import ObjDB
import ObjDBInspection
import ToolSupport

/// `info`: what `mdb_stat` reports, and the ObjDB format around it.
struct InfoCommand: Subcommand {
    static let spec = CommandSpec(
        name: "info", abstract: "format, file, map, readers and per-database statistics",
        discussion: """
            Format and schema versions, file and map size, readers (live and stale),
            the oldest pinned version, and each named database's depth, pages and entries.
            """)

    init(parsing arguments: ParsedCommand) {}

    func run(in context: InspectContext) throws -> ToolExitCode {
        try context.requireStore()
        let info = try StoreInfo.read(path: context.path)
        let environment = info.environment
        let usedPercent = Double(environment.usedBytes) * 100 / Double(max(environment.mapSize, 1))
        context.print("Store:              \(info.path)")
        context.print("Format version:     \(info.formatVersion)")
        context.print("Schema version:     \(info.schemaVersion.map(String.init) ?? "none stored")")
        context.print("File size:          \(info.fileSize) bytes")
        context.print("Page size:          \(environment.pageSize) bytes")
        context.print(
            "Map size:           \(environment.mapSize) bytes (\(environment.usedBytes) used, "
                + "\(String(format: "%.1f", usedPercent))%)")
        context.print("Last page:          \(environment.lastPageNumber)")
        context.print("Last transaction:   \(environment.lastTransactionID)")
        context.print(
            "Readers:            \(environment.readers.count) open, \(environment.readerSlotsUsed) of "
                + "\(environment.maxReaders) slots used, \(info.staleReadersCleared) stale cleared")
        for reader in environment.readers {
            context.print("  pid \(reader.processID) reads transaction \(reader.transactionID)")
        }
        if let oldest = info.oldestPinnedVersion {
            context.print("Oldest pinned:      transaction \(oldest.version), \(oldest.behind) commit(s) behind")
        } else {
            context.print("Oldest pinned:      none (no open readers)")
        }
        context.print("")
        var table = TextTable(header: ["Database", "Depth", "Branch", "Leaf", "Overflow", "Entries"])
        let rows = [("(main)", info.mainDatabase)] + info.databases.map { ($0.name, $0.statistics) }
        for (name, statistics) in rows {
            table.append([
                name, "\(statistics.depth)", "\(statistics.branchPages)", "\(statistics.leafPages)",
                "\(statistics.overflowPages)", "\(statistics.entries)",
            ])
        }
        context.print(table.render())
        return .success
    }
}
