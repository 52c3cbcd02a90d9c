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

    public init(
        spec: ModelSpec, destination: Destination, force: Bool = false,
        templatesDirectory: String? = nil
    ) {
        self.spec = spec
        self.destination = destination
        self.force = force
        self.templatesDirectory = templatesDirectory
    }
}

/// Where the generated files go.
public enum Destination: Equatable, Sendable {
    /// A new package in this folder (nil: `./<Model>Store`).
    case standalone(outputDirectory: String?)
    /// Into an existing package's `Sources/<target>` and `Tests/<target>Tests`.
    case into(packageDirectory: String, target: String)
}
