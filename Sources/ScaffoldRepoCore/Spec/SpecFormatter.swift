/// Writes a model's fields back in the field language, normalized: the form the manifest
/// records and the evolution report prints.
enum SpecFormatter {
    static func token(_ field: Field) -> String {
        // A reference as it is typed, `folder:references(Folder)`, for its field `folderID`
        // (both spellings parse to it).
        let isReference = field.reference != nil && field.name.count > 2
        return token(
            name: isReference && field.name.hasSuffix("ID")
                ? String(field.name.dropLast(2)) : field.name,
            type: spelling(field), modifier: field.index?.rawValue,
            default: field.defaultValue.map { text($0, type: field.type) })
    }

    /// The token of a field given by its parts, each already spelled in the field language:
    /// `name:Type[:modifier][=default]`.
    static func token(name: String, type: String, modifier: String?, default: String?) -> String {
        "\(name):\(type)" + (modifier.map { ":" + $0 } ?? "") + (`default`.map { "=" + $0 } ?? "")
    }

    /// The field's type in the field language; a reference as `references(Folder,cascade)?`.
    static func spelling(_ field: Field) -> String {
        guard let reference = field.reference else { return spelling(field.type) }
        let rule = reference.rule == .restrict ? "" : "," + reference.rule.rawValue
        return "references(\(reference.model)\(rule))" + (field.type.isOptional ? "?" : "")
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
        case .emptyCollection: type.isDictionary ? "[:]" : "[]"
        }
    }
}
