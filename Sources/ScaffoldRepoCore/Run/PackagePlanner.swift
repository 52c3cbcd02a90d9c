import Foundation

/// What the Recall stage hands on: the package's manifest as it was loaded, and each request as
/// its record makes it (references resolved, the shared files' notes decided, the model's
/// history and renames checked against the stored data), with what recalling it found.
struct RecalledPackage {
    struct Model {
        var request: GenerateRequest
        /// The manifest's record of the model, when it was generated here before.
        let record: Manifest.Model?
        /// What the change to the model does to stored data, for the person.
        var warnings: [Diagnostic] = []
    }

    let root: URL
    let displayRoot: String
    let manifest: Manifest
    var models: [Model]
    /// The person's own code beside the generated files, which they are fitted to.
    let host: HostFiles
    /// Notes about the package itself, such as a manifest in an earlier format.
    var notes: [Diagnostic] = []
    /// The lines that say what each model's change does to stored data.
    var evolution: [String] = []
}

/// What the Render stage hands on: a recalled model and the files its templates made.
struct RenderedModel {
    let model: RecalledPackage.Model
    let files: [GeneratedFile]
}

/// What the Plan stage hands to the report: each file's change, the manifest's last; the
/// warnings and notes for stderr; the lines about stored data.
struct PackagePlan {
    let changes: [PlannedChange]
    let warnings: [Diagnostic]
    let evolution: [String]
    /// The person's files beside the generated ones, as the run read them.
    let host: HostFiles
}

/// Plans one or more models into one package root, with the manifest that records them, in
/// three stages with a value between each: recall, render, plan.
enum PackagePlanner {
    /// The changes for `requests` (all into `root`) followed by the manifest's own change; a
    /// warning for each file a model generated before but no longer does (an orphan: left on
    /// disk and still recorded, so `destroy` can remove it); and, for a model generated before,
    /// what its changes do to stored data. Throws when a change would stop stored data opening.
    static func plan(
        _ requests: [GenerateRequest], root: URL, displayRoot: String, templates: TemplateSource,
        force: Bool
    ) throws -> PackagePlan {
        let recalled = try recall(requests, root: root, displayRoot: displayRoot)
        let rendered = try render(recalled, templates: templates)
        return try plan(rendered, recalled: recalled, templates: templates, force: force)
    }

    /// Recall: reads the manifest and checks each request against its record.
    static func recall(
        _ requests: [GenerateRequest], root: URL, displayRoot: String
    ) throws -> RecalledPackage {
        let manifest = try Manifest.load(root: root) ?? Manifest()
        try refuseTaskBesideOtherModels(requests, manifest: manifest)
        var package = RecalledPackage(
            root: root, displayRoot: displayRoot, manifest: manifest, models: [],
            host: HostFiles(root: root, known: Set(manifest.models.flatMap(\.files.keys))))
        if Manifest.isOlderFormat(root: root) {
            package.notes.append(
                .note(
                    "\(DiskPaths.shown(Manifest.path, under: displayRoot)) is in the format of an "
                        + "earlier scaffold-repo (version 1); this run rewrites it as version 2, and "
                        + "changes no other file for that"))
        }
        let referable = ReferenceCheck.models(manifest, requests)
        for var request in requests {
            var record = manifest.model(named: request.spec.typeName)
            // A sqlite model destroyed in one module and generated in another is a new model
            // there: its values stay in the first module's database, which the new repository
            // does not open, and the files it kept are not its. (A journal or snapshot store is
            // named in the app's folder, whatever the module: its history is kept.)
            if let destroyed = record, destroyed.destroyed == true,
                destroyed.module != request.module, destroyed.storage == .sqlite
            {
                record = nil
                let others = Set(
                    manifest.models.filter { $0.name != destroyed.name }.flatMap(\.files.keys))
                let kept = destroyed.files.keys.filter {
                    !others.contains($0)
                        && FileManager.default.fileExists(
                            atPath: root.appendingPathComponent($0).path)
                }
                .sorted().map { DiskPaths.shown($0, under: displayRoot) }
                if !kept.isEmpty {
                    package.notes.append(
                        .note(
                            "\(destroyed.name) was destroyed in \(destroyed.module); the files it "
                                + "kept there are yours now, and no longer recorded: "
                                + kept.joined(separator: ", ")))
                }
            }
            try record?.refuseEditsByHand()
            // Without --storage, a model keeps the storage that holds its values.
            if let record, !request.storageIsChosen { request.storage = record.storage }
            // A command line was checked when parsed; a manifest's record (regen) is here. The
            // record a model had before is not: generating it again is how to fix it.
            try request.refuseWhatItsStorageCannotDo()
            try ReferenceCheck.resolve(&request, among: referable)
            // `--into Pkg --target NoteStore` (the command plugin's `--target`) in the package
            // generated for Note alone is that package: it keeps its Package.swift.
            if let record, record.target == nil,
                case .into(let package, let target) = request.destination,
                target == record.module
            {
                request.destination = .standalone(outputDirectory: package)
            }
            if let record, record.module != request.module, record.destroyed != true {
                try refuseSecondModelOfAName(record, request, root: root, displayRoot: displayRoot)
            }
            var warnings: [Diagnostic] = []
            if let record {
                var previous = try record.request()
                previous.destination = request.destination
                try keepPlural(of: previous.spec, in: &request)
                // A reference recorded before to a model gone since keeps its recorded type.
                try? ReferenceCheck.resolve(&previous, among: referable)
                let report = try ModelEvolution.check(
                    &request, previous: previous.spec, history: previous.history)
                // A changed model is a later revision, whose sqlite records an older build of
                // the app leaves as they are.
                if request.spec.fields.map(Manifest.FieldRecord.init)
                    != previous.spec.fields.map(Manifest.FieldRecord.init)
                    || request.history.current != previous.history.current
                {
                    request.history.revision = previous.history.revision + 1
                }
                package.evolution += report.lines
                warnings += report.warnings
                request.formerStorages = try formerStorages(previous, request)
                if previous.storage != request.storage {
                    warnings.append(storageChangeNote(previous, request))
                }
            } else if request.migrate {
                throw UsageError(
                    "--migrate: \(request.spec.typeName) was not generated here before, so there "
                        + "is no stored version to migrate from; drop --migrate")
            } else if let dropped = request.droppedFields.first {
                throw UsageError(
                    "--drop \(dropped): \(request.spec.typeName) was not generated here before, so "
                        + "no stored value has the field '\(dropped)'; leave out --drop")
            } else if let renamed = request.spec.fields.first(where: { $0.formerName != nil }),
                let former = renamed.formerName
            {
                throw UsageError(
                    "--rename \(former)=\(renamed.name): \(request.spec.typeName) was not generated "
                        + "here before, so no stored value has the name '\(former)'; drop --rename")
            }
            try request.refuseWhatTheSnapshotStorageLeavesOut()
            warnings += capitalizedNewFields(request, record: record)
            package.models.append(.init(request: request, record: record, warnings: warnings))
        }
        try refuseSharedStoreNames(package.models, manifest: manifest)
        // The shared files follow the models as checked: a migration's frozen version adds its
        // field types to the samples.
        let checked = package.models.map(\.request)
        for index in package.models.indices {
            package.models[index].request.sharedFiles = sharedFileSettings(
                in: checked[index].module, manifest: manifest, requests: checked)
        }
        return package
    }

    /// A model recorded in one module and asked for in another is moved there, history and all,
    /// once its type's file is gone from the first; a sqlite model never is, since its values
    /// are in its module's database. While that file is there, the run is refused: the
    /// manifest keeps one model of a name, so the first's history would be taken over by the
    /// second, and the two would read and write one store.
    private static func refuseSecondModelOfAName(
        _ record: Manifest.Model, _ request: GenerateRequest, root: URL, displayRoot: String
    ) throws {
        let name = request.spec.typeName
        if record.storage == .sqlite {
            throw UsageError(
                "\(name) is a sqlite model of \(record.module), whose values are in "
                    + "\(record.module).sqlite, the database of \(record.module)'s models: a repository "
                    + "in \(request.module) opens \(request.module).sqlite and would not find them. Keep "
                    + "\(name) in \(record.module) (--target \(record.module)), or give a model of "
                    + "\(request.module) another name")
        }
        let typeFile = "Sources/\(record.module)/\(name).swift"
        guard record.files[typeFile] != nil,
            FileManager.default.fileExists(atPath: root.appendingPathComponent(typeFile).path)
        else { return }
        throw UsageError(
            "\(name) is generated in \(record.module) already "
                + "(\(DiskPaths.shown(typeFile, under: displayRoot))): a package keeps one model of a "
                + "name, and a second would take over its history and share its store. For a "
                + "second model, give it another name; to move \(name) to \(request.module), delete "
                + "its files from \(record.module) first (its stored values stay where the app "
                + "keeps them)")
    }

    /// A warning for each field new to the model whose name starts with a capital letter: a
    /// Swift property's name starts in lower case, and a stray word (`NoteStore`, meant as a
    /// folder) would otherwise become a `String` field unseen.
    private static func capitalizedNewFields(
        _ request: GenerateRequest, record: Manifest.Model?
    ) -> [Diagnostic] {
        let known = Set(record?.fields.map(\.name) ?? [])
        return request.spec.fields.filter { field in
            field.reference == nil && !known.contains(field.name)
                && field.name.first?.isUppercase == true
        }
        .map { field in
            .warning(
                "\(request.spec.typeName).\(field.name) is a field of type "
                    + "\(SpecFormatter.spelling(field.type)) whose name starts with a capital "
                    + "letter; a property's starts in lower case (\(Names.lowerCamelCase(field.name))). "
                    + "If '\(field.name)' was meant as a folder, give it with --output or --into")
        }
    }

    /// Render: each recalled model's files from the templates, refused when a path clashes with
    /// a file no model generated.
    static func render(
        _ recalled: RecalledPackage, templates: TemplateSource
    ) throws -> [RenderedModel] {
        var known = Set(recalled.manifest.models.flatMap(\.files.keys))
        return try recalled.models.map { model in
            let files = try recalled.host.render(model.request, templates: templates)
            known.formUnion(files.map(\.path))
            try ClashCheck.refuse(
                files, root: recalled.root, displayRoot: recalled.displayRoot, known: known,
                otherModels: filesOfOtherModels(
                    than: model.request.spec.typeName, in: recalled.manifest))
            return RenderedModel(model: model, files: files)
        }
    }

    /// The files that `manifest` records for models other than `name`, except the shared ones,
    /// with the model each was generated for and the hash it was written with.
    private static func filesOfOtherModels(
        than name: String, in manifest: Manifest
    ) -> [String: (model: String, hash: String)] {
        var files: [String: (model: String, hash: String)] = [:]
        for model in manifest.models where model.name != name {
            for (path, hash) in model.files where !Names.isShared(path) {
                files[path] = files[path] ?? (model.name, hash)
            }
        }
        return files
    }

    /// Plan: compares each model's files with the disk and the manifest's hashes, then plans
    /// the manifest that records them all.
    static func plan(
        _ rendered: [RenderedModel], recalled: RecalledPackage, templates: TemplateSource,
        force: Bool
    ) throws -> PackagePlan {
        let (root, displayRoot) = (recalled.root, recalled.displayRoot)
        var manifest = recalled.manifest
        var changes: [PlannedChange] = []
        var warnings = recalled.notes
        // Shared files already planned in this run, and the hash each was given then: a shared
        // file is planned once, for the first model that renders it, and recorded for all.
        var sharedPlanned: Set<String> = []
        var sharedHashes: [String: String] = [:]
        for rendered in rendered {
            let (request, record, files) =
                (rendered.model.request, rendered.model.record, rendered.files)
            warnings += rendered.model.warnings
            var recorded = record?.files ?? [:]
            var owned = Set(record?.owned ?? [])
            for file in files where file.isShared {
                // A shared file another model generated is known, not a stranger's file: what
                // is on disk counts as stale (not edited) when any model recorded its hash; and
                // it is the person's when any model records it as owned.
                let hashes = manifest.models.compactMap { $0.files[file.path] }
                let onDisk = FileManager.default.contents(
                    atPath: root.appendingPathComponent(file.path).path
                ).map(ContentHash.of)
                if let onDisk, hashes.contains(onDisk) {
                    recorded[file.path] = onDisk
                } else if recorded[file.path] == nil {
                    recorded[file.path] = hashes.first
                }
                if manifest.models.contains(where: { $0.owned?.contains(file.path) == true }) {
                    owned.insert(file.path)
                }
            }
            var modelChanges = try Planner.plan(
                files.filter { !sharedPlanned.contains($0.path) }, root: root,
                displayRoot: displayRoot, force: force, recorded: recorded, owned: owned)
            try markOwnedFilesToReview(
                &modelChanges, recorded: recorded, record: record, request: request,
                templates: templates,
                sharedFilesBefore: sharedFileSettings(
                    in: request.module, manifest: recalled.manifest, requests: []),
                host: recalled.host)
            changes += modelChanges
            warnings += placeholderWarnings(modelChanges)
            // A kept file keeps its old record: it stays `modified`, or unknown, next time too;
            // a file to review stays one until `own` is given again for it.
            var hashes: [String: String] = [:]
            for change in modelChanges {
                let isUnchanged = change.previous == change.file.contents
                hashes[change.file.path] =
                    change.status.isKept || change.status == .review
                        || (change.status == .owned && !isUnchanged)
                    ? recorded[change.file.path] : ContentHash.of(change.file.contents)
                if change.file.isShared {
                    sharedPlanned.insert(change.file.path)
                    sharedHashes[change.file.path] = hashes[change.file.path]
                }
            }
            for file in files where file.isShared && hashes[file.path] == nil {
                hashes[file.path] = sharedHashes[file.path]
            }
            for (path, hash) in recorded.sorted(by: { $0.key < $1.key })
            where hashes[path] == nil
                && FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path)
            {
                hashes[path] = hash
                let shown = DiskPaths.shown(path, under: displayRoot)
                warnings.append(
                    .warning(
                        "\(shown) was generated for \(request.spec.typeName) before but is not "
                            + "any more; delete it, or 'scaffold-repo destroy' removes it with the "
                            + "model"))
            }
            var updated = Manifest.Model(request, files: hashes)
            // A shared file another model's person owns is theirs for this model too.
            updated.owned = owned.isEmpty ? nil : owned.sorted()
            manifest.record(updated)
        }
        // Every model that records a shared file records the hash it has now.
        for index in manifest.models.indices {
            for (path, hash) in sharedHashes where manifest.models[index].files[path] != nil {
                manifest.models[index].files[path] = hash
            }
        }
        let manifestChange = try Planner.plan(manifest, root: root, displayRoot: displayRoot)
        return PackagePlan(
            changes: changes + [manifestChange], warnings: warnings,
            evolution: recalled.evolution, host: recalled.host)
    }

    /// How the files the models of `module` share are rendered: with the workshop's notes when
    /// any of its models has them, and with the samples of every field type its models use;
    /// each model as `requests` ask, or else as the manifest records it. So a shared file
    /// renders the same for every model, and `regen` gives it the same bytes whatever the order
    /// of the models.
    static func sharedFileSettings(
        in module: String, manifest: Manifest, requests: [GenerateRequest]
    ) -> SharedFileSettings {
        var models: [String: SharedFileSettings] = [:]
        for record in manifest.models where record.module == module {
            // A record that no longer reads adds no types (regen and a generate of that model
            // refuse it). A destroyed model whose edited files were kept keeps its samples for
            // them, but not its notes.
            let fieldTypes = (try? record.request())?.fieldTypes ?? []
            if record.destroyed != true {
                models[record.name] = SharedFileSettings(
                    annotate: record.annotate == true, fieldTypes: fieldTypes)
            } else if !record.files.isEmpty {
                models[record.name] = SharedFileSettings(annotate: false, fieldTypes: fieldTypes)
            }
        }
        for request in requests where request.module == module {
            models[request.spec.typeName] = request.ownSharedFiles
        }
        return SharedFileSettings(
            annotate: models.values.contains(where: \.annotate),
            fieldTypes: models.values.reduce(into: []) { $0.formUnion($1.fieldTypes) })
    }

    /// Keeps the plural `previous` was generated with, which names its store's files and table:
    /// a run that leaves out `--plural` keeps it, and one that gives a plural naming them
    /// otherwise is refused, since the values would stay under the former name, where nothing
    /// reads them.
    static func keepPlural(of previous: ModelSpec, in request: inout GenerateRequest) throws {
        guard let plural = request.spec.plural else {
            request.spec.plural = previous.plural
            return
        }
        let former = Names(previous).pluralVariable
        guard Names(request.spec).pluralVariable != former else { return }
        throw UsageError(
            "--plural \(plural): \(previous.typeName) keeps its values under the name '\(former)' "
                + "(its store's files, or its table), which a store named '\(plural)' does not "
                + "read, so they would be locked away. Leave out --plural, or give --plural "
                + former)
    }

    /// The storages `request`'s model had before, oldest first, whose files its repository
    /// imports: `previous`'s, and its storage when the run changes it. Its own storage may be
    /// one of them (journal, snapshot, journal): from its own names it imports only what an
    /// import into the other one left half moved (`.importing` files). Leaving sqlite is
    /// refused: no other storage reads the database, so its values would be locked away.
    static func formerStorages(
        _ previous: GenerateRequest, _ request: GenerateRequest
    ) throws -> [Storage] {
        guard previous.storage != request.storage else { return previous.formerStorages }
        guard previous.storage != .sqlite else {
            let names = Names(request.spec)
            throw UsageError(
                "--storage \(request.storage.rawValue): \(request.spec.typeName) keeps its values "
                    + "in the table \(names.pluralVariable) of "
                    + "\(Names.databaseFileName(module: request.module)), which a "
                    + "\(request.storage.rawValue) store does not read, so they would be locked "
                    + "away. Keep --storage sqlite")
        }
        // The storage it comes back to stays listed: a crash may have left its files half moved.
        // A move into the snapshot storage, which imports nothing, is refused once the request
        // holds them (`GenerateRequest.refuseWhatTheSnapshotStorageLeavesOut()`).
        return previous.formerStorages.filter { $0 != previous.storage } + [previous.storage]
    }

    /// What a run that changes a model's storage says: the new repository imports what the
    /// old one saved the first time it opens.
    static func storageChangeNote(
        _ previous: GenerateRequest, _ request: GenerateRequest
    ) -> Diagnostic {
        let names = Names(request.spec)
        let files = request.formerStorages.filter { $0 != request.storage }.flatMap(
            names.valueFileNames)
        // The API follows the storage: what the app's code must change, said where it reads
        // what else to do by hand, before the next step. Each public member that goes is named
        // (StorageChangeNoteTests holds the list to the generated code).
        let formerFiles: String =
            previous.storage == .journal
            ? "compact(), compactionFloor, snapshotURL, journalURL, snapshotFileName, "
                + "journalFileName"
            : "fileURL, fileName, Recovery (recover(directory:) returns a StoreRecovery)"
        let viewModel =
            "the view-model takes a query instead of an order and a filter: "
            + "init(repository:query:pageSize:), preview(_:query:pageSize:) and show(_:) replace "
            + "init(repository:order:), preview(_:order:), order, Ordering, filter and filter(by:)"
        let api: String =
            switch request.storage {
            case .sqlite:
                "Its API changes with it: reads throw, since they read the disk (try before find, "
                    + "count and loadAll); \(viewModel); \(formerFiles), lockFileName, refresh() "
                    + "and init(readingFrom:) go (the database is databaseURL in directory; "
                    + "recover(directory:) sets a damaged row aside and may run while it is open), "
                    + "so a widget opens it with init(directory:), as the app does"
            case .snapshot: ""  // Refused: the snapshot storage imports nothing.
            case .journal:
                "Its API changes with it: \(formerFiles) go; its files are in directory "
                    + "(snapshotURL, journalURL, snapshotFileName, journalFileName), and compact() "
                    + "comes, with compactionFloor"
            }
        return Diagnostic(
            .advice,
            "\(request.spec.typeName) moves from --storage \(previous.storage.rawValue) to "
                + "--storage \(request.storage.rawValue): the first time its repository opens a "
                + "folder, it imports the values that earlier storages saved "
                + "there (\(files.joined(separator: ", "))) and keeps those files as "
                + "<name>.imported. \(api)")
    }

    /// A file the person owns (`own`) whose generated version changed since it was last
    /// generated is to be reviewed: the rest of the generated code may rely on the change. So
    /// is the newest migration, which builds the current model, while it passes a field the
    /// model no longer has (renamed or dropped since it was written, without `--migrate`): that
    /// argument does not compile, on this run and every later one until it is changed. Their
    /// `previous` becomes what was generated for them before (rendered from
    /// `record`, the model as the manifest recorded it), so that the diff is the change to
    /// make; when only the templates changed, or for a new model (whose shared files another
    /// model recorded: a new field type changes the sample data), the diff is from the file on
    /// disk.
    private static func markOwnedFilesToReview(
        _ changes: inout [PlannedChange], recorded: [String: String], record: Manifest.Model?,
        request: GenerateRequest, templates: TemplateSource, sharedFilesBefore: SharedFileSettings,
        host: HostFiles
    ) throws {
        var previousRequest = try record?.request()
        previousRequest?.destination = request.destination
        previousRequest?.sharedFiles = sharedFilesBefore
        let fields = Set(request.spec.fields.map(\.name))
        let newestMigration =
            "/" + Names(request.spec).migrationFile(from: request.history.current - 1)
        var lost: [String] = []
        let stale = changes.indices.filter { index in
            let file = changes[index].file
            guard changes[index].status == .owned, !file.isOwnedOnceEdited else { return false }
            // Already what is generated now (the person applied the diff): nothing to review.
            guard changes[index].previous != file.contents else { return false }
            if file.isWrittenOnce {
                guard !request.migrate, file.path.hasSuffix(newestMigration) else { return false }
                lost = migrationArguments(changes[index].previous ?? "").filter {
                    !fields.contains($0)
                }
                return !lost.isEmpty
            }
            return recorded[file.path] != nil
                && recorded[file.path] != ContentHash.of(file.contents)
        }
        guard !stale.isEmpty else { return }
        let before =
            previousRequest.flatMap { try? host.render($0, templates: templates) } ?? []
        for index in stale {
            let file = changes[index].file
            changes[index].status = .review
            changes[index].reason =
                file.isWrittenOnce
                ? "yours; it builds the current \(request.spec.typeName), which no longer has "
                    + "\(lost.joined(separator: ", ")), so it does not compile: change its "
                    + "arguments as the diff below does"
                : "yours; what scaffold-repo generates for it changed: apply the diff below"
            // A migration's diff is from the file as it is to it with only those arguments
            // changed: every value decided in it stays.
            if file.isWrittenOnce, let disk = changes[index].previous {
                changes[index].file = GeneratedFile(
                    path: file.path,
                    contents: migrationFitting(disk, fields: request.spec.fields),
                    isWrittenOnce: true)
                continue
            }
            if let old = before.first(where: { $0.path == file.path }),
                old.contents != file.contents
            {
                changes[index].previous = old.contents
            }
        }
    }

    /// The argument labels of the call in a migration file (`text`) that builds the next
    /// version: between the line that opens the call (`Book.V2(`) and the one that closes it
    /// (`        )`), the lines at the call's indentation that start with a name and a colon, as
    /// the template writes them (`            title: self.title,`), backquotes removed.
    static func migrationArguments(_ text: String) -> [String] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return migrationCall(lines).map(\.label)
    }

    /// `text` (a migration file) with the arguments that `fields` (the model's now) no longer
    /// has changed as little as can be: an argument whose field was renamed takes the new name,
    /// and any other is removed, with the comment lines just above it and its lines up to the
    /// next argument; every other line, the person's decided values too, stays as it is.
    static func migrationFitting(_ text: String, fields: [Field]) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let call = migrationCall(lines.map { Substring($0) })
        guard !call.isEmpty, let open = lines.firstIndex(where: isCallOpening) else {
            return text
        }
        let isClosing = { (line: String) in line == String(repeating: " ", count: 8) + ")" }
        let isComment = { (line: String) in
            line.trimmingCharacters(in: .whitespaces).hasPrefix("//")
        }
        let closing = lines[open...].firstIndex(where: isClosing) ?? lines.count
        // Where each argument's lines start: the comments just above its label.
        let starts = call.map { argument in
            var start = argument.line
            while start > open + 1, isComment(lines[start - 1]) { start -= 1 }
            return start
        }
        let names = Set(fields.map(\.name))
        var kept: [Int] = []
        // From the last argument back, so that each index still points where it did.
        for (position, argument) in call.enumerated().reversed() {
            if names.contains(argument.label) {
                kept.append(position)
            } else if let renamed = fields.first(where: { $0.formerName == argument.label }) {
                let line = lines[argument.line]
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                lines[argument.line] =
                    String(repeating: " ", count: 12) + Identifier.escaped(renamed.name)
                    + line[colon...]
                kept.append(position)
            } else {
                let end = position + 1 < call.count ? starts[position + 1] : closing
                lines.removeSubrange(starts[position]..<end)
            }
        }
        // When the last arguments went, the one that ends the call now has no comma after it.
        if let last = kept.max(), last < call.count - 1,
            let end = lines[open...].firstIndex(where: isClosing),
            let line = lines[open..<end].lastIndex(where: { !isComment($0) && !$0.isEmpty }),
            lines[line].hasSuffix(",")
        {
            lines[line].removeLast()
        }
        return lines.joined(separator: "\n")
    }

    /// Whether `line` opens the call that builds the next version (`        Book.V2(`).
    private static func isCallOpening(_ line: String) -> Bool {
        line.hasSuffix("(") && line.contains(".V")
    }

    /// The arguments of the call in a migration file's `lines` that builds the next version,
    /// each as its label and the index of the line it starts on (see ``migrationArguments(_:)``).
    private static func migrationCall(_ lines: [Substring]) -> [(label: String, line: Int)] {
        guard let open = lines.firstIndex(where: { isCallOpening(String($0)) }) else { return [] }
        let close =
            lines[open...].firstIndex { $0 == String(repeating: " ", count: 8) + ")" }
            ?? lines.endIndex
        return lines[open..<close].indices.compactMap { index -> (String, Int)? in
            let line = lines[index]
            guard line.hasPrefix(String(repeating: " ", count: 12)),
                line.dropFirst(12).first?.isWhitespace == false,
                let colon = line.firstIndex(of: ":")
            else { return nil }
            let label = line[line.index(line.startIndex, offsetBy: 12)..<colon]
                .trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            return Identifier.isValid(label) ? (label, index) : nil
        }
    }

    /// A warning for each `// Decide:` line of a migration that an earlier scaffold-repo wrote:
    /// those came with a placeholder value that compiles (`0`, `""`, the first case), which
    /// every store of that version gets when it opens, unless a person replaced it.
    static func placeholderWarnings(_ changes: [PlannedChange]) -> [Diagnostic] {
        changes.filter(\.file.isWrittenOnce).flatMap { change -> [Diagnostic] in
            guard let text = change.previous,
                text.contains("It starts with every field that still fits; a `Decide:` comment")
            else { return [] }
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.indices.filter { lines[$0].contains("// Decide:") }.map { index in
                .warning(
                    "\(change.displayPath):\(index + 1): an earlier scaffold-repo wrote this "
                        + "`// Decide:` with a placeholder value that compiles; every store of that "
                        + "version gets it when it opens. Check the value under it, or replace it "
                        + "with `try undecided(\"field\")` to keep such stores closed until you decide; "
                        + "delete the comment once you have")
            }
        }
    }

    /// A model named `Task` hides Swift's `Task` in its whole module, and every other model's
    /// generated code uses that (a view-model follows its repository in a `Task`): such a model
    /// must be the only one in its module. Checks the models `requests` and the manifest hold.
    static func refuseTaskBesideOtherModels(
        _ requests: [GenerateRequest], manifest: Manifest
    ) throws {
        var models: [String: String] = [:]
        // A record names its target, or none for a standalone package (named after the model).
        for record in manifest.models where record.destroyed != true {
            models[record.name] =
                record.module
        }
        for request in requests { models[request.spec.typeName] = request.module }
        guard let taskModule = models["Task"] else { return }
        let others = models.filter { $0.key != "Task" && $0.value == taskModule }.keys.sorted()
        guard !others.isEmpty else { return }
        throw PlanError(
            "model name 'Task' hides Swift's Task in module \(taskModule), which the code of "
                + "\(others.joined(separator: ", ")) uses; name the model otherwise (for example "
                + "TaskItem), or give it a target of its own")
    }

    /// Refuses a model new to the package, or moved to another storage, whose store would have
    /// the name of another model's: journal and snapshot stores name their files after the
    /// plural, and every model of a package can share one folder (an App Group's), so their
    /// plurals must differ; sqlite tables share their module's database. Names compare
    /// ignoring case, as Apple file systems and SQLite do. A record destroyed since counts: an
    /// app that ran it may still hold its values.
    static func refuseSharedStoreNames(
        _ models: [RecalledPackage.Model], manifest: Manifest
    ) throws {
        // A sqlite model moved from a journal or snapshot store imports the files of its
        // plural at every open: those are its store too.
        func stores(_ storages: [Storage], plural: String, module: String) -> [String] {
            var names: [String] = []
            if storages.contains(.sqlite) {
                names.append("the table '\(plural)' of \(Names.databaseFileName(module: module))")
            }
            if storages.contains(where: { $0 != .sqlite }) { names.append("the files \(plural).*") }
            return names
        }
        var taken: [String: (model: String, store: String)] = [:]
        let planned = Set(models.map(\.request.spec.typeName))
        for record in manifest.models where !planned.contains(record.name) {
            let plural = Names(typeName: record.name, plural: record.plural).pluralVariable
            let storages = [record.storage] + (record.formerStorages ?? [])
            for store in stores(storages, plural: plural, module: record.module) {
                taken[store.lowercased()] = (record.name, store)
            }
        }
        for model in models {
            let request = model.request
            let plural = Names(request.spec).pluralVariable
            let storages = [request.storage] + request.formerStorages
            let mine = stores(storages, plural: plural, module: request.module)
            if model.record == nil || model.record?.storage != request.storage,
                let store = mine.first(where: { taken[$0.lowercased()] != nil }),
                let other = taken[store.lowercased()]
            {
                let token = request.spec.plural.map { "--plural \($0)" } ?? request.spec.typeName
                let spelled = other.store == store ? "" : " (\(other.store))"
                let name = request.spec.typeName
                throw UsageError(
                    "\(token): \(name) would keep its values in \(store), where \(other.model) "
                        + "keeps its own\(spelled); the two models would read and write each other's "
                        + "values. Give \(name) a plural of its own, for example --plural "
                        + "\(Names(typeName: name).variable)Items")
            }
            for store in mine {
                taken[store.lowercased()] =
                    taken[store.lowercased()] ?? (request.spec.typeName, store)
            }
        }
    }

    /// Everything a first run writes for `request`: the model's files and a new manifest,
    /// sorted by path. Goldens compare against this.
    static func freshFiles(for request: GenerateRequest) throws -> [GeneratedFile] {
        let files = try Renderer.render(request)
        var manifest = Manifest()
        var hashes: [String: String] = [:]
        for file in files { hashes[file.path] = ContentHash.of(file.contents) }
        manifest.record(Manifest.Model(request, files: hashes))
        return (files + [try manifest.file()]).sorted { $0.path < $1.path }
    }

    /// The template folders for a package: `--templates` (which must exist) first, then its
    /// `.scaffold/templates`.
    static func templates(
        _ explicitPath: String?, root: URL, currentDirectory: URL
    ) throws -> TemplateSource {
        let explicit = try explicitPath.map { path in
            try templateFolder(
                DestinationResolver.existingFolder(
                    path, option: "--templates", currentDirectory: currentDirectory),
                given: path)
        }
        return templates(explicit: explicit, root: root, currentDirectory: currentDirectory)
    }

    /// The folder of `.tmpl` files that `--templates folder` means: the folder itself, or,
    /// for a package folder that `templates eject` wrote to, its `.scaffold/templates`.
    private static func templateFolder(_ folder: URL, given path: String) throws -> URL {
        let names = { (url: URL) in
            ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [])
                .filter { !$0.hasPrefix(".") }.sorted()
        }
        if names(folder).contains(where: { $0.hasSuffix(".tmpl") }) { return folder }
        let ejected = folder.appendingPathComponent(TemplatesCommand.defaultDirectory)
        if names(ejected).contains(where: { $0.hasSuffix(".tmpl") }) { return ejected }
        // A file named like a template without the extension is the likely mistake.
        let misnamed = names(folder).compactMap { name in
            BuiltInTemplates.likelyName(for: name).map { " Rename \(name) to \($0)?" }
        }
        throw UsageError(
            "--templates '\(path)' holds no .tmpl files; give the folder that holds them "
                + "('scaffold-repo templates eject DIR' writes them to DIR/"
                + "\(TemplatesCommand.defaultDirectory)).\(misnamed.joined())")
    }

    /// The template folders for a package: `explicit` first, then its `.scaffold/templates`.
    static func templates(
        explicit: URL?, root: URL, currentDirectory: URL? = nil
    ) -> TemplateSource {
        let local = root.appendingPathComponent(TemplatesCommand.defaultDirectory)
        let hasLocal = DiskPaths.entry(at: local) == .folder
        return TemplateSource(
            overrideDirectories: [explicit, hasLocal ? local : nil].compactMap { $0 },
            currentDirectory: currentDirectory)
    }
}
