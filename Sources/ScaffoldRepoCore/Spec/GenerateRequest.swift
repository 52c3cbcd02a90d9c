import Foundation

/// A request to generate one model store.
public struct GenerateRequest: Equatable, Sendable {
    public var spec: ModelSpec
    public var destination: Destination
    /// A folder whose files override built-in templates of the same name.
    public var templatesDirectory: String?
    /// How the generated repository keeps its values on disk.
    public var storage: Storage
    /// False when the command line gave no `--storage`: a model generated before keeps the
    /// storage its record holds (its stored values are there), a new one gets `storage`.
    public var storageIsChosen = true
    /// Add comments that explain the pattern, for workshops.
    public var annotate: Bool
    /// How the files every model of the module shares (the engine, the sample data) are
    /// rendered, the same whichever model renders them. Nil: from this model alone. Not part
    /// of the command line: the planner sets it from the manifest and the other requests.
    public var sharedFiles: SharedFileSettings?
    /// Let a change that stored data would not survive through, with a migration (`--migrate`).
    public var migrate = false
    /// Fields of the model as last generated that are left out on purpose, their stored values
    /// dropped (`--drop`); a removed field not named here refuses the run.
    public var droppedFields: [String] = []
    /// The schema versions, from the manifest: not part of the command line.
    public var history = ModelHistory()
    /// The storages the model had before, oldest first, whose files its repository imports
    /// once (a journal or snapshot store's): from the manifest and the run that changes it.
    public var formerStorages: [Storage] = []
    /// Whether the target's own code (its files that no model generated) declares a type named
    /// `Task`, which hides Swift's: the generated code then writes `_Concurrency.Task`, as for a
    /// model named `Task`. The planner sets it from the disk.
    public var targetDeclaresTask = false

    public init(
        spec: ModelSpec, destination: Destination, templatesDirectory: String? = nil,
        storage: Storage = .journal, annotate: Bool = false
    ) {
        self.annotate = annotate
        self.spec = spec
        self.destination = destination
        self.templatesDirectory = templatesDirectory
        self.storage = storage
    }

    /// The base types of the model's fields, in every version the history holds, but for
    /// references (their samples are the referred model's samples' ids, whatever the type).
    var fieldTypes: Set<BaseType> {
        let specs = history.previous.map(\.spec) + [spec]
        let fields = specs.flatMap(\.fields).filter { $0.reference == nil }
        return Set(
            fields.flatMap(\.type.allTypes).compactMap { type in
                if case .base(let base) = type { base } else { nil }
            })
    }

    /// What this model alone asks of the files its module shares.
    var ownSharedFiles: SharedFileSettings {
        SharedFileSettings(annotate: annotate, fieldTypes: fieldTypes)
    }

    /// The module the model's sources go into: `--target`'s, or the standalone package's own.
    public var module: String {
        guard case .into(_, let target) = destination else {
            return Names.module(of: spec.typeName, target: nil)
        }
        return Names.module(of: spec.typeName, target: target)
    }
}

/// The generated repository's storage design; recorded in the manifest by its raw value.
public enum Storage: String, CaseIterable, Equatable, Sendable, Codable {
    /// A snapshot plus an append-only journal: a save costs the same at any size.
    case journal
    /// One JSON file rewritten atomically on every save: the simple pattern, for teaching.
    case snapshot
    /// A table in the module's SQLite database: values stay on disk and queries run in SQL,
    /// for data that outgrows memory.
    case sqlite

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let storage = Storage(rawValue: text) else {
            throw DecodingError.dataCorruptedError(
                in: container,
                debugDescription: "storage '\(text)' is not one of "
                    + Storage.allCases.map(\.rawValue).joined(separator: ", "))
        }
        self = storage
    }
}

/// Where the generated files go.
public enum Destination: Equatable, Sendable {
    /// A new package in this folder (nil: `./<Model>Store`).
    case standalone(outputDirectory: String?)
    /// Into an existing package's `Sources/<target>` and `Tests/<target>Tests`.
    case into(packageDirectory: String, target: String)
}

/// What the files a module's models share depend on: all of the module's models together.
public struct SharedFileSettings: Equatable, Sendable {
    /// Whether they carry the workshop's notes: when any model of the module has them.
    public var annotate: Bool
    /// The field types the module's models use, in any version: the sample data builds samples
    /// of these and of no other base type.
    public var fieldTypes: Set<BaseType>
}

extension GenerateRequest {
    /// Refuses what the request's storage cannot do, for a command line and for a manifest's
    /// record that regen plans alike: a model named like the sqlite repository's own `Query` or `Fields`,
    /// references without sqlite, and a sqlite index on bytes.
    func refuseWhatItsStorageCannotDo() throws {
        // A sqlite repository declares `Query` and `Fields`, which a model of that name would
        // be hidden by.
        if storage == .sqlite, ["Query", "Fields"].contains(spec.typeName) {
            throw SpecError(
                "model name '\(spec.typeName)' clashes with the sqlite repository's own "
                    + "\(spec.typeName) type; give the model another name, such as "
                    + "\(spec.typeName)Record")
        }
        try refuseRelationsOutsideSQLite()
        try refuseSQLiteIndexesOnBytes()
        try refuseWhatTheSnapshotStorageLeavesOut()
    }

    /// The snapshot storage, for teaching, is a model's own files, small enough to read in one
    /// sitting: no index, one schema version, no import from another storage. What needs them
    /// is refused, naming `--storage journal`, which has them all and imports the snapshot's
    /// file the first time it opens. (The history and the former storages are known once a
    /// run planned the request; a command line is checked for its modifiers alone.)
    func refuseWhatTheSnapshotStorageLeavesOut() throws {
        guard storage == .snapshot else { return }
        let journal =
            "add --storage journal (it imports the snapshot's file the first time it opens)"
        if let field = spec.fields.first(where: { $0.index != nil }) {
            throw SpecError(
                "'\(SpecFormatter.token(field))': the snapshot storage, for teaching, keeps no "
                    + "index; drop :\(field.index?.rawValue ?? "index"), or \(journal)")
        }
        if history.current > 1 {
            throw UsageError(
                "\(migrate ? "--migrate" : "--storage snapshot"): \(spec.typeName) has "
                    + "\(history.current) schema versions "
                    + "(--migrate), and the snapshot storage, for teaching, keeps one; \(journal)")
        }
        if let former = formerStorages.first(where: { $0 != .snapshot }) {
            let files = Names(spec).valueFileNames(of: former).joined(separator: ", ")
            throw UsageError(
                "--storage snapshot: \(spec.typeName) keeps values in \(files), which the "
                    + "snapshot storage, for teaching, does not import, so they would be locked "
                    + "away. Keep --storage \(former.rawValue)")
        }
    }

    /// References need the sqlite storage: the journal and snapshot storages keep each model in
    /// files of its own, with no transaction across models. (`:unique` and `:index` work in
    /// every storage.)
    private func refuseRelationsOutsideSQLite() throws {
        guard storage != .sqlite else { return }
        let option = "--storage \(storage.rawValue)"
        for field in spec.fields {
            if field.reference != nil {
                throw SpecError(
                    "'\(SpecFormatter.token(field))' needs --storage sqlite: a reference's delete "
                        + "rule deletes across models in one transaction, which \(option) (a "
                        + "store per model) cannot; add --storage sqlite to this model and to "
                        + "the model it refers to")
            }
        }
    }

    /// The sqlite storage looks `:index` and `:unique` fields up in SQL, where a `Data` field's
    /// bytes are not compared (`BaseType.isQueryable`); the journal and snapshot storages index
    /// it in memory.
    private func refuseSQLiteIndexesOnBytes() throws {
        guard storage == .sqlite else { return }
        for field in spec.fields where field.index != nil {
            var type = field.type
            if case .optional(let wrapped) = type { type = wrapped }
            guard case .base(let base) = type, !base.isQueryable else { continue }
            throw SpecError(
                "'\(SpecFormatter.token(field))': with --storage sqlite a \(base.rawValue) field "
                    + "cannot be :\(field.index?.rawValue ?? "index"), because SQL does not "
                    + "compare its bytes; drop the modifier, or index a field derived from it "
                    + "(for example a String checksum)")
        }
    }
}
