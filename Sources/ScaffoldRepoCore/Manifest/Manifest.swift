import Foundation

/// `.scaffold/manifest.json` in a generated package: a record of each model (its fields, in the
/// field language, and its options) and a hash of every file generated for it, so a later run
/// can tell a file that is only stale (its bytes are still what was generated) from one a person
/// edited, and `regen` can render the model again. No dates, no absolute paths; models sorted by
/// name, keys sorted.
public struct Manifest: Codable, Equatable, Sendable {
    /// Where the manifest lives, relative to the package root.
    public static let path = ".scaffold/manifest.json"

    /// One model generated into the package: what it is (its fields and options, not the
    /// command line that asked for it) and the files generated for it.
    public struct Model: Codable, Equatable, Sendable {
        /// The model's type name.
        public var name: String
        /// The model's fields, in order.
        public var fields: [FieldRecord]
        /// `journal`, `snapshot` or `sqlite`.
        public var storage: Storage
        /// The storages the model had before, oldest first, when it changed storage: its
        /// repository imports what they left in its folder. Absent when it never changed.
        public var formerStorages: [Storage]?
        /// The plural variable name given with `--plural`, or nil for the English rules.
        public var plural: String?
        /// True when generated with `--annotate`; absent otherwise.
        public var annotate: Bool?
        /// The target it was generated into with `--into`, or nil for a standalone package.
        public var target: String?
        /// Each generated file's path (relative to the package root) and content hash.
        public var files: [String: String]
        /// The model's schema version, when a migration raised it above 1.
        public var schemaVersion: Int?
        /// The fields of each earlier schema version, oldest first.
        public var previousVersions: [PreviousVersion]?
        /// The fields dropped with `--drop` since the current schema version began, whose keys
        /// stored values may still hold: absent when none.
        public var droppedFields: [String]?
        /// Generated files a person took over with `scaffold-repo own`: left as they are.
        public var owned: [String]?
        /// True once `destroy` removed the model but kept some of its files (edited ones, still
        /// recorded so that `destroy --force` can remove them): `regen` leaves it out, and
        /// generating the model again takes it back.
        public var destroyed: Bool?
        /// For `--storage sqlite`: the database file, the model's table and its columns.
        public var table: TableRecord?
        /// How many runs changed the model's fields since it was first generated, plus one,
        /// when above 1 (``ModelHistory/revision``).
        public var revision: Int?
        /// A hash of what the record says of the model and its stored values (all but its
        /// files, `annotate`, `owned`, `destroyed` and `table`), written with it: a record whose
        /// hash differs was edited by hand, and is refused (``refuseEditsByHand()``). Absent in
        /// records of earlier releases, and when a person removed it to keep their edit.
        public var checksum: String? = nil
    }

    /// Where a sqlite model's values are: a table of the module's database, a row per value
    /// with its id, schema version, JSON (`value`, which queries read with `json_extract`) and
    /// checksum.
    public struct TableRecord: Codable, Equatable, Sendable {
        public var database: String
        public var name: String
        public var columns: [String]
    }

    /// One field of a model, in the field language: `{"name": "level", "type":
    /// "enum(easy,hard)", "default": "easy"}`.
    public struct FieldRecord: Codable, Equatable, Sendable {
        public var name: String
        /// The type as the field language spells it: `String`, `[String:Int]?`, `enum(a,b)`.
        public var type: String
        /// The default as the field language writes it, if the field has one.
        public var `default`: String?
        /// The name the field had before `--rename`, whose stored values it reads.
        public var formerName: String?
        /// `unique` or `index`, when the field has that modifier.
        public var index: String?
    }

    /// An earlier schema version of a model, kept so stores written by it can still be read.
    public struct PreviousVersion: Codable, Equatable, Sendable {
        public var version: Int
        public var fields: [FieldRecord]
    }

    /// The format's version: 2 records models, 1 (read, then upgraded) command lines.
    public var manifestVersion = 2
    public var models: [Model] = []

    public init() {}

    /// The manifest under `root`, nil when there is none.
    public static func load(root: URL) throws -> Manifest? {
        let url = root.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        do {
            let version = try decoder.decode(FormatVersion.self, from: data).manifestVersion
            guard version <= Manifest().manifestVersion else {
                throw ManifestError(
                    "\(url.path) was written by a newer scaffold-repo (manifest version "
                        + "\(version)); update scaffold-repo")
            }
            let manifest =
                version == 1
                ? try decoder.decode(ManifestV1.self, from: data).upgraded()
                : try decoder.decode(Manifest.self, from: data)
            try manifest.refusePathsOutsideThePackage(manifest: url.path)
            return manifest
        } catch let error as any BadInput {
            throw error
        } catch {
            throw ManifestError(
                "\(url.path) is not a scaffold-repo manifest (\(describe(error))); correct that, "
                    + "restore the file from version control, or delete it to treat every existing "
                    + "file as unknown")
        }
    }

    /// Refuses a recorded file whose path is not a plain relative path inside the package (`..`,
    /// an absolute path, an empty or `.` part): `regen` writes and `destroy` deletes what the
    /// manifest records, so a copied or hand-made manifest could otherwise reach outside it.
    private func refusePathsOutsideThePackage(manifest: String) throws {
        for model in models {
            for path in model.files.keys.sorted() + (model.owned ?? []) {
                let parts = path.split(separator: "/", omittingEmptySubsequences: false)
                guard
                    path.hasPrefix("/") || parts.contains(where: { ["", ".", ".."].contains($0) })
                else { continue }
                throw ManifestError(
                    "\(manifest) records '\(path)' for \(model.name), which is not a path inside "
                        + "the package; scaffold-repo writes only relative paths without '.' or "
                        + "'..'. Restore the file from version control, or remove that entry")
            }
        }
    }

    /// What a decoding error says, and where (`models[0].storage`), without Swift's debug dump.
    private static func describe(_ error: any Error) -> String {
        let context: DecodingError.Context
        switch error as? DecodingError {
        case .dataCorrupted(let found)?, .keyNotFound(_, let found)?, .typeMismatch(_, let found)?,
            .valueNotFound(_, let found)?:
            context = found
        default: return "\(error)"
        }
        var place = ""
        for key in context.codingPath {
            if let index = key.intValue {
                place += "[\(index)]"
            } else {
                place += (place.isEmpty ? "" : ".") + key.stringValue
            }
        }
        if case .keyNotFound(let key, _)? = error as? DecodingError {
            place += (place.isEmpty ? "" : ".") + key.stringValue
            return "\(place) is missing"
        }
        return place.isEmpty ? context.debugDescription : "\(place): \(context.debugDescription)"
    }

    /// Only the format version of a manifest file.
    private struct FormatVersion: Decodable {
        var manifestVersion: Int
    }

    /// Whether the manifest under `root` is in an older format, which the next write upgrades.
    static func isOlderFormat(root: URL) -> Bool {
        guard
            let data = FileManager.default.contents(atPath: root.appendingPathComponent(path).path),
            let version = try? JSONDecoder().decode(FormatVersion.self, from: data)
        else { return false }
        return version.manifestVersion < Manifest().manifestVersion
    }

    /// The model called `name`, if it was generated here.
    public func model(named name: String) -> Model? {
        models.first { $0.name == name }
    }

    /// Adds `model`, replacing one of the same name.
    public mutating func record(_ model: Model) {
        models.removeAll { $0.name == model.name }
        models.append(model)
        models.sort { $0.name < $1.name }
    }

    /// Removes the model called `name`.
    public mutating func remove(named name: String) {
        models.removeAll { $0.name == name }
    }

    /// The manifest as the file the generator writes.
    public func file() throws -> GeneratedFile {
        GeneratedFile(path: Self.path, contents: try StableJSON.text(self))
    }
}

/// A 64-bit FNV-1a hash of a file's bytes, in hex: enough to notice an edit, and the same on
/// every machine.
public enum ContentHash {
    public static func of(_ text: String) -> String {
        var text = text
        return text.withUTF8 { of(UnsafeRawBufferPointer($0)) }
    }

    public static func of(_ bytes: Data) -> String {
        bytes.withUnsafeBytes { of($0) }
    }

    /// FNV-1a over the bytes, through a buffer: every generated file is hashed on every run.
    private static func of(_ bytes: UnsafeRawBufferPointer) -> String {
        var hash = UInt64(0xcbf2_9ce4_8422_2325)
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// A `.scaffold/manifest.json` that cannot be read or used.
public struct ManifestError: BadInput, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
