import Foundation

/// `scaffold-repo Model field:Type...`: plans the model's files into a new package or a target,
/// then reports and applies the plan.
enum GenerateCommand {
    static func run(
        _ request: GenerateRequest, _ options: RunOptions, currentDirectory: URL
    ) throws -> RunResult {
        try refuseANestedPackage(request, currentDirectory: currentDirectory)
        var target = try DestinationResolver.resolve(
            request.destination, spec: request.spec, storage: request.storage,
            currentDirectory: currentDirectory)
        // Without --storage, a model generated before keeps its storage: what the package
        // needs for it (the sqlite library's lines) follows that one. And while another model
        // of the module is a sqlite one, the module links SQLite whatever this one's storage.
        let manifest = try Manifest.load(root: target.root)
        var storage = request.storage
        if !request.storageIsChosen,
            let recorded = manifest?.model(named: request.spec.typeName)?.storage
        {
            storage = recorded
        }
        if case .into(_, let module) = request.destination,
            manifest?.models.contains(where: {
                $0.storage == .sqlite && $0.target == module && $0.destroyed != true
                    && $0.name != request.spec.typeName
            }) == true
        {
            storage = .sqlite
        }
        if storage != request.storage {
            target = try DestinationResolver.resolve(
                request.destination, spec: request.spec, storage: storage,
                currentDirectory: currentDirectory)
        }
        let templates = try PackagePlanner.templates(
            request.templatesDirectory, root: target.root, currentDirectory: currentDirectory)
        let plan = try PackagePlanner.plan(
            [request], root: target.root, displayRoot: target.displayRoot, templates: templates,
            force: options.force)
        // A migration with values to decide, new or as it stands on disk (a run again before
        // they were decided): its version's tests fail until they are, so the next step is to
        // decide them.
        let undecided = plan.changes.filter {
            $0.file.isWrittenOnce
                && ($0.status == .create ? $0.file.contents : $0.previous ?? "")
                    .contains("try undecided(")
        }
        // A standalone package's Package.swift that a person edited is kept (owned): after a
        // move to sqlite, it lacks the system library that the generated one declares.
        let keptManifest = plan.changes.first {
            $0.file.path == "Package.swift" && $0.status == .owned
                && DestinationResolver.namesTheSQLiteLibrary($0.file.contents)
                && !DestinationResolver.namesTheSQLiteLibrary($0.previous ?? "")
        }
        var notes = target.notes
        if keptManifest != nil {
            notes = notes.map {
                $0.nextStep(
                    after: "add \(DestinationResolver.sqliteLinesName) above to Package.swift")
            }
            notes.insert(DestinationResolver.sqliteLines(for: request.module), at: 0)
        }
        if !undecided.isEmpty {
            notes = notes.map {
                $0.nextStep(
                    after: "replace each `try undecided(…)` in "
                        + undecided.map(\.displayPath).joined(separator: ", ")
                        + " with the value you decide")
            }
        }
        // Other models of the module whose files, as generated, no longer fit the target's own
        // code (it declares its own Task now, or imports with another access level): the module
        // does not build until regen.
        let stale = staleModels(
            besides: request, manifest: manifest, root: target.root, host: plan.host)
        let migrations = HostFiles.migrationAdvice(
            plan.host.migrationsWithOtherImports(
                of: manifest?.models.filter { $0.module == request.module } ?? []),
            displayRoot: target.displayRoot)
        var staleWarnings = migrations.warnings
        if !stale.isEmpty {
            staleWarnings.append(
                .warning(
                    "the files generated for \(stale.joined(separator: ", ")) in \(request.module) "
                        + "do not fit the target's own code as it is now (a Task of its own, or "
                        + "the access level of its imports), so the module does not build until "
                        + "they are generated again: 'scaffold-repo regen' does it"))
            let regen =
                "scaffold-repo regen"
                + (target.displayRoot.isEmpty ? "" : " \(DiskPaths.forShell(target.displayRoot))")
            notes = notes.map { $0.nextStep(after: regen) }
        }
        if let step = migrations.step {
            notes = notes.map { $0.nextStep(after: step) }
        }
        return try Outcome.of(
            plan.changes, options, keepingBlocks: true,
            diagnostics: templates.warnings() + plan.warnings
                + staleWarnings + notes,
            preface: plan.evolution)
    }

    /// The other models recorded in `request`'s module with a file still as generated that
    /// says `Task` bare where the target declares its own, or imports at another level than
    /// the target's files give, sorted. Shared and owned files, and migrations (the person's:
    /// ``HostFiles/migrationsWithOtherImports(of:)``), are left out.
    private static func staleModels(
        besides request: GenerateRequest, manifest: Manifest?, root: URL, host: HostFiles
    ) -> [String] {
        guard case .into = request.destination, let manifest else { return [] }
        let declaresTask = host.declaresTask(module: request.module)
        var models: [String] = []
        for model in manifest.models.sorted(by: { $0.name < $1.name })
        where model.destroyed != true && model.module == request.module
            && model.name != request.spec.typeName
        {
            let migrations = model.migrationFileNames
            let isStale = model.files.sorted(by: { $0.key < $1.key }).contains { path, hash in
                guard path.hasSuffix(".swift"), !Names.isShared(path),
                    model.owned?.contains(path) != true,
                    !migrations.contains(URL(fileURLWithPath: path).lastPathComponent),
                    let folder = ClashCheck.moduleFolder(path),
                    let text = try? String(
                        contentsOf: root.appendingPathComponent(path), encoding: .utf8),
                    ContentHash.of(text) == hash
                else { return false }
                return ImportStyle.fitted(text, to: host.importLevels(in: folder)) != text
                    || (declaresTask && ClashCheck.bareCapitalizedNames(in: text).contains("Task"))
            }
            if isStale { models.append(model.name) }
        }
        return models
    }

    /// Without `--output` or `--into`, a run makes a new package in the current folder. When
    /// that folder is a package scaffold-repo wrote into already, the person most likely meant
    /// that package: the run is refused, saying how to reach it, or how to make the new
    /// package there all the same (`--output`).
    private static func refuseANestedPackage(
        _ request: GenerateRequest, currentDirectory: URL
    ) throws {
        guard case .standalone(outputDirectory: nil) = request.destination,
            let manifest = try? Manifest.load(root: currentDirectory)
        else { return }
        let name = request.spec.typeName
        let record = manifest.model(named: name)
        let fix =
            if let target = record?.target {
                "--into . --target \(target)"
            } else if record != nil {
                "--output ."
            } else {
                // A package generated for another model builds no second package's files: the
                // new model goes into one of its targets.
                "--into . --target "
                    + (manifest.models.compactMap(\.target).first
                        ?? DestinationResolver.swiftTargets(in: currentDirectory).first ?? "NAME")
            }
        // regen generates the models a package records again; it adds none.
        let (recorded, regen) =
            record == nil
            ? ("", "") : (" (it records \(name) already)", " (or run 'scaffold-repo regen')")
        let package = Names(request.spec).storePackage
        throw PlanError(
            "the current folder is a package that scaffold-repo wrote into\(recorded): this run "
                + "would make a new package inside it, \(package); to generate into the current "
                + "package, give \(fix)\(regen); to make the new package there all the same, give "
                + "--output \(package)")
    }
}

extension Diagnostic {
    /// A `Next:` step that starts with `step` first; any other diagnostic as it is.
    fileprivate func nextStep(after step: String) -> Diagnostic {
        severity == .next ? Diagnostic(.next, "\(step), then " + message) : self
    }
}
