import Foundation

/// One file the generator produces: a path relative to the destination root, and its text.
public struct GeneratedFile: Equatable, Sendable {
    public let path: String
    public let contents: String
    /// A package-level file (`Package.swift`, `.gitignore`) that belongs to the person once
    /// they edit it: it is then reported `owned`, kept, and never blocks a run.
    public let isOwnedOnceEdited: Bool
    /// A file written once and then the person's whatever it holds, `--force` or not: a
    /// migration, whose body they complete.
    public let isWrittenOnce: Bool
    /// A file that every model in a module renders the same (``Names/sharedFiles``, such as
    /// `StoreFiles.swift`): recorded for each of them, written once, and removed with the last
    /// of them.
    public let isShared: Bool

    public init(
        path: String, contents: String, isOwnedOnceEdited: Bool = false,
        isWrittenOnce: Bool = false, isShared: Bool = false
    ) {
        self.path = path
        self.contents = contents
        self.isOwnedOnceEdited = isOwnedOnceEdited
        self.isWrittenOnce = isWrittenOnce
        self.isShared = isShared
    }
}

/// Renders the templates for one request into files; it reads templates, and writes nothing.
public enum Renderer {
    /// The files for `request`, sorted by path. Paths are relative to the package root: the new
    /// package for `.standalone`, the existing one for `.into`.
    public static func render(
        _ request: GenerateRequest, templates: TemplateSource = TemplateSource()
    ) throws -> [GeneratedFile] {
        let (spec, storage) = (request.spec, request.storage)
        let names = Names(spec)
        let module = request.module
        var outputs: [(template: String, path: String)] = []
        if case .standalone = request.destination {
            outputs += [("Package.swift.tmpl", "Package.swift"), ("gitignore.tmpl", ".gitignore")]
        }
        let sources = "Sources/\(module)/"
        let tests = "Tests/\(module)Tests/"
        outputs += [
            ("Model.swift.tmpl", sources + "\(names.type).swift"),
            (storage.repositoryTemplate, sources + "\(names.repository).swift"),
            (storage.apiTemplate, sources + names.repositoryAPIFile),
            (storage.viewModelTemplate, sources + "\(names.listViewModel).swift"),
            ("RepositoryXCTests.swift.tmpl", tests + "\(names.repository)XCTests.swift"),
            ("RepositoryTests.swift.tmpl", tests + "\(names.repository)Tests.swift"),
            ("TestSupport.swift.tmpl", tests + "\(names.testSupport).swift"),
            ("SampleData.swift.tmpl", tests + Names.sampleDataFile),
        ]
        // The snapshot storage, for teaching, is whole in its model's own files.
        if storage != .snapshot {
            outputs += [
                ("StoreFiles.swift.tmpl", sources + Names.storeFilesFile),
                ("StoredValues.swift.tmpl", sources + Names.storedValuesFile),
                ("LiveList.swift.tmpl", sources + Names.liveListFile),
            ]
        }
        switch storage {
        case .journal: outputs.append(("JournalStore.swift.tmpl", sources + Names.journalStoreFile))
        case .snapshot: break
        case .sqlite:
            // Linux links SQLite through a system-library target; Apple platforms import SQLite3.
            let library = "Sources/\(Names.sqliteLibraryTarget)/"
            outputs += [
                ("SQLiteStore.swift.tmpl", sources + Names.sqliteStoreFile),
                ("StoreQuery.swift.tmpl", sources + Names.storeQueryFile),
                ("SQLiteRelations.swift.tmpl", sources + Names.sqliteRelationsFile),
                ("StoredRows.swift.tmpl", tests + Names.sqliteTestSupportFile),
                ("module.modulemap.tmpl", library + Names.sqliteModuleMapFile),
                ("shim.h.tmpl", library + Names.sqliteHeaderFile),
            ]
        }
        // The engine of each storage the model had before reads what it left, to import it.
        for former in request.formerStorages where former != storage {
            switch former {
            case .journal:
                outputs.append(("JournalStore.swift.tmpl", sources + Names.journalStoreFile))
            case .snapshot:
                outputs.append(("SnapshotStore.swift.tmpl", sources + Names.snapshotStoreFile))
            case .sqlite: break
            }
        }
        let history = request.history
        if !history.previous.isEmpty {
            outputs.append(("ModelVersions.swift.tmpl", sources + names.versionsFile))
        }
        let context = RenderContext.make(
            for: spec, module: module, storage: storage, annotate: request.annotate,
            history: history, formerStorages: request.formerStorages,
            targetDeclaresTask: request.targetDeclaresTask)
        // A shared file is the same for every model of the module, whichever renders it.
        let shared = request.sharedFiles ?? request.ownSharedFiles
        var files = try outputs.map { output in
            let extra = TestSuiteContext.byTemplate[output.template]?.templateValues ?? [:]
            var text = try templates.render(
                output.template, context.merging(extra) { _, extra in extra })
            let isShared = Names.isShared(output.path)
            let annotate = isShared ? shared.annotate : request.annotate
            if output.template == "SampleData.swift.tmpl" {
                text = samples(of: shared.fieldTypes, in: text)
            }
            return GeneratedFile(
                path: output.path,
                contents: normalized(annotate ? text : withoutWorkshopNotes(text)),
                isOwnedOnceEdited: !output.path.hasPrefix("Sources/")
                    && !output.path.hasPrefix(tests),
                isShared: isShared)
        }
        // One migration per step between versions, written once: the person completes it.
        let specs = history.previous.map(\.spec) + [spec]
        for (index, version) in history.previous.enumerated() {
            let step = RenderContext.migration(
                from: version.number, old: version.spec, new: specs[index + 1], model: names.type)
            let text = try templates.render(
                "ModelMigration.swift.tmpl", context.merging(step) { _, step in step })
            files.append(
                GeneratedFile(
                    path: sources + names.migrationFile(from: version.number),
                    contents: normalized(request.annotate ? text : withoutWorkshopNotes(text)),
                    isWrittenOnce: true))
        }
        return files.sorted { $0.path < $1.path }
    }

    /// The sample data `text` (SampleData.swift) without the `SampleValue` conformance of each
    /// base type that is not in `types`: a conformance is a block from its
    /// `nonisolated extension Type: SampleValue {` line to the next line that starts with `}`
    /// (the one that closes it, in the first column), and the blank line after it. So a package has the samples its models' fields use, and a new field type
    /// does not change the packages that do not use it.
    static func samples(of types: Set<BaseType>, in text: String) -> String {
        var kept: [Substring] = []
        var isInUnused = false
        var dropsBlankLine = false
        for line in text.lineSlices {
            if isInUnused {
                if line.hasPrefix("}") { (isInUnused, dropsBlankLine) = (false, true) }
                continue
            }
            if dropsBlankLine {
                dropsBlankLine = false
                if line.isEmpty { continue }
            }
            let conformance =
                line.hasPrefix("nonisolated extension ")
                ? line.wholeMatch(of: /nonisolated extension (\w+): SampleValue \{/) : nil
            if let name = conformance?.output.1, let type = BaseType(rawValue: String(name)),
                !types.contains(type)
            {
                isInUnused = true
                continue
            }
            kept.append(line)
        }
        return kept.joined(separator: "\n")
    }

    /// `text` without the workshop's notes, for a package generated without `--annotate`. A
    /// note is a line comment that starts `// Workshop:`, with the plain `//` lines that follow
    /// it; the engine's sources (`Sources/StoreEngine`) carry their notes for every package. A
    /// blank line after a note goes with it when a blank line comes before it too.
    static func withoutWorkshopNotes(_ text: String) -> String {
        var kept: [Substring] = []
        var isInNote = false
        for line in text.lineSlices {
            let code = line.drop { $0 == " " || $0 == "\t" }
            if code.hasPrefix("// Workshop:")
                || (isInNote && code.hasPrefix("//") && !code.hasPrefix("///"))
            {
                isInNote = true
                continue
            }
            let endsNote = isInNote
            isInNote = false
            if endsNote, line.isEmpty, kept.last?.isEmpty ?? true { continue }
            kept.append(line)
        }
        return kept.joined(separator: "\n")
    }

    /// LF line ends, no trailing spaces, exactly one final newline: the same bytes everywhere.
    static func normalized(_ text: String) -> String {
        // Bytes, not Characters: every rendered file passes here.
        let (space, tab) = (UInt8(ascii: " "), UInt8(ascii: "\t"))
        let (newline, carriageReturn) = (UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        var text = text
        return text.withUTF8 { input in
            String(unsafeUninitializedCapacity: input.count + 1) { output in
                var count = 0
                var lineStart = 0
                func dropTrailingSpaces() {
                    while count > lineStart, output[count - 1] == space || output[count - 1] == tab
                    {
                        count -= 1
                    }
                }
                for byte in input {
                    guard byte == newline else {
                        output[count] = byte
                        count += 1
                        continue
                    }
                    if count > lineStart, output[count - 1] == carriageReturn { count -= 1 }
                    dropTrailingSpaces()
                    output[count] = newline
                    count += 1
                    lineStart = count
                }
                dropTrailingSpaces()
                while count > 0, output[count - 1] == newline { count -= 1 }
                output[count] = newline
                return count + 1
            }
        }
    }
}

extension Storage {
    /// The template of the repository's own file, which opens its storage.
    var repositoryTemplate: String {
        switch self {
        case .journal: "JournalRepository.swift.tmpl"
        case .snapshot: "SnapshotRepository.swift.tmpl"
        case .sqlite: "SQLiteRepository.swift.tmpl"
        }
    }

    /// The template of the API callers use: the snapshot storage's is its own.
    var apiTemplate: String {
        self == .snapshot ? "SnapshotRepositoryAPI.swift.tmpl" : "RepositoryAPI.swift.tmpl"
    }

    /// The template of the view-model: a live list of every value (the snapshot storage's
    /// keeps its own), or a window of pages.
    var viewModelTemplate: String {
        switch self {
        case .journal: "ListViewModel.swift.tmpl"
        case .snapshot: "SnapshotListViewModel.swift.tmpl"
        case .sqlite: "SQLiteListViewModel.swift.tmpl"
        }
    }
}
