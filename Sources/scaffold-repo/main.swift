import Foundation
import ScaffoldRepoCore

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let result = ScaffoldRepo.run(
    arguments,
    currentDirectory: URL(
        fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
let colored = StatusColors.isWanted(
    isTerminal: isatty(STDOUT_FILENO) == 1, environment: ProcessInfo.processInfo.environment,
    isJSON: result.isJSON)
let output =
    colored ? result.colouredStandardOutput ?? result.standardOutput : result.standardOutput
FileHandle.standardOutput.write(Data(output.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode)
