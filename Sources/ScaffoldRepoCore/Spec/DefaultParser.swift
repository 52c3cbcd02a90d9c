/// Checks a field's `=default` against its type.
enum DefaultParser {
    static func parse(_ text: String, for type: FieldType, in token: String) throws -> DefaultValue
    {
        let refuse = { (hint: String) in
            SpecError(
                "default '\(text)' does not fit \(type.swiftSpelling) in '\(token)'; \(hint)")
        }
        switch type {
        case .optional(let wrapped):
            return text == "nil" ? .none : try parse(text, for: wrapped, in: token)
        case .array:
            guard text == "[]" else { throw refuse("an array's default is [], the empty array") }
            return .emptyCollection
        case .dictionary:
            guard text == "[:]" || text == "[]" else {
                throw refuse("a dictionary's default is [:], the empty dictionary")
            }
            return .emptyCollection
        case .enumeration(_, let cases):
            guard cases.contains(text) else {
                throw refuse("give one of its cases: \(cases.joined(separator: ", "))")
            }
            return .enumCase(text)
        case .base(let base):
            guard let value = base.row.readDefault(text) else { throw refuse(base.row.defaultHint) }
            return value
        }
    }
}
