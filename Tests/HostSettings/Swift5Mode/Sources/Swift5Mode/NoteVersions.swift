public import Foundation

/// ``Note`` as earlier schema versions stored it, so that stores they wrote still open.
///
/// scaffold-repo writes this file from `.scaffold/manifest.json`, which records every version
/// (`--migrate` adds one); do not edit it. A store written by an earlier version decodes into
/// that version's frozen type, then each migration (`NoteMigration<N>.swift`, yours)
/// takes it one version on, up to the current ``Note``.
nonisolated extension Note {
    /// Schema version 2, the current one.
    public typealias V2 = Note

    /// Note as schema version 1 stored it. Frozen: stores that version wrote
    /// decode into it; `migrated()`, in NoteMigration1.swift, takes it to version 2.
    public struct V1: Codable, Sendable, Hashable, FrozenVersion {
        /// The values of ``status``, stored as their names.
        public enum Status: String, Codable, Sendable, Hashable, CaseIterable {
            case draft
            case done
        }

        public var id: UUID
        public var title: String
        public var body: String?
        public var status: Status
        public var tags: [String]
        public var createdAt: Date

        public init(
            id: UUID,
            title: String = "Untitled",
            body: String? = nil,
            status: Status = .draft,
            tags: [String] = [],
            createdAt: Date
        ) {
            self.id = id
            self.title = title
            self.body = body
            self.status = status
            self.tags = tags
            self.createdAt = createdAt
        }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.id = try container.decode(UUID.self, forKey: .id)
            self.title =
                try container.contains(.title)
                ? container.decode(String.self, forKey: .title)
                : "Untitled"
            self.body = try container.decodeIfPresent(String.self, forKey: .body)
            self.status =
                try container.contains(.status)
                ? container.decode(Status.self, forKey: .status)
                : .draft
            self.tags =
                try container.contains(.tags)
                ? container.decode([String].self, forKey: .tags)
                : []
            self.createdAt = try container.decode(Date.self, forKey: .createdAt)
        }
    }

    /// Decodes the values that schema version `version` stored, and migrates them to the
    /// current one (``StoredValue/decodeStored(_:from:)`` calls it). A migration that throws (a
    /// value not decided yet) stops the store from opening, and leaves its files as they are.
    static func decodeVersion(_ version: Int, from decoder: any Decoder) throws -> [Note] {
        switch version {
        case 1:
            try [V1](from: decoder).migrated()
        default: try [Note](from: decoder)
        }
    }
}
