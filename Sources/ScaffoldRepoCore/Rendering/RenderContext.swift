/// Builds the values templates read: names, type spellings, literals and sample expressions.
/// Templates hold the text; everything computed about a model is computed here.
public enum RenderContext {
    /// The oldest Swift toolchain that compiles the generated code: it marks types
    /// `nonisolated` (Swift 6.1) so that a target's default isolation does not change them.
    public static let minimumToolsVersion = (major: 6, minor: 1)

    /// The context for one model. `module` is the module the generated sources belong to, which
    /// the generated tests import.
    public static func make(
        for spec: ModelSpec, module: String, storage: Storage = .journal, annotate: Bool = false,
        history: ModelHistory = ModelHistory()
    ) -> [String: TemplateValue] {
        let names = Names(spec)
        let idType = spec.idField?.type.swiftSpelling ?? "String"
        let usesUUID = ([spec] + history.previous.map(\.spec)).contains { spec in
            spec.fields.contains { $0.type.allTypes.contains(.base(.uuid)) }
        }
        let foundationTypes: [FieldType] = [.date, .uuid, .url, .decimal, .data].map { .base($0) }
        let usesFoundation = { (spec: ModelSpec) in
            spec.fields.contains { field in
                field.type.allTypes.contains { foundationTypes.contains($0) }
            }
        }
        let idUsesFoundation = spec.idField.map { foundationTypes.contains($0.type) } ?? false
        // swift-format wants imports sorted, and the module's name decides where it goes.
        let imports = { (frameworks: [String]) -> TemplateValue in
            .list(
                (frameworks + ["Foundation", module]).sorted().map { .object(["name": .text($0)]) })
        }
        var context: [String: TemplateValue] = [
            "supportImports": imports([]),
            "xctestImports": imports(["XCTest"]),
            "swiftTestingImports": imports(["Testing"]),
            "model": .text(names.type),
            "modelVariable": .text(names.variable),
            "modelPlural": .text(names.pluralVariable),
            "repository": .text(names.repository),
            "repositoryError": .text(names.repositoryError),
            "viewModel": .text(names.listViewModel),
            "testSupport": .text(names.testSupport),
            "storeFileName": .text(names.storeFileName),
            "snapshotFileName": .text(names.snapshotFileName),
            "journalFileName": .text(names.journalFileName),
            "lockFileName": .text(names.lockFileName),
            "journal": .flag(storage == .journal),
            "annotate": .flag(annotate),
            "module": .text(module),
            "toolsVersion": .text("\(minimumToolsVersion.major).\(minimumToolsVersion.minor)"),
            "testModule": .text(module + "Tests"),
            // A model named Task hides the concurrency one, which the generated code then names
            // by its module.
            "task": .text(names.type == "Task" ? "_Concurrency.Task" : "Task"),
            "idType": .text(idType),
            // UUID is Comparable only on newer Apple systems; its string always is.
            "idSortKey": .text(idType == "UUID" ? ".uuidString" : ""),
            // UUID ids are ordered by their bytes: the same order, with no string per comparison.
            "idIsUUID": .flag(idType == "UUID"),
            "usesUUID": .flag(usesUUID),
            // The model's public API shows a Foundation type, so it imports Foundation publicly
            // (a public import that no public declaration uses is a warning).
            "modelUsesFoundation": .flag(usesFoundation(spec)),
            // The view-model's public API shows the id type, so it imports Foundation publicly
            // when the id is a Foundation type (UUID).
            "idUsesFoundation": .flag(idUsesFoundation),
            // The schema version the manifest records: 1, plus one per --migrate.
            "schemaVersion": .text(String(history.current)),
            "currentVersionName": .text("V\(history.current)"),
            "hasVersions": .flag(!history.previous.isEmpty),
            "versionsUseFoundation": .flag(history.previous.contains { usesFoundation($0.spec) }),
            "versions": .list(
                history.previous.map { version in
                    var values = shape(of: version.spec, model: "\(names.type).V\(version.number)")
                    values["number"] = .text(String(version.number))
                    values["name"] = .text("V\(version.number)")
                    values["nextNumber"] = .text(String(version.number + 1))
                    values["migrationFile"] = .text(names.migrationFile(from: version.number))
                    // From this version to the current one: one step per later version.
                    values["chain"] = .text(
                        String(repeating: ".migrated()", count: history.current - version.number))
                    return .object(values)
                }),
        ]
        context.merge(shape(of: spec, model: names.type)) { _, shape in shape }
        return context
    }

    /// What the model's type is made of, for the current model or a frozen earlier version
    /// (`model` then names it, `Question.V1`): fields, enums, and how JSON decodes into it.
    static func shape(of spec: ModelSpec, model: String) -> [String: TemplateValue] {
        let fields = spec.fields.map { fieldContext($0, model: model) }
        let defaulted = zip(spec.fields, fields).filter { $0.0.defaultValue != nil }.map(\.1)
        let enums = spec.fields.flatMap { field in
            field.type.allTypes.compactMap { type -> TemplateValue? in
                guard case .enumeration(let name, let cases) = type else { return nil }
                let caseNames = cases.map {
                    TemplateValue.object(["identifier": .text(Identifier.escaped($0))])
                }
                return .object([
                    "name": .text(name), "fieldName": .text(field.name), "cases": .list(caseNames),
                ])
            }
        }
        return [
            "fields": .list(fields),
            "defaultedFields": .list(defaulted),
            "hasDefaults": .flag(!defaulted.isEmpty),
            // Fields renamed with --rename: their former JSON keys are still read.
            "formerKeys": .list(
                spec.fields.compactMap(\.formerName).map {
                    .object(["identifier": .text(Identifier.escaped($0))])
                }),
            "hasFormerNames": .flag(spec.fields.contains { $0.formerName != nil }),
            "hasCustomDecoding": .flag(
                !defaulted.isEmpty || spec.fields.contains { $0.formerName != nil }),
            "enums": .list(enums),
        ]
    }

    /// The context of the migration file from schema version `version` (with `old`'s fields)
    /// to the next one (`new`'s): one argument per field of the new version, each taken from
    /// the old value where it still fits, else a placeholder marked for a decision.
    static func migration(
        from version: Int, old: ModelSpec, new: ModelSpec, model: String
    ) -> [String: TemplateValue] {
        let target = "\(model).V\(version + 1)"
        let assignments = new.fields.map { field -> TemplateValue in
            let source =
                old.fields.first { $0.name == field.name }
                ?? field.formerName.flatMap { former in old.fields.first { $0.name == former } }
            let (value, comment) = MigrationValues.expression(
                for: field, from: source, targetType: target)
            return .object([
                "label": .text(Identifier.label(field.name)),
                "value": .text(value),
                "comment": .text(comment ?? ""),
                "hasComment": .flag(comment != nil),
            ])
        }
        return [
            "fromVersion": .text(String(version)),
            "toVersion": .text(String(version + 1)),
            "fromName": .text("V\(version)"),
            "toName": .text("V\(version + 1)"),
            "assignments": .list(assignments),
        ]
    }

    private static func fieldContext(_ field: Field, model: String) -> TemplateValue {
        let literal = field.defaultValue.map { Literals.swift($0, type: field.type) }
        let defaultArgument = literal ?? (field.type.isOptional ? "nil" : nil)
        return .object([
            // The JSON key and the name in strings.
            "name": .text(field.name),
            // The name in code, escaped when it is a keyword.
            "identifier": .text(Identifier.escaped(field.name)),
            // The name as an argument label where the model is built.
            "label": .text(Identifier.label(field.name)),
            "type": .text(field.type.swiftSpelling),
            // What `decode`/`decodeIfPresent` read: the type without its outer `?`.
            "decodeMethod": .text(field.type.isOptional ? "decodeIfPresent" : "decode"),
            "decodeType": .text(unwrapped(field.type).swiftSpelling),
            "defaultArgument": .text(defaultArgument.map { " = \($0)" } ?? ""),
            "defaultLiteral": .text(literal ?? ""),
            "hasDefault": .flag(literal != nil),
            "hasFormerName": .flag(field.formerName != nil),
            "formerIdentifier": .text(field.formerName.map(Identifier.escaped) ?? ""),
            // The former key is required only when the field has neither a default nor `?`.
            "formerDecodeMethod": .text(
                literal == nil && !field.type.isOptional ? "decode" : "decodeIfPresent"),
            "formerFallback": .text(literal.flatMap { $0 == "nil" ? nil : " ?? \($0)" } ?? ""),
            "sample": .text(SampleValues.expression(for: field, model: model)),
        ])
    }

    private static func unwrapped(_ type: FieldType) -> FieldType {
        if case .optional(let wrapped) = type { return wrapped }
        return type
    }
}
