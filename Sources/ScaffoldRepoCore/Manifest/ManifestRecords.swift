import Foundation

extension Manifest.FieldRecord {
    /// The record of `field`.
    init(_ field: Field) {
        name = field.name
        type = SpecFormatter.spelling(field)
        `default` = field.defaultValue.map { SpecFormatter.text($0, type: field.type) }
        formerName = field.formerName
        index = field.index?.rawValue
    }

    /// The field as one token of the field language, `name:Type[:modifier][=default]`.
    var token: String {
        SpecFormatter.token(name: name, type: type, modifier: index, default: `default`)
    }
}

extension Manifest.Model {
    /// The module the model is in: its target, or, in a standalone package, the one named after
    /// it (`QuestionStore`).
    var module: String { Names.module(of: name, target: target) }

    /// The file names of its migrations (`NoteMigration1.swift`, …), one per earlier schema
    /// version: written once, then the person's.
    var migrationFileNames: Set<String> {
        let names = Names(typeName: name, plural: plural)
        return Set((1..<max(1, schemaVersion ?? 1)).map(names.migrationFile))
    }

    /// The record of `request`, with the hashes of its files.
    init(_ request: GenerateRequest, files: [String: String]) {
        var target: String?
        if case .into(_, let name) = request.destination { target = name }
        let history = request.history
        self.init(
            name: request.spec.typeName, fields: request.spec.fields.map(Manifest.FieldRecord.init),
            storage: request.storage,
            formerStorages: request.formerStorages.isEmpty ? nil : request.formerStorages,
            plural: request.spec.plural,
            annotate: request.annotate ? true : nil, target: target, files: files,
            schemaVersion: history.current > 1 ? history.current : nil,
            previousVersions: history.previous.isEmpty
                ? nil
                : history.previous.map {
                    Manifest.PreviousVersion(
                        version: $0.number, fields: $0.spec.fields.map(Manifest.FieldRecord.init))
                },
            droppedFields: history.dropped.isEmpty ? nil : history.dropped,
            owned: nil, destroyed: nil,
            table: request.storage == .sqlite
                ? Manifest.TableRecord(
                    database: Names.databaseFileName(module: request.module),
                    name: Names(request.spec).pluralVariable,
                    columns: ["id", "version", "value", "checksum"])
                : nil,
            revision: history.revision > 1 ? history.revision : nil)
        checksum = computedChecksum
    }

    /// What ``checksum`` covers: what the model and its stored values are.
    private struct Checked: Encodable {
        let name: String
        let fields: [Manifest.FieldRecord]
        let storage: Storage
        let formerStorages: [Storage]?
        let plural: String?
        let target: String?
        let schemaVersion: Int?
        let previousVersions: [Manifest.PreviousVersion]?
        let droppedFields: [String]?
        let revision: Int?
    }

    /// The hash of what the record now says of the model and its stored values.
    var computedChecksum: String {
        let checked = Checked(
            name: name, fields: fields, storage: storage, formerStorages: formerStorages,
            plural: plural, target: target, schemaVersion: schemaVersion,
            previousVersions: previousVersions, droppedFields: droppedFields, revision: revision)
        return ContentHash.of((try? StableJSON.text(checked)) ?? "")
    }

    /// Refuses a record that was changed by hand since scaffold-repo wrote it: `regen` would
    /// apply a new plural, a removed field or another type without the checks the command line
    /// makes, and stored values would be left behind or stop decoding.
    func refuseEditsByHand() throws {
        guard let checksum, checksum != computedChecksum else { return }
        throw ManifestError(
            "the record of \(name) in \(Manifest.path) was changed by hand since scaffold-repo "
                + "wrote it (its checksum no longer matches): its fields, plural, storage or "
                + "versions would change without the checks that keep stored values readable. "
                + "Restore it (for example git checkout \(Manifest.path)) and make the change "
                + "with the command line, which checks it; or, if no stored value has to survive "
                + "it, delete the record's \"checksum\" line to keep the edit")
    }

    /// The request that renders this model again, as `regen` runs it (into the standalone
    /// package; the caller sets the destination). Throws a `ManifestError` naming the model.
    func request() throws -> GenerateRequest {
        do {
            let spec = try Self.spec(name, fields, plural: plural)
            var request = GenerateRequest(
                spec: spec, destination: .standalone(outputDirectory: nil), storage: storage,
                annotate: annotate ?? false)
            let former = formerStorages ?? []
            // A model never leaves sqlite, and lists each storage once.
            guard !former.contains(.sqlite), Set(former).count == former.count else {
                throw SpecError(
                    "formerStorages \(former.map(\.rawValue)) may hold journal and snapshot, each "
                        + "once")
            }
            request.formerStorages = former
            request.history.current = schemaVersion ?? 1
            request.history.previous = try (previousVersions ?? []).map { version in
                ModelHistory.Version(
                    number: version.version, spec: try Self.spec(name, version.fields))
            }
            request.history.dropped = droppedFields ?? []
            request.history.revision = revision ?? 1
            return request
        } catch let error as any BadInput {
            throw ManifestError(
                "the record of \(name) in \(Manifest.path) cannot be used (\(error.message)); "
                    + "restore the file from version control")
        }
    }

    /// The model `name` with `fields`, checked as the command line's would be.
    private static func spec(
        _ name: String, _ fields: [Manifest.FieldRecord], plural: String? = nil
    ) throws -> ModelSpec {
        var spec = try SpecParser.parse(
            modelName: name, fieldTokens: fields.map(\.token), plural: plural)
        try SpecParser.applyRenames(
            fields.compactMap { field in field.formerName.map { (old: $0, new: field.name) } },
            to: &spec)
        return spec
    }
}

/// The manifest as version 1 wrote it: each model's normalized command line, and each earlier
/// version's field tokens. Read once and upgraded to records; never written.
struct ManifestV1: Decodable {
    struct Model: Decodable {
        var name: String
        var arguments: [String]
        var target: String?
        var files: [String: String]
        var schemaVersion: Int?
        var previousVersions: [PreviousVersion]?
        var owned: [String]?
    }

    struct PreviousVersion: Decodable {
        var version: Int
        var fields: [String]
        var renames: String?
    }

    var models: [Model]

    /// The same models as records, in today's format.
    func upgraded() throws -> Manifest {
        var manifest = Manifest()
        for old in models {
            let invocation: Invocation
            do {
                invocation = try InvocationParser.parse(old.arguments, recorded: true)
            } catch let error as any BadInput {
                throw ManifestError(
                    "the command line that \(Manifest.path) records for \(old.name) does not parse "
                        + "(\(error.message)): \(old.arguments.joined(separator: " ")); restore "
                        + "the file from version control")
            }
            guard case .generate(var request, _) = invocation else {
                throw ManifestError(
                    "the command line that \(Manifest.path) records for \(old.name) is not a "
                        + "model: \(old.arguments.joined(separator: " "))")
            }
            request.destination =
                old.target.map { .into(packageDirectory: ".", target: $0) }
                ?? .standalone(outputDirectory: nil)
            request.history.current = old.schemaVersion ?? 1
            do {
                request.history.previous = try (old.previousVersions ?? []).map { version in
                    var spec = try SpecParser.parse(
                        modelName: request.spec.typeName, fieldTokens: version.fields)
                    if let renames = version.renames {
                        try SpecParser.applyRenames(renames, to: &spec)
                    }
                    return ModelHistory.Version(number: version.version, spec: spec)
                }
            } catch let error as any BadInput {
                throw ManifestError(
                    "an earlier version of \(old.name) that \(Manifest.path) records does not "
                        + "parse (\(error.message)); restore the file from version control")
            }
            var model = Manifest.Model(request, files: old.files)
            model.owned = old.owned
            manifest.record(model)
        }
        return manifest
    }
}
