import Foundation

/// Swift source spellings of field defaults.
enum Literals {
    /// The Swift expression for `value`, a default of a field of `type`.
    static func swift(_ value: DefaultValue, type: FieldType) -> String {
        let base = baseType(of: type)
        switch value {
        case .none: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .emptyCollection: return type.isDictionary ? "[:]" : "[]"
        case .enumCase(let name):
            // `.none` of an optional enum is Optional's nil, not the case.
            let literal = "." + Identifier.escaped(name)
            return type.isOptional && name == "none" ? ".some(\(literal))" : literal
        case .string(let text): return stringLiteral(text)
        // How a number or a parsed value is written is the type's (BaseType.row).
        case .number(let text), .parsed(let text): return base?.row.literal(text) ?? text
        }
    }

    /// A string literal: quotes, backslashes and control characters escaped; the rest as is.
    static func stringLiteral(_ text: String) -> String {
        var literal = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    literal += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }

    /// `9.99` → `Decimal(sign: .plus, exponent: -2, significand: 999)`: exact, unlike a float
    /// literal, and with nothing to unwrap.
    static func decimal(_ text: String) -> String {
        let negative = text.hasPrefix("-")
        let digits = negative ? String(text.dropFirst()) : text
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        let fraction = parts.count == 2 ? String(parts[1]) : ""
        var significand = String(parts[0]) + fraction
        while significand.count > 1, significand.hasPrefix("0") { significand.removeFirst() }
        let sign = negative ? ".minus" : ".plus"
        let exponent = fraction.isEmpty ? "0" : "-\(fraction.count)"
        return "Decimal(sign: \(sign), exponent: \(exponent), significand: \(significand))"
    }

    private static func baseType(of type: FieldType) -> BaseType? {
        switch type {
        case .base(let base): base
        case .optional(let wrapped): baseType(of: wrapped)
        default: nil
        }
    }
}
