import Foundation

/// Turns the model name and the field tokens of the command line into a `ModelSpec`, or a
/// `SpecError` that names the bad token and says how to fix it.
///
/// A field token is `name[:Type][=default]`; see `FieldType` for the types and `DefaultValue`
/// for the defaults.
public enum SpecParser {
    /// Parses and checks a whole model specification.
    /// Records `--rename OLD=NEW,...` on the fields it names: each NEW must be a field of
    /// `spec` other than `id`, and no OLD may still be one.
    public static func applyRenames(_ list: String, to spec: inout ModelSpec) throws {
        try applyRenames(renames(in: list), to: &spec)
    }

    /// The pairs of `--rename OLD=NEW,...`.
    static func renames(in list: String) throws -> [(old: String, new: String)] {
        try list.split(separator: ",", omittingEmptySubsequences: false).map { pair in
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false).map(
                String.init)
            guard parts.count == 2 else { throw notARename(String(pair)) }
            return (parts[0], parts[1])
        }
    }

    private static func notARename(_ pair: String) -> SpecError {
        SpecError(
            "--rename '\(pair)' is not OLD=NEW; write the field's former and current names, for "
                + "example --rename title=headline")
    }

    /// The field names of `--drop FIELD,...`, each a field name given once, `id` never.
    static func droppedFields(in list: String) throws -> [String] {
        var names: [String] = []
        for name in list.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard Identifier.isValid(name) else {
                let token =
                    name.isEmpty ? "'\(list)' has an empty name" : "'\(name)' is not a field name"
                throw SpecError(
                    "--drop \(token); write the names of the fields left out, separated by "
                        + "commas, for example --drop rating,notes")
            }
            guard name != "id" else {
                throw SpecError("--drop id: the id field cannot be dropped; every value has one")
            }
            guard !names.contains(name) else {
                throw SpecError("--drop \(name): each field is dropped once; give it once")
            }
            names.append(name)
        }
        return names
    }

    /// Records each rename on the field it names: each `new` must be a field of `spec` other
    /// than `id`, and no `old` may still be one. A reference's names may be given as in its
    /// token (`folder=parent` for the fields `folderID` and `parentID`).
    static func applyRenames(
        _ renames: [(old: String, new: String)], to spec: inout ModelSpec
    ) throws {
        var seen: Set<String> = []
        for (given, renamed) in renames {
            let pair = "\(given)=\(renamed)"
            var (old, new) = (given, renamed)
            // A reference's field is its token's name plus ID (`folder:references(Folder)` is
            // `folderID`): a rename written with the tokens' names means the fields'.
            if !spec.fields.contains(where: { $0.name == new }),
                spec.fields.contains(where: { $0.name == new + "ID" && $0.reference != nil })
            {
                new += "ID"
                if !old.hasSuffix("ID") { old += "ID" }
            }
            // Checked here, not only on the command line: a manifest's renames come as pairs.
            guard Identifier.isValid(old), Identifier.isValid(new) else { throw notARename(pair) }
            guard old != "id" else {
                throw SpecError(
                    "--rename '\(pair)': the id field cannot be renamed; stored values and "
                        + "other models find values by it")
            }
            guard let index = spec.fields.firstIndex(where: { $0.name == new }), new != "id" else {
                throw SpecError(
                    "--rename '\(pair)': \(spec.typeName) has no field '\(new)' to rename "
                        + "(and id cannot be renamed); NEW must be one of the fields given")
            }
            guard !spec.fields.contains(where: { $0.name == old }) else {
                throw SpecError(
                    "--rename '\(pair)': '\(old)' is still a field of \(spec.typeName); drop it "
                        + "from the fields, or do not rename it")
            }
            guard seen.insert(old).inserted, spec.fields[index].formerName == nil else {
                throw SpecError("--rename '\(pair)': each name is renamed once; give it once")
            }
            spec.fields[index].formerName = old
        }
    }

    /// Refuses a default that `tokens` (the command line's fields, in the order of `spec`'s)
    /// give and that does not fit its type on every platform the package builds for, such as
    /// an `Int` default beyond 32 bits, or a text default with a backslash before a quote. A manifest's records are not held to it: they keep
    /// generating what they did.
    static func refuseDefaultsThatDoNotFitEveryPlatform(
        _ spec: ModelSpec, tokens: [String]
    ) throws {
        for (field, token) in zip(spec.fields, tokens) {
            // A default is taken as written, with no escapes: `"q\"uote"` would keep its
            // backslash, where the user meant a quote.
            if case .string(let text)? = field.defaultValue,
                text.contains("\\\"") || text.contains("\\'")
            {
                let fixed = token.replacing(/\\+(["'])/) { String($0.output.1) }
                throw SpecError(
                    "default '\(text)' in '\(token)' holds a backslash before a quote: a default "
                        + "is taken as written, with no escapes, so the backslash would stay in the "
                        + "value; write the quote alone: \(fixed)")
            }
            guard case .number(let text)? = field.defaultValue,
                case .base(let base)? = field.type.allTypes.last,
                !base.row.fitsEveryPlatform(text)
            else { continue }
            throw SpecError(
                "default '\(text)' does not fit \(field.type.swiftSpelling) on every platform in "
                    + "'\(token)'; \(base.row.platformHint)")
        }
    }

    /// Refuses a command line's field named like a type the generated code uses, the model's
    /// own types and the models it refers to included: the property hides that type in the
    /// model's own code (its samples build `URL(string:)` after `let URL = …`). A manifest's
    /// records are not held to it: some of those names compiled, and a record that no longer
    /// loaded could not be renamed away.
    static func refuseFieldsNamedLikeTypes(_ spec: ModelSpec, tokens: [String]) throws {
        // `let Question: String` in the samples hides the `Question` they build.
        let modelTypes = Set(
            [spec.typeName] + Names(typeName: spec.typeName).generatedTypes
                + spec.fields.compactMap(\.reference?.model))
        for (field, token) in zip(spec.fields, tokens) {
            let user =
                if Identifier.reservedTypeNames.contains(field.name) {
                    "the generated code uses"
                } else if modelTypes.contains(field.name) {
                    "the model's code uses (the model, its repository, view-model and tests, or a "
                        + "model it refers to)"
                } else {
                    String?.none
                }
            guard let user else { continue }
            // The name as the token gives it: a reference's field adds `ID` to it.
            let given = String(token.prefix { $0 != ":" && $0 != "=" })
            let lower = Names.lowerCamelCase(given)
            throw SpecError(
                "field name '\(field.name)' in '\(token)' is the name of a type that \(user), "
                    + "which a property of that name would hide; name it \(lower), for example "
                    + "(with --rename \(given)=\(lower) if the model had it before)")
        }
    }

    /// Refuses a command line's `--plural` that does not start with a lowercase letter: it
    /// names the view-model's property (`public var notes`), its parameters and the journal's
    /// files. A manifest's records are not held to it: they keep generating what they did.
    static func refuseAPluralThatIsNotAVariableName(_ plural: String?) throws {
        guard let plural, let first = plural.first, !first.isLowercase else { return }
        throw SpecError(
            "--plural '\(plural)' names a property (public var \(plural)) and files; start it "
                + "with a lowercase letter, for example --plural \(first.lowercased() + plural.dropFirst())"
        )
    }

    public static func parse(
        modelName: String, fieldTokens: [String], plural: String? = nil
    ) throws -> ModelSpec {
        let typeName = try parseModelName(modelName)
        var fields: [Field] = []
        for token in fieldTokens {
            let field = try parseField(token, modelName: typeName)
            if fields.contains(where: { $0.name == field.name }) {
                throw SpecError(
                    "field '\(field.name)' is given twice (in '\(token)'); give each field once")
            }
            fields.append(field)
        }
        // `title:index` and `Title:index` (or `blog_post` and `blogPost`) would both declare
        // `notes(withTitle:)`.
        let lookups = fields.filter { $0.index != nil || $0.reference != nil }
        for (offset, field) in lookups.enumerated() {
            let stem = Names.typeName(fromAnyCase: field.name)
            if let other = lookups[..<offset].first(where: {
                Names.typeName(fromAnyCase: $0.name) == stem
            }) {
                throw SpecError(
                    "fields '\(other.name)' and '\(field.name)' would both name the lookup that "
                        + "their index or reference gives (…\(stem):); rename one of them, or drop "
                        + "one's modifier")
            }
        }
        // A nested enum may not share its name with a field (`Status` beside `status:enum(…)`),
        // nor hide a model that a reference names (`User` beside `owner:references(User)`).
        let referred = Set(fields.compactMap(\.reference?.model))
        fields = fields.map { field in
            guard
                case .enumeration(let name, _)? = field.type.allTypes.first(where: \.isEnumeration),
                fields.contains(where: { $0.name == name }) || referred.contains(name)
            else { return field }
            var renamed = field
            renamed.type = field.type.renamingEnum(to: name + "Kind")
            return renamed
        }
        let enumNames = fields.flatMap(\.type.allTypes).compactMap { type -> String? in
            if case .enumeration(let name, _) = type { return name }
            return nil
        }
        let repeatedNames = enumNames.filter { name in enumNames.filter { $0 == name }.count > 1 }
        if let repeated = repeatedNames.first {
            throw SpecError(
                "two enum fields would both be named \(repeated); rename one of the fields")
        }
        guard let id = fields.first(where: { $0.name == "id" }) else {
            if let near = fields.first(where: { $0.name.lowercased() == "id" }) {
                throw SpecError(
                    "\(typeName) has no id field; '\(near.name)' is not 'id': write it in lower "
                        + "case, id:\(near.type.swiftSpelling)")
            }
            throw SpecError(
                """
                \(typeName) has no id field; add one, for example: \
                scaffold-repo \(([typeName, "id:UUID"] + fieldTokens).joined(separator: " "))
                """)
        }
        guard case .base(let idType) = id.type, BaseType.idTypes.contains(idType) else {
            let allowed = BaseType.idTypes.map { "id:\($0.rawValue)" }.joined(separator: ", ")
            throw SpecError(
                "'id:\(SpecFormatter.spelling(id.type))' cannot be an id; use one of \(allowed)")
        }
        guard id.defaultValue == nil else {
            throw SpecError("the id field cannot have a default: every value needs its own id")
        }
        if let plural {
            guard Identifier.isValid(plural), !Identifier.swiftKeywords.contains(plural),
                !Identifier.reservedVariableNames.contains(plural),
                plural != Names(typeName: typeName).variable
            else {
                throw SpecError(
                    "--plural '\(plural)' must be ASCII letters, digits and '_', not starting with "
                        + "a digit, and not a Swift keyword, a name the generated code uses or the "
                        + "singular; for example --plural people"
                )
            }
            // The sqlite storage names a model's table by its plural, beside its own tables.
            guard !plural.lowercased().hasPrefix("store_"),
                !plural.lowercased().hasPrefix("sqlite_")
            else {
                throw SpecError(
                    "--plural '\(plural)' starts like the tables the store and SQLite keep for "
                        + "themselves (store_…, sqlite_…); choose another, for example --plural people"
                )
            }
        }
        return ModelSpec(typeName: typeName, fields: fields, plural: plural)
    }

    /// A model name in any case (`blog_post`, `blogPost`, `BlogPost`) becomes `BlogPost`.
    static func parseModelName(_ token: String) throws -> String {
        guard !token.isEmpty else {
            throw SpecError("the model name is empty; give a name such as Question")
        }
        guard token.first != "-" else {
            throw SpecError(
                "'\(token)' is not an option scaffold-repo knows; run 'scaffold-repo --help' for the list"
            )
        }
        if token.contains("/") || token.contains("\\") || token.contains("..") {
            throw SpecError(
                "model name '\(token)' looks like a path; give a type name such as Question, and "
                    + "the folder with --output")
        }
        guard Identifier.isValid(token), token.contains(where: \.isLetter) else {
            throw SpecError(
                "model name '\(token)' is not a name the generator takes; use ASCII letters, digits "
                    + "and '_', starting with a letter, for example Question")
        }
        // It names files (`<Model>RepositoryXCTests.swift`, and a temporary name beside each
        // while it is written), which a file system holds to 255 bytes.
        guard token.count <= maximumModelNameLength else {
            throw SpecError(
                "model name '\(token.prefix(40))…' is \(token.count) characters long; the files "
                    + "it names must fit the file system, so use at most "
                    + "\(maximumModelNameLength)")
        }
        let name = Names.typeName(fromAnyCase: token)
        guard !Identifier.swiftKeywords.contains(name) else {
            throw SpecError("model name '\(token)' is a Swift keyword; choose another name")
        }
        guard !Identifier.reservedTypeNames.contains(name) else {
            throw SpecError(
                "model name '\(token)' is a name the generated code uses, and would hide it; "
                    + "choose another name, for example \(name)Record")
        }
        // In the model's own extensions, `ID` is `Identifiable`'s associated type, not the
        // model; `@Observable` constrains to `AnyObject`. (Neither hides anything elsewhere, so
        // they are not reserved for a target's own types or for fields.)
        guard name != "ID", name != "AnyObject" else {
            throw SpecError(
                "model name '\(token)' is a name the generated code uses, and would hide it; "
                    + "choose another name, for example \(name)Record")
        }
        // SwiftPM takes a file named main.swift, in any letter case, as a program's entry point.
        guard name.lowercased() != "main" else {
            throw SpecError(
                "model name '\(token)' would write \(name).swift, which SwiftPM builds as a "
                    + "program's entry point (main.swift), not a library's file; choose another "
                    + "name, for example \(name)Record")
        }
        // The model's own generated types must not be the engine's either (`Shared` would
        // declare `SharedRepository`, which the engine's protocol is called).
        if let taken = Names(typeName: name).generatedTypes.first(
            where: Identifier.reservedTypeNames.contains)
        {
            throw SpecError(
                "model name '\(token)' would make the generated code declare \(taken), a name the "
                    + "engine uses; choose another name, for example \(name)Record")
        }
        return name
    }

    /// Parses one `name[:Type][:modifier][=default]` token; a token without `:Type` is a
    /// `String` field. `name:references(Model[,rule])[?]` is a reference, named `nameID`.
    static func parseField(_ token: String, modelName: String = "Model") throws -> Field {
        var (name, typeText, defaultText) = split(token)
        var index: FieldIndex?
        if let text = typeText {
            let parts = topLevelParts(of: text)
            typeText = parts[0]
            for modifier in parts.dropFirst() {
                let known = FieldIndex.allCases.map { ":" + $0.rawValue }.joined(separator: " or ")
                guard let parsed = FieldIndex(rawValue: modifier.lowercased()) else {
                    let names = FieldIndex.allCases.map(\.rawValue)
                    let guess =
                        (Suggestion.closest(to: modifier, among: names + ["idx"])
                        .map { $0 == "idx" ? "index" : $0 }
                        ?? names.first {
                            $0.hasPrefix(modifier.lowercased()) && modifier.count >= 2
                        })
                        .map { " (did you mean :\($0)?)" } ?? ""
                    throw SpecError(
                        "unknown modifier ':\(modifier)' in '\(token)'\(guess); write \(known) after "
                            + "the type, for example email:String:unique")
                }
                guard index == nil else {
                    throw SpecError(
                        "'\(token)' has more than one modifier; give one of \(known) (:unique "
                            + "has an index too)")
                }
                index = parsed
            }
        }
        if let text = typeText, let reference = try parseReference(text, field: name, in: token) {
            return try referenceField(
                name, reference, index: index, defaultText: defaultText, token: token)
        }
        guard !name.isEmpty else {
            throw SpecError(
                "'\(token)' has no field name; write it as name:Type, for example text:String")
        }
        guard Identifier.isValid(name) else {
            throw SpecError(
                "field name '\(name)' in '\(token)' is not a name the generator takes; use ASCII "
                    + "letters, digits and '_', not starting with a digit and not only '_', for "
                    + "example createdAt")
        }
        guard !Identifier.reservedFieldNames.contains(name) else {
            throw SpecError(
                "field name '\(name)' in '\(token)' clashes with a member every model has; "
                    + "choose another name")
        }
        if let typeText, nestingDepth(of: typeText) > maximumNesting {
            throw SpecError(
                "the type in '\(token.prefix(60))…' nests arrays and dictionaries "
                    + "\(nestingDepth(of: typeText)) deep; nest them at most \(maximumNesting) deep"
            )
        }
        try refuseATypeWrittenAsADefault(name: name, typeText: typeText, defaultText, in: token)
        let type =
            try typeText.map { try parseType($0, field: name, modelName: modelName, in: token) }
            ?? .base(.string)
        let defaultValue = try defaultText.map {
            try DefaultParser.parse($0, for: type, in: token)
        }
        if let index {
            var unwrapped = type
            if case .optional(let wrapped) = type { unwrapped = wrapped }
            switch unwrapped {
            case .array, .dictionary:
                throw SpecError(
                    "':\(index.rawValue)' in '\(token)' needs a single value to index, not an "
                        + "array or a dictionary; drop the modifier, or index a scalar field")
            case .base, .optional, .enumeration: break
            }
            guard name != "id" else {
                throw SpecError(
                    "'\(token)': the id is unique and indexed already; drop ':\(index.rawValue)'")
            }
            if index == .unique, unwrapped == .base(.bool) || unwrapped.isEnumeration {
                throw SpecError(
                    "'\(token)': a field with a few values (a Bool, an enum) cannot be unique: the "
                        + "store could hold only that many values; write :index to look values "
                        + "up by it")
            }
        }
        return Field(name: name, type: type, defaultValue: defaultValue, index: index)
    }

    /// The reference in a type spelling `references(Model[,rule])[?]`, nil when it is not one.
    private static func parseReference(
        _ text: String, field: String, in token: String
    ) throws -> (Reference, isOptional: Bool)? {
        var text = text.trimmingCharacters(in: .whitespaces)
        let isOptional = text.hasSuffix("?")
        if isOptional { text.removeLast() }
        guard text.lowercased().hasPrefix("references(") else {
            if text.lowercased().contains("references(") {
                throw SpecError(
                    "'\(token)': a reference holds one id; write \(field):references(Model), not "
                        + "an array, dictionary or optional of it, and give the other model a "
                        + "reference to this one for many")
            }
            return nil
        }
        let rules = DeleteRule.allCases.map(\.rawValue).joined(separator: ", ")
        guard text.hasSuffix(")") else {
            throw SpecError(
                "'\(token)' is not closed; write \(field):references(Model) or "
                    + "\(field):references(Model,rule), where rule is one of \(rules)")
        }
        let arguments = text.dropFirst("references(".count).dropLast()
            .split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard (1...2).contains(arguments.count), Identifier.isValid(arguments[0]) else {
            throw SpecError(
                "'\(token)': write \(field):references(Model) or \(field):references(Model,rule), "
                    + "where Model is another model of this module and rule one of \(rules)")
        }
        var rule = DeleteRule.restrict
        if arguments.count == 2 {
            guard let parsed = DeleteRule(rawValue: arguments[1].lowercased()) else {
                throw SpecError(
                    "unknown delete rule '\(arguments[1])' in '\(token)'; use one of \(rules) "
                        + "(restrict when none is given)")
            }
            rule = parsed
        }
        let model = Names.typeName(fromAnyCase: arguments[0])
        return (Reference(model: model, rule: rule), isOptional)
    }

    /// The field `nameID` that holds the id of a value of the reference's model; its type is
    /// that model's id type once ``ModelSpec/resolvingReferences(idTypes:)`` knows it.
    private static func referenceField(
        _ name: String, _ parsed: (Reference, isOptional: Bool), index: FieldIndex?,
        defaultText: String?, token: String
    ) throws -> Field {
        let (reference, isOptional) = parsed
        guard name != "id" else {
            throw SpecError(
                "'\(token)': the id cannot be a reference; name the field after the model it "
                    + "refers to, for example \(Names(typeName: reference.model).variable):"
                    + "references(\(reference.model))")
        }
        if reference.rule == .nullify, !isOptional {
            throw SpecError(
                "'\(token)': nullify sets the reference to nil when its \(reference.model) is "
                    + "deleted, so the field must be optional: write "
                    + "'\(name):references(\(reference.model),nullify)?'")
        }
        if let defaultText, !(isOptional && defaultText == "nil") {
            throw SpecError(
                "'\(token)': a reference has no default, since the \(reference.model) it names "
                    + "must exist; drop '=\(defaultText)'"
                    + (isOptional ? " (nil is the default)" : ""))
        }
        let fieldName = name.hasSuffix("ID") ? name : name + "ID"
        guard Identifier.isValid(fieldName), !Identifier.reservedFieldNames.contains(fieldName)
        else {
            throw SpecError(
                "field name '\(fieldName)' from '\(token)' clashes with a member every model has; "
                    + "choose another name")
        }
        let type: FieldType = isOptional ? .optional(.base(.uuid)) : .base(.uuid)
        return Field(
            name: fieldName, type: type,
            defaultValue: isOptional && defaultText != nil ? DefaultValue.none : nil,
            reference: reference, index: index)
    }

    /// `text` split at its colons outside brackets and parentheses: a type, then modifiers.
    private static func topLevelParts(of text: String) -> [String] {
        var parts = [""]
        var depth = 0
        for character in text {
            switch character {
            case "[", "(": depth += 1
            case "]", ")": depth -= 1
            case ":" where depth == 0:
                parts.append("")
                continue
            default: break
            }
            parts[parts.count - 1].append(character)
        }
        return parts
    }

    /// `name:Type=default` → (name, Type, default); `:` and `=` inside brackets and
    /// parentheses belong to the type.
    private static func split(_ token: String) -> (String, String?, String?) {
        guard let nameEnd = token.firstIndex(where: { $0 == ":" || $0 == "=" }) else {
            return (token, nil, nil)
        }
        let name = String(token[..<nameEnd])
        if token[nameEnd] == "=" {
            return (name, nil, String(token[token.index(after: nameEnd)...]))
        }
        let rest = token[token.index(after: nameEnd)...]
        var depth = 0
        for index in rest.indices {
            switch rest[index] {
            case "[", "(": depth += 1
            case "]", ")": depth -= 1
            case "=" where depth == 0:
                return (name, String(rest[..<index]), String(rest[rest.index(after: index)...]))
            default: break
            }
        }
        return (name, String(rest), nil)
    }

    /// The longest model name: with the longest file it names and that file's temporary name,
    /// well within a file name's 255 bytes.
    static let maximumModelNameLength = 128

    /// How deep a field's type may nest `[…]`: far beyond any model's need, and well within
    /// what parsing and rendering it recursively (and the compiler) take.
    static let maximumNesting = 32

    /// How deep `spelling`'s brackets nest.
    static func nestingDepth(of spelling: String) -> Int {
        var depth = 0
        var deepest = 0
        for byte in spelling.utf8 {
            if byte == UInt8(ascii: "[") {
                depth += 1
                deepest = max(deepest, depth)
            } else if byte == UInt8(ascii: "]") {
                depth -= 1
            }
        }
        return deepest
    }

    /// Parses a type spelling: a base type in any letter case, `T?`, `[T]`, `[String:T]`, or
    /// `enum(a,b)`.
    static func parseType(
        _ spelling: String, field: String, modelName: String = "Model", in token: String
    ) throws -> FieldType {
        let known = BaseType.allCases.map(\.rawValue).joined(separator: ", ")
        let text = spelling.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw SpecError(
                "'\(token)' has no type after ':'; write name:Type, where Type is one of \(known)")
        }
        // Counted before any recursion: thousands of `?` would exhaust the stack.
        if text.reversed().prefix(while: { $0 == "?" || $0.isWhitespace }).filter({ $0 == "?" })
            .count > 1
        {
            throw SpecError("'\(token)' is optional twice; write a single '?'")
        }
        if text.hasSuffix("?") {
            let wrapped = try parseType(
                String(text.dropLast()), field: field, modelName: modelName, in: token)
            guard !wrapped.isOptional else {
                throw SpecError("'\(token)' is optional twice; write a single '?'")
            }
            return .optional(wrapped)
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            let inner = String(text.dropFirst().dropLast())
            if let colon = topLevelColon(in: inner) {
                let key = inner[..<colon].trimmingCharacters(in: .whitespaces)
                guard key.lowercased() == "string" else {
                    throw SpecError(
                        "dictionary keys in '\(token)' must be String (JSON object keys are "
                            + "strings); write [String:\(inner[inner.index(after: colon)...])]")
                }
                let value = String(inner[inner.index(after: colon)...])
                return .dictionary(
                    try parseType(value, field: field, modelName: modelName, in: token))
            }
            return .array(try parseType(inner, field: field, modelName: modelName, in: token))
        }
        if text.lowercased().hasPrefix("enum(") && text.hasSuffix(")") {
            return try parseEnum(
                String(text.dropFirst(5).dropLast()), field: field, modelName: modelName, in: token)
        }
        if let base = BaseType.allCases.first(where: {
            $0.rawValue.lowercased() == text.lowercased()
        }) {
            return .base(base)
        }
        var suggestion =
            (Suggestion.closest(to: text, among: BaseType.allCases.map(\.rawValue))
            ?? typeNamedOtherwise(text)).map { " Did you mean \($0)?" } ?? ""
        // `title:unique`: a modifier where the type goes.
        if suggestion.isEmpty,
            let modifier = FieldIndex.allCases.map(\.rawValue).first(where: {
                Suggestion.closest(to: text, among: [$0]) != nil
                    || (text.count >= 3 && $0.hasPrefix(text.lowercased()))
            })
        {
            suggestion = " Did you mean \(field):String:\(modifier)? (A modifier follows the type.)"
        }
        // `enm(a,b)`, `refrences(Folder)`: the word before the parenthesis, misspelled.
        if let open = text.firstIndex(of: "("), text.hasSuffix(")"),
            let word = Suggestion.closest(
                to: String(text[..<open]), among: ["enum", "references"])
        {
            suggestion = " Did you mean \(word)\(text[open...])?"
        }
        // `[String`, `String]`, `enum(a,b`: a bracket or parenthesis left open or never opened.
        let pairs: [(Character, Character)] = [("[", "]"), ("(", ")")]
        if let (open, close) = pairs.first(where: { pair in
            text.filter { $0 == pair.0 }.count != text.filter { $0 == pair.1 }.count
        }) {
            suggestion = " Its '\(open)' and '\(close)' do not pair up; close each one you open."
        }
        throw SpecError(
            "unknown type '\(text)' in '\(token)'.\(suggestion) Types: \(known); T? optional, "
                + "[T] array, [String:T] dictionary, enum(a,b), references(Model) with --storage "
                + "sqlite (quote such fields in the shell)")
    }

    /// `count=:Int`: a type written after `=`, which would make the field a `String` whose
    /// default is the text `:Int`. Refused when what follows the `:` is a type (or another
    /// language's word for one: `integer`), alone or with a default or a modifier after it, as
    /// a field token would give them; a text such as `:date:` or `:boom:` stays a text.
    private static func refuseATypeWrittenAsADefault(
        name: String, typeText: String?, _ defaultText: String?, in token: String
    ) throws {
        guard typeText == nil, let defaultText, defaultText.hasPrefix(":") else { return }
        let (_, spelled, rest) = split("x" + defaultText)
        guard let spelled, !spelled.isEmpty else { return }
        let parts = topLevelParts(of: spelled)
        guard
            parts.dropFirst().allSatisfy({ FieldIndex(rawValue: $0.lowercased()) != nil }),
            parts.count <= 2
        else { return }
        let type =
            (try? parseType(parts[0], field: name, in: token)).map { _ in parts[0] }
            ?? typeSynonyms[parts[0].lowercased()]?.rawValue
        guard let type else { return }
        let meant =
            "\(name):\(([type] + parts.dropFirst()).joined(separator: ":"))"
            + (rest.map { "=\($0)" } ?? "")
        throw SpecError(
            "'\(token)' makes \(name) a String whose default is the text \"\(defaultText)\"; did "
                + "you mean '\(meant)'? (The type follows the name after ':', and a default "
                + "follows the type after '=', as in count:Int=0.) For that text, write "
                + "'\(name):String=\"\(defaultText)\"'")
    }

    /// Another language's word for a field type.
    private static let typeSynonyms: [String: BaseType] = [
        "integer": .int, "long": .int64, "boolean": .bool, "text": .string, "number": .double,
        "datetime": .date, "timestamp": .date, "guid": .uuid, "bytes": .data, "blob": .data,
    ]

    /// The field type that `text` names in other words: the start of its name (`Str`), or
    /// another language's word for it (`integer`, `boolean`, `text`).
    private static func typeNamedOtherwise(_ text: String) -> String? {
        let word = text.lowercased()
        if let base = typeSynonyms[word] { return base.rawValue }
        guard word.count >= 2 else { return nil }
        return BaseType.allCases.map(\.rawValue).first { $0.lowercased().hasPrefix(word) }
    }

    private static func topLevelColon(in text: String) -> String.Index? {
        var depth = 0
        for index in text.indices {
            switch text[index] {
            case "[", "(": depth += 1
            case "]", ")": depth -= 1
            case ":" where depth == 0: return index
            default: break
            }
        }
        return nil
    }

    private static func parseEnum(
        _ list: String, field: String, modelName: String, in token: String
    ) throws -> FieldType {
        let cases = list.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        for name in cases where !Identifier.isValid(name) {
            throw SpecError(
                "enum case '\(name)' in '\(token)' is not a name the generator takes; use ASCII "
                    + "letters, digits and '_', not starting with a digit and not only '_', as in "
                    + "enum(draft,published)")
        }
        if let repeated = cases.first(where: { name in cases.filter { $0 == name }.count > 1 }) {
            throw SpecError("enum case '\(repeated)' is given twice in '\(token)'")
        }
        // Named after its field; `error` gives `ErrorKind`, as `Error` would hide Swift's.
        var typeName = Names.typeName(fromAnyCase: field)
        // The model's own generated types and its frozen versions (`V1`) are in scope too, and
        // so is `ID`, `Identifiable`'s associated type, which an enum nested in the model
        // would replace.
        let modelTypes = [modelName, "ID"] + Names(typeName: modelName).generatedTypes
        if modelTypes.contains(typeName) || Identifier.reservedTypeNames.contains(typeName)
            || Identifier.swiftKeywords.contains(typeName)
            || typeName.wholeMatch(of: /V[0-9]+/) != nil
        {
            typeName += "Kind"
        }
        return .enumeration(name: typeName, cases: cases)
    }
}
