import Foundation
import PackagePlugin

/// Embeds the package's templates into the target it is applied to, as a generated Swift file,
/// so the built executable needs no files beside it: the top-level `Templates/` folder, and the
/// store's engine, `Sources/StoreEngine` and `Sources/StoreEngineTestSupport`, whose Swift files
/// are templates too (`StoreFiles.swift.tmpl`, …), written into generated packages as they are,
/// and `Sources/CSQLite`, the module map that links SQLite on Linux.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let folders = [
            root.appending(path: "Templates"), root.appending(path: "Sources/StoreEngine"),
            root.appending(path: "Sources/StoreEngineTestSupport"),
            root.appending(path: "Sources/CSQLite"),
        ]
        let inputs = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") }
                .sorted()
                .map { folder.appending(path: $0) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) templates",
                executable: try context.tool(named: "TemplateEmbedder").url,
                arguments: [output.path] + inputs.map(\.path),
                inputFiles: inputs,
                outputFiles: [output]
            )
        ]
    }
}
