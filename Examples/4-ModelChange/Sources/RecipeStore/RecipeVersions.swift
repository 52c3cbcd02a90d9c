public import Foundation

// Workshop: a file written by version 1 is read as `Recipe` of version 1, not guessed at
// by today's type: each old version stays here as a frozen type, and migrations take a value
// one version at a time, so every old file has exactly one path to the current model.
/// ``Recipe`` as earlier schema versions stored it, so that stores they wrote still open.
///
/// scaffold-repo writes this file from `.scaffold/manifest.json`, which records every version
/// (`--migrate` adds one); do not edit it. A store written by an earlier version decodes into
/// that version's frozen type, then each migration (`RecipeMigration<N>.swift`, yours)
/// takes it one version on, up to the current ``Recipe``.
nonisolated extension Recipe {
    /// Schema version 3, the current one.
    public typealias V3 = Recipe

    /// Recipe as schema version 1 stored it. Frozen: stores that version wrote
    /// decode into it; `migrated()`, in RecipeMigration1.swift, takes it to version 2.
    public struct V1: Codable, Sendable, Hashable, FrozenVersion {
        /// The values of ``level``, stored as their names.
        public enum Level: String, Codable, Sendable, Hashable, CaseIterable {
            case easy
            case hard
        }

        public var id: UUID
        public var title: String
        public var servings: Int?
        public var level: Level

        public init(
            id: UUID,
            title: String,
            servings: Int? = nil,
            level: Level = .easy
        ) {
            self.id = id
            self.title = title
            self.servings = servings
            self.level = level
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(UUID.self, forKey: .id)
            self.title = try container.decode(String.self, forKey: .title)
            self.servings = try container.decodeIfPresent(Int.self, forKey: .servings)
            self.level =
                try container.contains(.level)
                ? container.decode(Level.self, forKey: .level)
                : .easy
        }
    }

    /// Recipe as schema version 2 stored it. Frozen: stores that version wrote
    /// decode into it; `migrated()`, in RecipeMigration2.swift, takes it to version 3.
    public struct V2: Codable, Sendable, Hashable, FrozenVersion {
        /// The values of ``level``, stored as their names.
        public enum Level: String, Codable, Sendable, Hashable, CaseIterable {
            case easy
            case hard
        }

        public var id: UUID
        public var title: String
        public var servings: Int
        public var level: Level

        public init(
            id: UUID,
            title: String,
            servings: Int,
            level: Level = .easy
        ) {
            self.id = id
            self.title = title
            self.servings = servings
            self.level = level
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(UUID.self, forKey: .id)
            self.title = try container.decode(String.self, forKey: .title)
            self.servings = try container.decode(Int.self, forKey: .servings)
            self.level =
                try container.contains(.level)
                ? container.decode(Level.self, forKey: .level)
                : .easy
        }
    }

    /// Decodes the values that schema version `version` stored, and migrates them to the
    /// current one (``StoredValue/decodeStored(_:from:)`` calls it). A migration that throws (a
    /// value not decided yet) stops the store from opening, and leaves its files as they are.
    static func decodeVersion(_ version: Int, from decoder: any Decoder) throws -> [Recipe] {
        switch version {
        case 1:
            try [V1](from: decoder).migrated().migrated()
        case 2:
            try [V2](from: decoder).migrated()
        default: try [Recipe](from: decoder)
        }
    }
}
