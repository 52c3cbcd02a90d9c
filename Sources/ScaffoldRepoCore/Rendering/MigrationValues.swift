/// The Swift expressions a generated migration starts with: each field of the new version
/// taken from the old value where it still fits, else a placeholder that compiles, with the
/// reason it needs a person's decision.
enum MigrationValues {
    /// The expression for `field` of the new version, read from `source` (the same field, or
    /// the one it was renamed from) of the old version, and a comment when a person must decide.
    /// `targetType` names the new version's type (`Question.V2`), whose enums the value needs.
    static func expression(
        for field: Field, from source: Field?, targetType: String
    ) -> (value: String, comment: String?) {
        guard let source else {
            if let value = field.defaultValue {
                return (Literals.swift(value, type: field.type), nil)
            }
            if field.type.isOptional { return ("nil", nil) }
            return (placeholder(field.type), "\(field.name) is new and has no default")
        }
        let old = "self.\(Identifier.escaped(source.name))"
        if source.type == field.type, source.type.allTypes.allSatisfy({ !$0.isEnumeration }) {
            return (old, nil)
        }
        if !source.type.isOptional, field.type == .optional(source.type),
            source.type.allTypes.allSatisfy({ !$0.isEnumeration })
        {
            return (old, nil)
        }
        // A nested enum is a type of each version: convert it by its raw value.
        switch (source.type, field.type) {
        case (.enumeration(_, let oldCases), .enumeration(let name, let cases)):
            let removed = oldCases.filter { !cases.contains($0) }
            return (
                "\(targetType).\(name)(rawValue: \(old).rawValue) ?? .\(Identifier.escaped(cases[0]))",
                removed.isEmpty
                    ? nil : "stored \(removed.joined(separator: ", ")) become \(cases[0])"
            )
        case (.enumeration, .optional(.enumeration(let name, _))),
            (.optional(.enumeration), .optional(.enumeration(let name, _))):
            let unwrap = source.type.isOptional ? "\(old).flatMap" : "Optional(\(old)).flatMap"
            return ("\(unwrap) { \(targetType).\(name)(rawValue: $0.rawValue) }", nil)
        default:
            let was = SpecFormatter.spelling(source.type)
            let placeholderValue =
                field.defaultValue.map { Literals.swift($0, type: field.type) }
                ?? (field.type.isOptional ? "nil" : placeholder(field.type))
            return (
                placeholderValue,
                "was \(was) (\(source.name)), is \(SpecFormatter.spelling(field.type)) now; "
                    + "convert \(old)"
            )
        }
    }

    /// A value of `type` that compiles, for a person to replace.
    private static func placeholder(_ type: FieldType) -> String {
        switch type {
        case .optional: "nil"
        case .array: "[]"
        case .dictionary: "[:]"
        case .enumeration(_, let cases): "." + Identifier.escaped(cases[0])
        case .base(let base):
            switch base {
            case .string: "\"\""
            case .int, .int64, .double, .float, .decimal: "0"
            case .bool: "false"
            case .date: "Date(timeIntervalSince1970: 0)"
            case .uuid: "UUID()"
            case .url: "URL(fileURLWithPath: \"/\")"
            case .data: "Data()"
            }
        }
    }
}
