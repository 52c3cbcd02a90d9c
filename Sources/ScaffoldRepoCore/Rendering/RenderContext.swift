/// Builds the values templates read: names, type spellings, literals and sample expressions.
/// Templates hold the text; everything computed about a model is computed here, into the typed
/// contexts below, whose stored properties are the names a template can use (each documented
/// where it is declared; Documentation/templates.md lists them, and a test keeps the two lists
/// equal).
public enum RenderContext {
    /// The oldest Swift toolchain that compiles the generated code: it marks types
    /// `nonisolated` (Swift 6.1) so that a target's default isolation does not change them.
    public static let minimumToolsVersion = (major: 6, minor: 1)

    /// The context for one model. `module` is the module the generated sources belong to, which
    /// the generated tests import.
    public static func make(
        for spec: ModelSpec, module: String, storage: Storage = .journal, annotate: Bool = false,
        history: ModelHistory = ModelHistory(), formerStorages: [Storage] = [],
        targetDeclaresTask: Bool = false
    ) -> [String: TemplateValue] {
        ModelContext(
            spec: spec, module: module, storage: storage, annotate: annotate, history: history,
            formerStorages: formerStorages, targetDeclaresTask: targetDeclaresTask
        )
        .templateValues
    }

    /// The context of the migration file from schema version `version` (with `old`'s fields)
    /// to the next one (`new`'s).
    static func migration(
        from version: Int, old: ModelSpec, new: ModelSpec, model: String
    ) -> [String: TemplateValue] {
        MigrationContext(from: version, old: old, new: new, model: model).templateValues
    }
}

/// What every template reads about one model.
struct ModelContext: TemplateContext {
    /// The imports of the test support file, of the XCTest suite and of the Swift Testing
    /// suite: Foundation, the framework and the generated module, sorted, each as `name`.
    let supportImports: [ImportContext]
    let xctestImports: [ImportContext]
    let swiftTestingImports: [ImportContext]
    /// The model and the models it refers to, each imported by name from the generated module
    /// (`TimerStore.Timer`), sorted: a model named like a Foundation type (`Timer`, `Locale`)
    /// is then the module's in the tests, which import both.
    let modelImports: [ImportContext]
    /// The model's type name, `Question`; `modelVariable` and `modelPlural` name one value and
    /// many (`question`, `questions`).
    let model: String
    let modelVariable: String
    let modelPlural: String
    /// The generated types: `QuestionRepository`, `QuestionRepositoryError`,
    /// `QuestionListViewModel`, `QuestionTestSupport`.
    let repository: String
    let repositoryError: String
    let viewModel: String
    let testSupport: String
    /// The store's file names: the snapshot store's file, the journal store's snapshot and
    /// journal, and the lock file both hold.
    let storeFileName: String
    let snapshotFileName: String
    let journalFileName: String
    let lockFileName: String
    /// Whether the storage is the journal, or SQLite (else the snapshot file).
    let journal: Bool
    let sqlite: Bool
    /// The storages the model had before, oldest first, whose files the repository imports
    /// when it opens (a storage change).
    let formerStores: [FormerStoreContext]
    /// Whether one of them is the journal, whose damage has a byte offset to tell.
    let importsJournal: Bool
    /// Whether the model came back to a storage it had before (journal, snapshot, journal):
    /// its own files may be left as `<name>.imported` by its move away, which a store that
    /// never moved takes for a newer build's move (`StoreFiles.checkNotMovedAway`).
    let cameBackToItsStorage: Bool
    /// `try ` before a read of the repository (`find`, `count`, `loadAll`), which throws for
    /// SQLite (it reads the disk), or nothing.
    let readTry: String
    /// The module's SQLite database (`QuestionStore.sqlite`), and the model's table in it.
    let databaseFileName: String
    let tableName: String
    /// The fields a sqlite repository's queries filter and sort on (scalars, enums and their
    /// optionals, but not `Data`, arrays or dictionaries), and the enums among them.
    let queryFields: [QueryFieldContext]
    let queryEnums: [EnumContext]
    /// Whether to add the workshop's comments (`--annotate`).
    let annotate: Bool
    /// The module the sources go into, and its test module.
    let module: String
    let testModule: String
    /// The `swift-tools-version` of a generated Package.swift.
    let toolsVersion: String
    /// `Task`, or `_Concurrency.Task` when the model, or a type of the target's own, is named Task.
    let task: String
    /// The id field's type, in Swift.
    let idType: String
    /// `.uuidString` for UUID ids (UUID is Comparable only on newer Apple systems), else
    /// nothing.
    let idSortKey: String
    /// Whether ids are UUIDs, which are ordered by their bytes.
    let idIsUUID: Bool
    /// Whether the model's public API shows a Foundation type (so it imports Foundation
    /// publicly: a public import no public declaration uses is a warning).
    let modelUsesFoundation: Bool
    /// Whether a field holds a `Decimal`, whose NaN the encoder writes as bare `NaN`.
    let holdsDecimal: Bool
    /// The schema version the manifest records (1, plus one per `--migrate`), and its type's
    /// name, `V2`.
    let schemaVersion: String
    let currentVersionName: String
    /// The model's revision (1, plus one per run that changed its fields): a sqlite table keeps
    /// the references and indexes of the latest revision that opened it.
    let schemaRevision: String
    /// Whether earlier schema versions use Foundation types.
    let versionsUseFoundation: Bool
    /// Each earlier schema version, oldest first.
    let versions: [VersionContext]
    /// Each field's value in the model's `samples`, in debug builds only, and the name of the
    /// sample's number that the values are made from.
    let sampleArguments: [SampleArgumentContext]
    let sampleNumber: String
    /// The current model's fields, enums and decoding.
    let shape: ShapeContext
    /// The JSON keys the model knows, sorted: its fields', their former ones and rename marks,
    /// and those of fields dropped since the current schema version began (their values are to go). Every
    /// store keeps a stored value's other keys (a newer build's fields).
    let knownKeys: [StoredKeyContext]
    /// Whether there are several: swift-format then wants a comma after the last one too.
    let hasManyKnownKeys: Bool
    /// Its references, `:unique` and `:index` fields, and the lookups they give (sqlite).
    let relations: RelationsContext

    init(
        spec: ModelSpec, module: String, storage: Storage, annotate: Bool, history: ModelHistory,
        formerStorages: [Storage] = [], targetDeclaresTask: Bool = false
    ) {
        let names = Names(spec)
        let idType = spec.idField?.type.swiftSpelling ?? "String"
        let foundationTypes = BaseType.allCases.filter(\.row.needsFoundation).map(FieldType.base)
        let usesFoundation = { (spec: ModelSpec) in
            spec.fields.contains { field in
                field.type.allTypes.contains { foundationTypes.contains($0) }
            }
        }
        // swift-format wants imports sorted, and the module's name decides where it goes.
        let imports = { (frameworks: [String]) in
            (frameworks + ["Foundation", module]).sorted().map(ImportContext.init)
        }
        // The tests watch a view-model with `withObservationTracking`.
        supportImports = imports(["Observation"])
        xctestImports = imports(["Observation", "XCTest"])
        swiftTestingImports = imports(["Observation", "Testing"])
        modelImports = Set([names.type] + spec.fields.compactMap(\.reference?.model)).sorted().map {
            ImportContext(name: module + "." + $0)
        }
        model = names.type
        modelVariable = names.variable
        modelPlural = names.pluralVariable
        repository = names.repository
        repositoryError = names.repositoryError
        viewModel = names.listViewModel
        testSupport = names.testSupport
        storeFileName = names.storeFileName
        snapshotFileName = names.snapshotFileName
        journalFileName = names.journalFileName
        lockFileName = names.lockFileName
        journal = storage == .journal
        sqlite = storage == .sqlite
        formerStores = formerStorages.map {
            FormerStoreContext($0, current: storage, names: names)
        }
        importsJournal = formerStorages.contains(.journal) && storage != .journal
        cameBackToItsStorage = formerStorages.contains(storage)
        readTry = sqlite ? "try " : ""
        databaseFileName = Names.databaseFileName(module: module)
        tableName = names.pluralVariable
        let queryable = spec.fields.filter {
            $0.name != "id" && QueryFieldContext.isQueryable($0.type)
        }
        queryFields = queryable.map { QueryFieldContext($0, model: names.type) }
        self.annotate = annotate
        self.module = module
        testModule = module + "Tests"
        toolsVersion =
            "\(RenderContext.minimumToolsVersion.major).\(RenderContext.minimumToolsVersion.minor)"
        task =
            names.type == "Task" || targetDeclaresTask ? "_Concurrency.Task" : "Task"
        self.idType = idType
        idSortKey = idType == "UUID" ? ".uuidString" : ""
        idIsUUID = idType == "UUID"
        modelUsesFoundation = usesFoundation(spec)
        holdsDecimal = spec.fields.contains { $0.type.allTypes.contains(.base(.decimal)) }
        schemaVersion = String(history.current)
        currentVersionName = "V\(history.current)"
        schemaRevision = String(history.revision)
        versionsUseFoundation = history.previous.contains { usesFoundation($0.spec) }
        versions = history.previous.map { version in
            VersionContext(version, history: history, current: spec, names: names)
        }
        shape = ShapeContext(spec, model: names.type)
        knownKeys = Set(
            spec.fields.map(\.name) + spec.fields.compactMap(\.formerName)
                + spec.fields.compactMap(\.renameMark) + history.dropped
        )
        .sorted().map(StoredKeyContext.init)
        hasManyKnownKeys = knownKeys.count > 1
        relations = RelationsContext(spec, model: names.type)
        let queryableNames = Set(queryable.map(\.name))
        queryEnums = shape.enums.filter { queryableNames.contains($0.fieldName) }
        let firstText = spec.fields.first { $0.name != "id" && $0.type == .base(.string) }?.name
        let number = PreviewSamples.numberName(for: spec)
        sampleNumber = number
        sampleArguments = spec.fields.map { field in
            SampleArgumentContext(
                label: Identifier.label(field.name), identifier: Identifier.escaped(field.name),
                type: field.swiftType,
                value: PreviewSamples.expression(
                    for: field, model: names.type, variable: names.variable,
                    isFirstText: field.name == firstText, number: number))
        }
    }
}

/// One import line's module, as `name`.
struct ImportContext: TemplateContext {
    let name: String
}

/// What a model's type is made of, for the current model or a frozen earlier version; its
/// names are read as the enclosing context's own.
struct ShapeContext: InlineTemplateContext {
    /// Every field, and the fields with a default.
    let fields: [FieldContext]
    let defaultedFields: [FieldContext]
    let hasDefaults: Bool
    /// Fields renamed with `--rename`: their former JSON keys are still read.
    let formerKeys: [IdentifierContext]
    let hasFormerNames: Bool
    /// The renamed fields written under both keys, with a mark (``Field/renameMark``).
    let renameMarks: [RenameMarkContext]
    let hasRenameMarks: Bool
    /// Whether decoding needs code of its own (defaults or former keys).
    let hasCustomDecoding: Bool
    /// Whether an optional field has a default other than `nil`: the model then encodes itself,
    /// writing null for such a field's `nil`, since a missing key reads as the default.
    let writesNils: Bool
    /// Whether encoding needs code of its own (`writesNils`, or `renameMarks`).
    let hasCustomEncoding: Bool
    /// The optional fields but the id, whose `nil` the generated tests save and read back.
    let optionalFields: [FieldContext]
    let hasOptionalFields: Bool
    /// The nested `String` enums the fields declare.
    let enums: [EnumContext]

    /// The shape of `spec`, whose type is `model` (`Question`, or `Question.V1`).
    init(_ spec: ModelSpec, model: String) {
        let fields = spec.fields.map { FieldContext($0, model: model) }
        self.fields = fields
        defaultedFields = fields.filter(\.hasDefault)
        hasDefaults = !defaultedFields.isEmpty
        formerKeys = spec.fields.compactMap(\.formerName).map(IdentifierContext.init)
        hasFormerNames = !formerKeys.isEmpty
        renameMarks = spec.fields.compactMap { field in
            guard let former = field.formerName, let mark = field.renameMark else { return nil }
            return RenameMarkContext(identifier: Identifier.escaped(former), mark: mark)
        }
        hasRenameMarks = !renameMarks.isEmpty
        hasCustomDecoding = hasDefaults || hasFormerNames
        writesNils = fields.contains(where: \.writesNil)
        hasCustomEncoding = writesNils || hasRenameMarks
        optionalFields = fields.filter { $0.isOptional && !$0.isID }
        hasOptionalFields = !optionalFields.isEmpty
        enums = spec.fields.flatMap { field in
            field.type.allTypes.compactMap { type in
                guard case .enumeration(let name, let cases) = type else { return nil }
                return EnumContext(
                    name: name, qualifiedName: "\(model).\(name)", fieldName: field.name,
                    cases: cases.map(IdentifierContext.init))
            }
        }
    }
}

/// A name as Swift code writes it, escaped when it is a keyword, as `identifier`.
struct IdentifierContext: TemplateContext {
    let identifier: String

    init(_ name: String) {
        identifier = Identifier.escaped(name)
    }
}

/// A renamed field's former JSON key, as `identifier` in code, and the `mark` a value's JSON
/// holds beside it (``Field/renameMark``) when the model wrote the field under both keys: a
/// build from before the rename (an app extension not updated yet) keeps that member as it
/// found it and changes only the former key, so where the two keys differ beside the mark,
/// the former one holds the latest value.
struct RenameMarkContext: TemplateContext {
    let identifier: String
    let mark: String
}

/// A nested enum: its type `name`, the `fieldName` that declares it, and its `cases`.
struct EnumContext: TemplateContext {
    let name: String
    /// The name with the model's in front (`Question.Level`, `Question.V1.Level`).
    let qualifiedName: String
    let fieldName: String
    let cases: [IdentifierContext]
}

/// One field of a model.
struct FieldContext: TemplateContext {
    /// The JSON key and the name in strings.
    let name: String
    /// The name in code, escaped when it is a keyword.
    let identifier: String
    /// The name as an argument label where the model is built.
    let label: String
    /// The type, in Swift.
    let type: String
    /// What `decode`/`decodeIfPresent` read: the type without its outer `?`.
    let decodeMethod: String
    /// Whether the type is optional.
    let isOptional: Bool
    /// Whether it is optional with a default other than `nil`: its `nil` is written as null
    /// (`encodeMethod` is then `encode`, else `encodeIfPresent` for an optional, as the
    /// compiler's encoding writes it).
    let writesNil: Bool
    let encodeMethod: String
    let decodeType: String
    /// ` = <default>` for the memberwise init (`nil` for an optional), or nothing.
    let defaultArgument: String
    /// The default as a Swift literal, or nothing; `hasDefault` says which.
    let defaultLiteral: String
    let hasDefault: Bool
    /// After `--rename`: whether there is a former name, it as a JSON key and in code; whether
    /// the field is written under both keys, with a mark (``Field/renameMark``).
    let hasFormerName: Bool
    let hasRenameMark: Bool
    let formerName: String
    let formerIdentifier: String
    /// How the former key is read: required only when the field has neither a default nor `?`.
    let formerDecodeMethod: String
    /// ` ?? <default>` after reading the former key, or nothing.
    let formerFallback: String
    /// Whether it is the id, whose sample value stays the same in every revision.
    let isID: Bool

    init(_ field: Field, model: String) {
        let literal = field.defaultValue.map { Literals.swift($0, type: field.type) }
        let defaultArgument = literal ?? (field.type.isOptional ? "nil" : nil)
        var unwrapped = field.type
        if case .optional(let wrapped) = field.type { unwrapped = wrapped }
        name = field.name
        identifier = Identifier.escaped(field.name)
        label = Identifier.label(field.name)
        type = field.swiftType
        decodeMethod = field.type.isOptional ? "decodeIfPresent" : "decode"
        isOptional = field.type.isOptional
        writesNil = field.type.isOptional && literal != nil && literal != "nil"
        encodeMethod = field.type.isOptional && !writesNil ? "encodeIfPresent" : "encode"
        decodeType = field.reference == nil ? unwrapped.swiftSpelling : field.unwrappedSwiftType
        self.defaultArgument = defaultArgument.map { " = \($0)" } ?? ""
        defaultLiteral = literal ?? ""
        hasDefault = literal != nil
        hasFormerName = field.formerName != nil
        hasRenameMark = field.renameMark != nil
        formerName = field.formerName ?? ""
        formerIdentifier = field.formerName.map(Identifier.escaped) ?? ""
        formerDecodeMethod = literal == nil && !field.type.isOptional ? "decode" : "decodeIfPresent"
        formerFallback = literal.flatMap { $0 == "nil" ? nil : " ?? \($0)" } ?? ""
        isID = field.name == "id"
        isReference = field.reference != nil
        referenceSupport = field.reference.map { Names(typeName: $0.model).testSupport } ?? ""
    }

    /// Whether it holds the id of another model's value; its sample is then the id of that
    /// model's sample 0 or 1, from `referenceSupport`, which its tests store first.
    let isReference: Bool
    let referenceSupport: String
}

/// A field that a sqlite repository's `Fields` lists for queries: its JSON key `name`, its
/// `identifier` in code, its `type` with nested enums qualified (`Question.Status?`), and
/// whether its declaration is longer than a line.
struct QueryFieldContext: TemplateContext {
    let name: String
    let identifier: String
    let type: String
    let breaksLine: Bool

    init(_ field: Field, model: String) {
        name = field.name
        identifier = Identifier.escaped(field.name)
        type =
            field.reference == nil ? field.type.spelling(enumPrefix: model + ".") : field.swiftType
        // `public static let x = QueryField<M, T>("x") { $0.x }`, indented by 8.
        let line =
            "public static let \(identifier) = QueryField<\(model), \(type)>(\"\(name)\") "
            + "{ $0.\(identifier) }"
        breaksLine = 8 + line.count > 100
    }

    /// Whether queries can compare a field of `type` in SQL: a scalar other than `Data`, an enum,
    /// or an optional of one.
    static func isQueryable(_ type: FieldType) -> Bool {
        switch type {
        case .base(let base): base.isQueryable
        case .enumeration: true
        case .optional(let wrapped): isQueryable(wrapped)
        case .array, .dictionary: false
        }
    }
}

/// One field of a sample value: its argument `label`, the local it is built in (`identifier`,
/// of `type`), and the `value` expression, made from the sample's number.
struct SampleArgumentContext: TemplateContext {
    let label: String
    let identifier: String
    let type: String
    let value: String
    /// Whether `let identifier: type = value` is longer than a line (100 columns, indented by
    /// 12), so that the value goes on the next line, as swift-format puts it.
    let breaksLine: Bool

    init(label: String, identifier: String, type: String, value: String) {
        self.label = label
        self.identifier = identifier
        self.type = type
        self.value = value
        breaksLine = 12 + "let \(identifier): \(type) = \(value)".count > 100
    }
}

/// One earlier schema version, with its own shape.
struct VersionContext: TemplateContext {
    /// Its number and type name (`1`, `V1`), and the next version's number.
    let number: String
    let name: String
    let nextNumber: String
    /// The migration file from it to the next version.
    let migrationFile: String
    /// `.migrated()` once per step from it to the current version, after an array of its values.
    let chain: String
    /// Its fields, enums and decoding, as they were.
    let shape: ShapeContext
    /// The fields whose stored values must reach the current model: its test compares them.
    let carriedFields: [CarriedFieldContext]
    let hasCarriedFields: Bool
    /// The fields its test does not compare, because a person decides their values.
    let decidedFields: [IdentifierContext]

    init(
        _ version: ModelHistory.Version, history: ModelHistory, current: ModelSpec, names: Names
    ) {
        number = String(version.number)
        name = "V\(version.number)"
        nextNumber = String(version.number + 1)
        migrationFile = names.migrationFile(from: version.number)
        let steps = history.current - version.number
        // `try [V1](from: decoder)` after 12 spaces, then the steps: one line while it fits.
        chain =
            steps * 11 + name.count + 33 <= 100
            ? String(repeating: ".migrated()", count: steps)
            : String(repeating: "\n                .migrated()", count: steps)
        shape = ShapeContext(version.spec, model: "\(names.type).V\(version.number)")
        let later = history.previous.filter { $0.number > version.number }.map(\.spec) + [current]
        var carried: [CarriedFieldContext] = []
        var decided: [IdentifierContext] = []
        for field in version.spec.fields where field.name != "id" {
            switch CarriedFieldContext.make(field, through: later, model: names.type) {
            case .some(.some(let comparison)): carried.append(comparison)
            case .some(.none): decided.append(IdentifierContext(field.name))
            case .none: break
            }
        }
        carriedFields = carried
        hasCarriedFields = !carried.isEmpty
        decidedFields = decided
    }
}

/// A field of an earlier version that its test compares with the current model's: the new
/// value (`new.name`) and the one expected from the stored value (`old.title`, or
/// `Int64(old.count)`). When the stored value may be nil and the current field is required,
/// the comparison is made only for a stored value (`storedValue`), bound to `value`.
struct CarriedFieldContext: TemplateContext {
    let newValue: String
    let expected: String
    let whenStored: Bool
    let storedValue: String

    /// The comparison for `field`, followed through the `later` versions by name or rename: nil
    /// when the field was removed, `.some(nil)` when some step needs a person's decision. The
    /// expected value is the stored one taken through each step's conversion in turn, with
    /// enums compared by raw value (each version has its own enum type).
    static func make(
        _ field: Field, through later: [ModelSpec], model: String
    ) -> CarriedFieldContext?? {
        var types: [FieldType] = []
        var last = field
        var unwrapped = false
        for spec in later {
            guard
                let next = spec.fields.first(where: { $0.name == last.name })
                    ?? spec.fields.first(where: { $0.formerName == last.name })
            else { return nil }
            if case .optional(let wrapped) = last.type, !next.type.isOptional {
                unwrapped = true
                guard lossless(wrapped, next.type) != nil else { return .some(nil) }
            } else if lossless(last.type, next.type) == nil {
                return .some(nil)
            }
            types.append(next.type)
            last = next
        }
        // A field that was optional and is required now is compared where a value was stored.
        let whenStored = unwrapped && field.type.isOptional
        var type = raw(field.type)
        var expected = projected(field.type, "old.\(Identifier.escaped(field.name))")
        if whenStored, case .optional(let wrapped) = field.type {
            type = raw(wrapped)
            expected = projected(wrapped, "value")
        }
        for next in types.map(raw) {
            if type == next || next == .optional(type) { continue }
            guard let step = lossless(type, next) else { return .some(nil) }
            expected = step.expected(expected)
            if case .optional(let wrapped) = next, !type.isOptional {
                type = wrapped
            } else {
                type = next
            }
        }
        return CarriedFieldContext(
            newValue: projected(last.type, "new.\(Identifier.escaped(last.name))"),
            expected: expected, whenStored: whenStored,
            storedValue: whenStored ? "old.\(Identifier.escaped(field.name))" : "")
    }

    private static func lossless(_ old: FieldType, _ new: FieldType) -> StoredConversion.Lossless? {
        StoredConversion.lossless(from: old, to: new, field: "", target: "")
    }

    /// The type with each enum as the `String` of its raw values.
    private static func raw(_ type: FieldType) -> FieldType {
        switch type {
        case .base: type
        case .enumeration: .base(.string)
        case .optional(let inner): .optional(raw(inner))
        case .array(let inner): .array(raw(inner))
        case .dictionary(let inner): .dictionary(raw(inner))
        }
    }

    /// `value`, of `type`, with each enum as its raw value.
    private static func projected(_ type: FieldType, _ value: String) -> String {
        guard type.allTypes.contains(where: \.isEnumeration) else { return value }
        switch type {
        case .enumeration: return "\(value).rawValue"
        case .optional(let inner), .array(let inner):
            return "\(value).map { \(projected(inner, "$0")) }"
        case .dictionary(let inner): return "\(value).mapValues { \(projected(inner, "$0")) }"
        case .base: return value
        }
    }
}

/// The migration file from one schema version to the next: one argument per field of the new
/// version, taken or converted from the old value where that loses nothing, else a call that
/// throws until a person decides the value.
struct MigrationContext: TemplateContext {
    let fromVersion: String
    let toVersion: String
    let fromName: String
    let toName: String
    let assignments: [AssignmentContext]

    init(from version: Int, old: ModelSpec, new: ModelSpec, model: String) {
        fromVersion = String(version)
        toVersion = String(version + 1)
        fromName = "V\(version)"
        toName = "V\(version + 1)"
        assignments = MigrationValues.assignments(
            old: old, new: new, targetType: "\(model).V\(version + 1)"
        )
        .map { assignment in
            AssignmentContext(
                label: Identifier.label(assignment.field.name), value: assignment.value,
                decisionLines: assignment.decision.map { decision in
                    (AssignmentContext.wrapped("Decide: \(decision).", width: 85)
                        + (assignment.hint.map { ["For example: \($0)"] } ?? []))
                        .map(LineContext.init)
                } ?? [],
                hasDecision: assignment.decision != nil)
        }
    }
}

/// One argument of a migration: its `label`, the `value` expression, and the lines of a
/// `Decide:` comment when the value needs a person's decision.
struct AssignmentContext: TemplateContext {
    let label: String
    let value: String
    let decisionLines: [LineContext]
    let hasDecision: Bool

    /// `text` in lines of at most `width` characters, broken at spaces.
    static func wrapped(_ text: String, width: Int) -> [String] {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = ""
            }
            line += (line.isEmpty ? "" : " ") + word
        }
        return lines + (line.isEmpty ? [] : [line])
    }
}

/// One line of text, as `text`.
struct LineContext: TemplateContext {
    let text: String
}

/// What differs between the two test suites that share `RepositoryScenarios.partial.tmpl`.
struct TestSuiteContext: TemplateContext {
    /// What goes before each scenario's `func`: Swift Testing runs methods marked `@Test `;
    /// XCTest runs every `test…` method of an `XCTestCase`, so it needs nothing.
    let testAttribute: String

    /// The context of each test suite's template.
    static let byTemplate: [String: TestSuiteContext] = [
        "RepositoryTests.swift.tmpl": TestSuiteContext(testAttribute: "@Test "),
        "RepositoryXCTests.swift.tmpl": TestSuiteContext(testAttribute: ""),
    ]
}

/// A sqlite model's references, `:unique` and `:index` fields: what its table checks and
/// indexes, and the lookups its repository gets. Its names are read as the model's own.
struct RelationsContext: InlineTemplateContext {
    /// Whether the table has an index or a reference at all.
    let hasTableRules: Bool
    let hasIndexedFields: Bool
    /// The `:index` fields' JSON keys, quoted and separated by commas.
    let indexedFieldList: String
    let hasUniqueFields: Bool
    let uniqueFieldList: String
    let hasReferences: Bool
    /// Whether there are several: swift-format then wants a comma after the last one too.
    let hasManyReferences: Bool
    let references: [ReferenceContext]
    let lookups: [LookupContext]
    /// The keys of the model's JSON in field order, with `?` (`note?`) those whose absence
    /// decodes as nil (an optional field without a default), and `!` those written as null for
    /// nil (an optional field with a default): the table rewrites a row stored without one of
    /// the others, or with a renamed field's former key (`renamedKeys`).
    let storedKeys: [StoredKeyContext]
    let hasRenamedKeys: Bool
    let renamedKeys: [RenamedKeyContext]
    /// Whether there are several: swift-format then wants a comma after the last one too.
    let hasManyStoredKeys: Bool
    let hasManyRenamedKeys: Bool

    init(_ spec: ModelSpec, model: String) {
        let quoted = { (index: FieldIndex) in
            spec.fields.filter { $0.index == index }.map { "\"\($0.name)\"" }
                .joined(separator: ", ")
        }
        indexedFieldList = quoted(.index)
        uniqueFieldList = quoted(.unique)
        hasIndexedFields = !indexedFieldList.isEmpty
        hasUniqueFields = !uniqueFieldList.isEmpty
        let referring = spec.fields.filter { $0.reference != nil }
        references = referring.compactMap { field in
            field.reference.map { reference in
                ReferenceContext(
                    field, reference,
                    others: referring.filter { $0.name != field.name }.map {
                        OtherReferenceContext(
                            identifier: Identifier.escaped($0.name),
                            parentSupport: Names(typeName: $0.reference?.model ?? "").testSupport)
                    })
            }
        }
        hasReferences = !references.isEmpty
        hasManyReferences = references.count > 1
        hasTableRules = spec.fields.contains(where: \.isIndexed)
        lookups = spec.fields.filter(\.isIndexed).map { LookupContext($0, model: model) }
        storedKeys = spec.fields.map { field in
            let decodesAsNil =
                field.type.isOptional && [nil, DefaultValue.none].contains(field.defaultValue)
            let writesNil = field.type.isOptional && !decodesAsNil
            return StoredKeyContext(
                key: field.name + (decodesAsNil ? "?" : writesNil ? "!" : ""))
        }
        renamedKeys = spec.fields.compactMap { field in
            field.formerName.map { RenamedKeyContext(former: $0, key: field.name) }
        }
        hasRenamedKeys = !renamedKeys.isEmpty
        hasManyStoredKeys = storedKeys.count > 1
        hasManyRenamedKeys = renamedKeys.count > 1
    }
}

/// A key of a sqlite model's JSON, as its table's schema lists it: `title`, or `note?`.
struct StoredKeyContext: TemplateContext {
    let key: String
}

/// A renamed field's `former` JSON key and its `key` now.
struct RenamedKeyContext: TemplateContext {
    let former: String
    let key: String
}

/// A reference field: its JSON key `name`, `identifier`, the repository of the model it refers
/// to and its delete rule, as the table's schema declares them.
struct ReferenceContext: TemplateContext {
    let name: String
    let identifier: String
    let parentRepository: String
    /// The test support of the model it refers to, which stores that model's samples.
    let parentSupport: String
    let parentRepositoryError: String
    let rule: String
    let isCascade: Bool
    let isNullify: Bool
    let isRestrict: Bool
    /// The field's name with a capital, for test names: `FolderID`.
    let capitalized: String
    /// The model's other references, which a test of this one's rule points elsewhere.
    let others: [OtherReferenceContext]

    init(_ field: Field, _ reference: Reference, others: [OtherReferenceContext]) {
        self.others = others
        name = field.name
        identifier = Identifier.escaped(field.name)
        let parent = Names(typeName: reference.model)
        parentRepository = parent.repository
        parentSupport = parent.testSupport
        parentRepositoryError = parent.repositoryError
        rule = reference.rule.rawValue
        isCascade = reference.rule == .cascade
        isNullify = reference.rule == .nullify
        isRestrict = reference.rule == .restrict
        capitalized = Names.typeName(fromAnyCase: field.name)
    }
}

/// Another reference of the model: its `identifier`, and the test support of the model it
/// refers to.
struct OtherReferenceContext: TemplateContext {
    let identifier: String
    let parentSupport: String
}

/// A lookup by an indexed field: `find(byEmail:)` for a unique one, `notes(inFolder:)` for a
/// reference, `notes(withTitle:)` for an `:index` one.
struct LookupContext: TemplateContext {
    let isUnique: Bool
    let name: String
    let identifier: String
    /// The field's name capitalized, after `find(by`; the label before the argument, whose name
    /// is `identifier`.
    let capitalized: String
    let label: String
    /// The argument's type: the field's, not optional.
    let type: String
    /// How the journal and snapshot stores' index reads the field's value from `$0`, as an
    /// `AnyHashable?` (nil for an optional field without one), and the lookup's argument as a
    /// key: a URL as its absolute form, which is what a reload reads back from the JSON.
    let keyExpression: String
    let argumentKey: String

    init(_ field: Field, model: String) {
        isUnique = field.index == .unique
        name = field.name
        identifier = Identifier.escaped(field.name)
        capitalized = Names.typeName(fromAnyCase: field.name)
        // A reference's label names the model's value it holds (`inFolder`), not its id.
        let stem = field.reference != nil && field.name.hasSuffix("ID")
        label =
            (field.reference != nil ? "in" : "with")
            + (stem ? String(capitalized.dropLast(2)) : capitalized)
        var unwrapped = field.type
        if case .optional(let wrapped) = field.type { unwrapped = wrapped }
        let absolute = unwrapped == .base(.url) ? ".absoluteURL" : ""
        keyExpression =
            field.type.isOptional
            ? "$0.\(identifier).map { AnyHashable($0\(absolute)) }"
            : "AnyHashable($0.\(identifier)\(absolute))"
        argumentKey = "AnyHashable(\(identifier)\(absolute))"
        type =
            field.reference == nil
            ? unwrapped.spelling(enumPrefix: model + ".") : field.unwrappedSwiftType
    }
}

/// A storage the model had before: the repository imports the values it left in the folder.
struct FormerStoreContext: TemplateContext {
    /// Whether it was the journal store (its snapshot and journal files), else the snapshot
    /// store (its one file). A model never leaves sqlite.
    let fromJournal: Bool
    /// Whether it is the model's storage now, which it had before too: only the files an
    /// import into another storage left half moved (`<name>.importing`) are imported.
    let isCurrent: Bool
    /// `Journal` or `Snapshot`, in the names of its generated tests.
    let storeName: String
    /// The file that holds its values (the journal store's snapshot), which a test writes.
    let valuesFile: String
    /// The files that hold its values, each in quotes, separated by commas: the list a
    /// `StoreTransaction` checks before the model's table is imported.
    let fileNames: String

    init(_ storage: Storage, current: Storage, names: Names) {
        fromJournal = storage == .journal
        isCurrent = storage == current
        storeName = fromJournal ? "Journal" : "Snapshot"
        valuesFile = fromJournal ? names.snapshotFileName : names.storeFileName
        fileNames = names.valueFileNames(of: storage).map { "\"\($0)\"" }.joined(separator: ", ")
    }
}
