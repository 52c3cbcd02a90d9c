/// Writes a model's fields back in the field language, normalized: the form the manifest
/// records and the evolution report prints.
enum SpecFormatter {
    static func token(_ field: Field) -> String {
        var token = "\(field.name):\(spelling(field.type))"
        if let value = field.defaultValue { token += "=" + text(value, type: field.type) }
        return token
    }

    /// The type in the field language: `[String:Int]?`, `enum(a,b)`.
    static func spelling(_ type: FieldType) -> String {
        switch type {
        case .base(let base): base.rawValue
        case .optional(let wrapped): spelling(wrapped) + "?"
        case .array(let element): "[\(spelling(element))]"
        case .dictionary(let value): "[String:\(spelling(value))]"
        case .enumeration(_, let cases): "enum(\(cases.joined(separator: ",")))"
        }
    }

    static func text(_ value: DefaultValue, type: FieldType) -> String {
        switch value {
        case .none: "nil"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let text), .enumCase(let text), .parsed(let text): text.isEmpty ? "\"\"" : text
        // Quoted, so that parsing strips exactly these quotes and nothing of the text.
        case .string(let text): "\"\(text)\""
        case .emptyCollection: Literals.swift(value, type: type)
        }
    }
}
