import Foundation
import ObjDB
import ToolSupport

/// `compact OUT`: LMDB's compacting copy (free pages left out), written to OUT only.
struct CompactCommand: Subcommand {
    static let spec = CommandSpec(
        name: "compact", abstract: "a compacted copy of the store at OUT",
        discussion: "LMDB's compacting copy of the store (free pages left out), written to the new file OUT.",
        operands: [.init("OUT")])

    let output: String

    init(parsing arguments: ParsedCommand) {
        output = arguments.operands[0]
    }

    func run(in context: InspectContext) throws -> ToolExitCode {
        guard access(output, F_OK) != 0 else {
            throw InspectError("\(output) exists; compact writes only to a new file")
        }
        let directory = (output as NSString).deletingLastPathComponent
        guard access(directory.isEmpty ? "." : directory, W_OK) == 0 else {
            let reason =
                errno == ENOENT ? "the directory \(directory) does not exist" : String(cString: strerror(errno))
            throw InspectError("cannot write the compacted copy \(output): \(reason)")
        }
        _ = try context.open()
        let environment = try Environment.openForReading(path: context.path)
        let before = fileSize(context.path)
        let progress = ProgressLine(label: "compact")
        let watcher = progress.map { meter in
            DispatchSource.makeTimerSource(queue: DispatchQueue(label: "objdb-inspect.compact-progress"))
                .configured(every: 0.2) { meter.update(done: fileSize(output), total: before, detail: "bytes written") }
        }
        defer { watcher?.cancel() }
        do {
            try environment.copy(to: output, compacting: true)
        } catch {
            throw InspectError("compact to \(output) failed: \(InspectCommand.describe(error))")
        }
        watcher?.cancel()
        progress?.finish()
        context.print("compacted \(context.path) (\(before) bytes) to \(output) (\(fileSize(output)) bytes)")
        return .success
    }
}

private func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}

extension DispatchSourceTimer {
    /// The timer, firing `handler` every `interval` seconds from now on.
    func configured(every interval: Double, _ handler: @escaping @Sendable () -> Void) -> DispatchSourceTimer {
        schedule(deadline: .now() + interval, repeating: interval)
        setEventHandler(handler: handler)
        resume()
        return self
    }
}
