import Foundation
import PackagePlugin

/// Embeds the package's templates into the target it is applied to, as a generated Swift file,
/// so the built executable needs no files beside it: the top-level `Templates/` folder, and the
/// store's engine, `Sources/StoreEngine` and `Sources/StoreEngineTestSupport`, whose Swift files
/// are templates too (`StoreFiles.swift.tmpl`, …), written into generated packages as they are.
@main
struct EmbedTemplates: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let folders = [
            root.appending(path: "Templates"), root.appending(path: "Sources/StoreEngine"),
            root.appending(path: "Sources/StoreEngineTestSupport"),
        ]
        let inputs = try folders.flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { !$0.hasPrefix(".") && $0 != "SQLiteStore.swift" }
                .sorted()
                .map { folder.appending(path: $0) }
        }
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedTemplates.swift")
        // The SQLite engine is compiled and tested here, but no storage writes it yet.
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
