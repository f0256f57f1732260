import Foundation
import ToolSupport

runTool("objdb-sync", usage: SyncCommand.usage) {
    try SyncCommand.run(Array(CommandLine.arguments.dropFirst()))
}
