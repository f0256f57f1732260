import Foundation
import ToolSupport

runTool("objdb-inspect", usage: InspectCommand.usage) {
    try InspectCommand.run(Array(CommandLine.arguments.dropFirst()))
}
