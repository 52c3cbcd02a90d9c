import Foundation

/// The Swift files of a package's module folders that no model generated (the person's own code
/// beside the generated files), each folder read once per run. What the generated code must fit
/// comes from them: whether the target declares its own `Task`, and how it imports.
final class HostFiles {
    private let root: URL
    private let known: Set<String>
    private var read: [String: [(path: String, text: String)]] = [:]
    private var levels: [String: ImportStyle.Levels] = [:]

    /// The files under `root` that are not at a `known` path (the generated ones).
    init(root: URL, known: Set<String>) {
        self.root = root
        self.known = known
    }

    /// The person's Swift files below `folder` (`Sources/App`), with their text, sorted.
    func files(in folder: String) -> [(path: String, text: String)] {
        if let found = read[folder] { return found }
        let found = ClashCheck.personsFiles(in: folder, root: root, known: known).compactMap {
            path -> (path: String, text: String)? in
            guard
                let text = try? String(
                    contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            else { return nil }
            return (path, text)
        }
        read[folder] = found
        return found
    }

    /// Whether the target of `module`, or its test target, declares a top-level `Task`.
    func declaresTask(module: String) -> Bool {
        ["Sources/\(module)", "Tests/\(module)Tests"].contains { folder in
            files(in: folder).contains { file in
                file.text.contains("Task")
                    && ClashCheck.declarations(in: file.text).contains { $0.name == "Task" }
            }
        }
    }

    /// The migration files that `models` record in targets (written once, so the person's:
    /// regen never rewrites them) whose imports are at another level than the person's files in
    /// their folder now give, sorted. Until the person changes them, the module does not build.
    func migrationsWithOtherImports(of models: [Manifest.Model]) -> [String] {
        var found: [String] = []
        for model in models where model.destroyed != true && model.target != nil {
            let names = model.migrationFileNames
            for path in model.files.keys.sorted()
            where names.contains(URL(fileURLWithPath: path).lastPathComponent)
                && model.owned?.contains(path) != true
            {
                guard let folder = ClashCheck.moduleFolder(path),
                    let text = try? String(
                        contentsOf: root.appendingPathComponent(path), encoding: .utf8),
                    ImportStyle.fitted(text, to: importLevels(in: folder)) != text
                else { continue }
                found.append(path)
            }
        }
        return found.sorted()
    }

    /// The warnings, and the step before the next one, for ``migrationsWithOtherImports(of:)``'s
    /// `paths`, shown under `displayRoot`.
    static func migrationAdvice(_ paths: [String], displayRoot: String) -> (
        warnings: [Diagnostic], step: String?
    ) {
        guard !paths.isEmpty else { return ([], nil) }
        let shown = paths.map { DiskPaths.shown($0, under: displayRoot) }
        let warnings = shown.map { path in
            Diagnostic.warning(
                "\(path) is yours (written once) and imports at another access level than the "
                    + "target's own files now do (internal import, or none), so the module does not "
                    + "build until you make its imports as theirs")
        }
        return (
            warnings,
            "make the imports of \(shown.joined(separator: ", ")) as the target's files' are"
        )
    }

    /// How the person's files in `folder` import.
    func importLevels(in folder: String) -> ImportStyle.Levels {
        if let found = levels[folder] { return found }
        var found = ImportStyle.Levels()
        for file in files(in: folder) { found.formUnion(ImportStyle.levels(of: file.text)) }
        levels[folder] = found
        return found
    }

    /// The files `request` renders, fitted to the person's code: `_Concurrency.Task` where the
    /// target declares a `Task`, and each import at the level its folder's files give. Every
    /// command renders a model in a package through here (generate, regen, `own`), so what one
    /// records is what another renders.
    func render(_ request: GenerateRequest, templates: TemplateSource) throws -> [GeneratedFile] {
        var request = request
        request.targetDeclaresTask = declaresTask(module: request.module)
        return try Renderer.render(request, templates: templates).map { file in
            guard file.path.hasSuffix(".swift"), let folder = ClashCheck.moduleFolder(file.path)
            else { return file }
            return GeneratedFile(
                path: file.path,
                contents: ImportStyle.fitted(file.contents, to: importLevels(in: folder)),
                isOwnedOnceEdited: file.isOwnedOnceEdited, isWrittenOnce: file.isWrittenOnce,
                isShared: file.isShared)
        }
    }
}
