import Foundation
import PackagePlugin

/// Embeds the package's top-level `Templates/` folder into the target it is applied to, as a
/// generated Swift file, so the built executable needs no files beside it.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let templates = context.package.directoryURL.appending(path: "Templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: templates.path)
            .filter { !$0.hasPrefix(".") }
            .sorted()
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(names.count) templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [templates.path, output.path],
                inputFiles: names.map { templates.appending(path: $0) },
                outputFiles: [output]
            )
        ]
    }
}
