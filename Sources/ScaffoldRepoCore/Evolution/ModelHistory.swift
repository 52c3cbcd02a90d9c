/// A model's schema versions: the current one, and each earlier one that stored data may still
/// be in. The generator manages it (a migration adds a version), records it in the manifest,
/// and renders from it a frozen type per earlier version, the migration chain, and tests that
/// open stores written by each earlier version.
public struct ModelHistory: Equatable, Sendable {
    /// One earlier version: its number and its fields as they were.
    public struct Version: Equatable, Sendable {
        public var number: Int
        public var spec: ModelSpec
    }

    /// The current schema version: 1, plus one per migration.
    public var current = 1
    /// The earlier versions, oldest first.
    public var previous: [Version] = []

    public init() {}

    /// Adds `spec`, the current model's fields until now, as a frozen version, and moves the
    /// current version on by one.
    mutating func freeze(_ spec: ModelSpec) {
        previous.append(Version(number: current, spec: spec))
        current += 1
    }
}
