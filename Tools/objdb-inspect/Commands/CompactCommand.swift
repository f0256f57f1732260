import Foundation
import ObjDB
import ToolSupport

/// `compact OUT`: LMDB's compacting copy (free pages left out), written to OUT only.
struct CompactCommand {
    let path: String
    let output: String

    func run() throws -> ToolExitCode {
        guard !FileManager.default.fileExists(atPath: output) else {
            printError("objdb-inspect: \(output) exists; compact writes only to a new file")
            return .failure
        }
        _ = try InspectCommand.open(path)
        let environment = try Environment.openForReading(path: path)
        try environment.copy(to: output, compacting: true)
        let before = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        let after = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0
        print("compacted \(path) (\(before) bytes) to \(output) (\(after) bytes)")
        return .success
    }
}
