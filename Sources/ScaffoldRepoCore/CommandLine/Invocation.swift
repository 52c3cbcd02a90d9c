/// What one run of `scaffold-repo` was asked to do.
public enum Invocation: Equatable, Sendable {
    case help
    case version
    case generate(GenerateRequest)
}

/// A request to generate one model store.
public struct GenerateRequest: Equatable, Sendable {
    public var spec: ModelSpec
    public var destination: Destination
    /// Overwrite files whose contents differ.
    public var force: Bool
    /// A folder whose files override built-in templates of the same name.
    public var templatesDirectory: String?
    /// How the generated repository keeps its values on disk.
    public var storage: Storage

    public init(
        spec: ModelSpec, destination: Destination, force: Bool = false,
        templatesDirectory: String? = nil, storage: Storage = .journal
    ) {
        self.spec = spec
        self.destination = destination
        self.force = force
        self.templatesDirectory = templatesDirectory
        self.storage = storage
    }
}

/// The generated repository's storage design.
public enum Storage: String, CaseIterable, Equatable, Sendable {
    /// A snapshot plus an append-only journal: a save costs the same at any size.
    case journal
    /// One JSON file rewritten atomically on every save: the simple pattern, for teaching.
    case snapshot
}

/// Where the generated files go.
public enum Destination: Equatable, Sendable {
    /// A new package in this folder (nil: `./<Model>Store`).
    case standalone(outputDirectory: String?)
    /// Into an existing package's `Sources/<target>` and `Tests/<target>Tests`.
    case into(packageDirectory: String, target: String)
}
