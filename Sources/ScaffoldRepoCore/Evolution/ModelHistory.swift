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
    /// The fields dropped (`--drop`) since the current version began: values saved in it may
    /// still hold their keys, so a field of one of these names comes back only in a new version
    /// (`--migrate`), whose frozen type reads those values without them.
    public var dropped: [String] = []
    /// 1, plus one for each run that changed the model's fields (their names, types, defaults,
    /// references and delete rules, `:unique` and `:index`): a sqlite table that a build of a
    /// later revision recorded keeps its references and indexes when an older build of the app
    /// opens it.
    public var revision = 1

    public init() {}

    /// Adds `spec`, the current model's fields until now, as a frozen version, and moves the
    /// current version on by one. No field is dropped since: values stored before go through
    /// the frozen type, which reads no key it does not have.
    mutating func freeze(_ spec: ModelSpec) {
        previous.append(Version(number: current, spec: spec))
        current += 1
        dropped = []
    }
}
