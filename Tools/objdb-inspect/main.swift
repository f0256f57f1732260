import Foundation

exit(InspectCommand.main(Array(CommandLine.arguments.dropFirst())))
