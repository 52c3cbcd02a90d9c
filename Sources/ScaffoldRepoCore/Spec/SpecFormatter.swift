/// Writes a request back as the command line that makes it, normalized: the form the manifest
/// records and `regen` parses again.
enum SpecFormatter {
    /// `["Question", "id:String", "text:String", "--storage", "journal"]`, without paths.
    static func arguments(for request: GenerateRequest) -> [String] {
        var arguments = [request.spec.typeName] + request.spec.fields.map(token)
        arguments += ["--storage", request.storage.rawValue]
        if let plural = request.spec.plural { arguments += ["--plural", plural] }
        if let renames = renames(of: request.spec) { arguments += ["--rename", renames] }
        if request.annotate { arguments.append("--annotate") }
        return arguments
    }

    /// `OLD=NEW,…` for the model's renamed fields, or nil when it has none.
    static func renames(of spec: ModelSpec) -> String? {
        let renames = spec.fields.compactMap { field in
            field.formerName.map { "\($0)=\(field.name)" }
        }
        return renames.isEmpty ? nil : renames.joined(separator: ",")
    }

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

    private static func text(_ value: DefaultValue, type: FieldType) -> String {
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
