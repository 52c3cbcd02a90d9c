import Foundation
import ScaffoldRepoCore

let result = ScaffoldRepo.run(
    Array(CommandLine.arguments.dropFirst()),
    currentDirectory: URL(
        fileURLWithPath: FileManager.default.currentDirectoryPath, isDirectory: true))
FileHandle.standardOutput.write(Data(result.standardOutput.utf8))
FileHandle.standardError.write(Data(result.standardError.utf8))
exit(result.exitCode)
