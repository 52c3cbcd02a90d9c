/// Turns the model name and the `name:Type` tokens of the command line into a `ModelSpec`,
/// or a `UsageError` that names the bad token and says how to fix it.
public enum SpecParser {
    /// Parses and checks a whole model specification.
    public static func parse(modelName: String, fieldTokens: [String]) throws -> ModelSpec {
        let typeName = try parseModelName(modelName)
        var fields: [Field] = []
        for token in fieldTokens {
            let field = try parseField(token)
            if fields.contains(where: { $0.name == field.name }) {
                throw UsageError(
                    "field '\(field.name)' is given twice (in '\(token)'); give each field once")
            }
            fields.append(field)
        }
        guard let id = fields.first(where: { $0.name == "id" }) else {
            if let near = fields.first(where: { $0.name.lowercased() == "id" }) {
                throw UsageError(
                    "\(typeName) has no id field; '\(near.name)' is not 'id': write it in lower "
                        + "case, id:\(near.type.swiftSpelling)")
            }
            throw UsageError(
                """
                \(typeName) has no id field; add one, for example: \
                scaffold-repo \(([typeName, "id:UUID"] + fieldTokens).joined(separator: " "))
                """)
        }
        guard case .base(let idType) = id.type, BaseType.idTypes.contains(idType) else {
            let allowed = BaseType.idTypes.map { "id:\($0.rawValue)" }.joined(separator: ", ")
            throw UsageError(
                "'id:\(id.type.swiftSpelling)' cannot be an id; use one of \(allowed)")
        }
        return ModelSpec(typeName: typeName, fields: fields)
    }

    /// A model name is a Swift identifier; its first letter is made upper case.
    static func parseModelName(_ token: String) throws -> String {
        guard !token.isEmpty else {
            throw UsageError("the model name is empty; give a name such as Question")
        }
        guard token.first != "-" else {
            throw UsageError(
                "'\(token)' is not an option scaffold-repo knows; run 'scaffold-repo --help' for the list"
            )
        }
        guard Identifier.isValid(token) else {
            throw UsageError(
                "model name '\(token)' is not a Swift type name; use letters, digits and '_', "
                    + "starting with a letter, for example Question")
        }
        let name = token.prefix(1).uppercased() + token.dropFirst()
        guard !Identifier.swiftKeywords.contains(name) else {
            throw UsageError("model name '\(token)' is a Swift keyword; choose another name")
        }
        guard !Identifier.reservedTypeNames.contains(name) else {
            throw UsageError(
                "model name '\(token)' is a type the generated code uses, and would hide it; "
                    + "choose another name, for example \(name)Record")
        }
        return name
    }

    /// Parses one `name:Type` token; a token without `:Type` is a `String` field.
    static func parseField(_ token: String) throws -> Field {
        let parts = token.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0])
        guard !name.isEmpty else {
            throw UsageError(
                "'\(token)' has no field name; write it as name:Type, for example text:String")
        }
        guard Identifier.isValid(name) else {
            throw UsageError(
                "field name '\(name)' in '\(token)' is not a Swift identifier; use letters, digits "
                    + "and '_', starting with a letter, for example createdAt")
        }
        guard !Identifier.swiftKeywords.contains(name) else {
            throw UsageError(
                "field name '\(name)' in '\(token)' is a Swift keyword; choose another name, "
                    + "for example \(name)Value")
        }
        guard !Identifier.reservedFieldNames.contains(name) else {
            throw UsageError(
                "field name '\(name)' in '\(token)' clashes with a member every model has; "
                    + "choose another name, for example \(name)Value")
        }
        guard parts.count == 2 else { return Field(name: name, type: .base(.string)) }
        return Field(name: name, type: try parseType(String(parts[1]), in: token))
    }

    /// Parses a type spelling such as `String` or `Date?`; names match in any letter case.
    static func parseType(_ spelling: String, in token: String) throws -> FieldType {
        let known = BaseType.allCases.map(\.rawValue).joined(separator: ", ")
        guard !spelling.isEmpty else {
            throw UsageError(
                "'\(token)' has no type after ':'; write name:Type, where Type is one of \(known)")
        }
        if spelling.hasSuffix("?") {
            let wrapped = try parseType(String(spelling.dropLast()), in: token)
            guard case .base = wrapped else {
                throw UsageError("'\(token)' is optional twice; write a single '?'")
            }
            return .optional(wrapped)
        }
        if let base = BaseType.allCases.first(where: {
            $0.rawValue.lowercased() == spelling.lowercased()
        }) {
            return .base(base)
        }
        let suggestion =
            Suggestion.closest(to: spelling, among: BaseType.allCases.map(\.rawValue))
            .map { " Did you mean \($0)?" } ?? ""
        throw UsageError(
            "unknown type '\(spelling)' in '\(token)'.\(suggestion) Types: \(known), and T? for optional"
        )
    }
}
