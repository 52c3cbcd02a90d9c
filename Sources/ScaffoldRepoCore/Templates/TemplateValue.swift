/// A value a template can read: text, a flag, a list to loop over, or a group of named values.
public enum TemplateValue: Equatable, Sendable {
    case text(String)
    case flag(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])

    /// Whether `{{#if}}` takes this value as true: a true flag, non-empty text, a non-empty list,
    /// or any object.
    var isTruthy: Bool {
        switch self {
        case .text(let text): !text.isEmpty
        case .flag(let flag): flag
        case .list(let items): !items.isEmpty
        case .object: true
        }
    }
}

extension TemplateValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral {
    public init(stringLiteral value: String) {
        self = .text(value)
    }

    public init(booleanLiteral value: Bool) {
        self = .flag(value)
    }
}
