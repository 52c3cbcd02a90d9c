import Foundation

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
            return try parse(text, for: base, refuse: refuse)
        }
    }

    private static func parse(
        _ text: String, for base: BaseType, refuse: (String) -> SpecError
    ) throws -> DefaultValue {
        switch base {
        case .string:
            return .string(unquoted(text))
        case .bool:
            guard let value = Bool(text.lowercased()) else { throw refuse("write true or false") }
            return .bool(value)
        case .int, .int64:
            let limit = base == .int ? Int64(Int.max) : Int64.max
            guard let value = Int64(text), value <= limit else {
                throw refuse("write a whole number, for example 0")
            }
            return .number(String(value))
        case .double, .float, .date:
            guard isDecimalNumber(text), let value = Double(text), value.isFinite else {
                let example =
                    base == .date
                    ? "seconds since 1970, for example 0"
                    : "a plain number such as 0.5 or -3 (no exponent)"
                throw refuse("write \(example)")
            }
            return .number(String(value))
        case .decimal:
            guard isDecimalNumber(text), text.filter(\.isNumber).count <= 18 else {
                throw refuse("write a decimal number of up to 18 digits, for example 9.99")
            }
            return .number(text)
        case .uuid:
            guard let uuid = UUID(uuidString: unquoted(text)) else {
                throw refuse("write a UUID such as 00000000-0000-0000-0000-000000000000")
            }
            return .parsed(uuid.uuidString)
        case .url:
            let value = unquoted(text)
            guard value.contains("://"), URL(string: value) != nil else {
                throw refuse("write an absolute URL such as https://example.com")
            }
            return .parsed(value)
        case .data:
            let value = unquoted(text)
            guard Data(base64Encoded: value) != nil else {
                throw refuse("write base64 text, or \"\" for no bytes")
            }
            return .parsed(value)
        }
    }

    /// `-12`, `3.25`: digits with an optional sign and fraction (what every type here reads).
    private static func isDecimalNumber(_ text: String) -> Bool {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// Strips one pair of matching surrounding quotes.
    private static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'",
            text.last == first
        else { return text }
        return String(text.dropFirst().dropLast())
    }
}
