// `swift package --allow-writing-to-package-directory scaffold-repo <arguments>`: runs the
// scaffold-repo executable in the package that depends on this one, with the same arguments
// and the same output as the command line. `--target NAME` without `--into` generates into
// that target of this package.

import Foundation
import PackagePlugin

@main
struct ScaffoldRepoPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "scaffold-repo")
        let package = context.package.directoryURL
        var forwarded = arguments
        if forwarded.contains(where: { $0 == "--target" || $0.hasPrefix("--target=") }),
            !forwarded.contains(where: { $0 == "--into" || $0.hasPrefix("--into=") })
        {
            forwarded += ["--into", "."]
        }
        let process = Process()
        process.executableURL = tool.url
        process.arguments = forwarded
        process.currentDirectoryURL = package
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginFailure(status: process.terminationStatus)
        }
    }
}

/// scaffold-repo failed; it has printed why.
struct PluginFailure: Error, CustomStringConvertible {
    let status: Int32
    var description: String { "scaffold-repo exited with status \(status)" }
}
