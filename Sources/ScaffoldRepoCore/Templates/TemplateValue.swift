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

/// A typed group of template values: each stored property is one name a template reads, so the
/// compiler checks the names where they are set, and each carries its doc comment. A property
/// is text (`String`), a flag (`Bool`), a list (`[some TemplateContext]`, each item a group) or
/// a group (`some TemplateContext`).
protocol TemplateContext {}

/// A group whose names are read as the enclosing group's own, as if declared there.
protocol InlineTemplateContext: TemplateContext {}

extension TemplateContext {
    /// The values a template reads, by property name.
    var templateValues: [String: TemplateValue] {
        var values: [String: TemplateValue] = [:]
        for child in Mirror(reflecting: self).children {
            guard let name = child.label else { continue }
            if let inline = child.value as? any InlineTemplateContext {
                values.merge(inline.templateValues) { _, inner in inner }
            } else {
                values[name] = Self.templateValue(of: child.value)
            }
        }
        return values
    }

    private static func templateValue(of value: Any) -> TemplateValue {
        switch value {
        case let text as String: .text(text)
        case let flag as Bool: .flag(flag)
        case let group as any TemplateContext: .object(group.templateValues)
        case let list as [any TemplateContext]: .list(list.map { .object($0.templateValues) })
        // Only the types above are declared; this keeps a mistake visible in the output.
        default: .text("<\(type(of: value)) is not a template value>")
        }
    }
}
