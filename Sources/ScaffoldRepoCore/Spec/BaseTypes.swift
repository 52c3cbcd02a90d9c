import Foundation

/// The field types the generator knows how to store and test.
///
/// A new type is a case here and its row in `row`. Besides this file, the engine gives it a
/// `SampleValue` conformance (`Sources/StoreEngineTestSupport/SampleData.swift`) and a
/// `QueryableField` one (`Sources/StoreEngine/StoreQuery.swift`), the field language and
/// command-line pages list it, and a journal or snapshot golden and a sqlite golden each get a
/// field of it: tests fail until each is there. Documentation/contributing.md has the rest.
public enum BaseType: String, CaseIterable, Sendable {
    case string = "String"
    case int = "Int"
    case int64 = "Int64"
    case double = "Double"
    case float = "Float"
    case bool = "Bool"
    case date = "Date"
    case uuid = "UUID"
    case url = "URL"
    case decimal = "Decimal"
    case data = "Data"

    /// The types an `id` field may have: they are `Hashable`, and their values sort and print.
    public static let idTypes: [BaseType] = [.string, .uuid, .int]

    /// Whether the sqlite storage can compare its values in SQL (queries, `:index`, `:unique`):
    /// every type but `Data`.
    var isQueryable: Bool { self != .data }

    /// Everything the generator does differently for this type, in one place.
    var row: BaseTypeRow {
        switch self {
        case .string:
            BaseTypeRow(
                readDefault: { .string(BaseTypeRow.unquoted($0)) }, defaultHint: "",
                literal: { $0 }, exampleDefault: "\"\"", placeholder: "\"\"",
                sample: { words, number in "\"\(words) \\(\(number))\"" })
        case .int:
            BaseTypeRow(
                readDefault: { BaseTypeRow.wholeNumber($0, in: Int64(Int.min)...Int64(Int.max)) },
                defaultHint: "write a whole number, for example 0", literal: { $0 },
                exampleDefault: "0", placeholder: "0", sample: { _, number in number },
                // Int has 32 bits on watchOS (arm64_32), which the package builds for.
                fitsEveryPlatform: { Int32($0) != nil },
                platformHint: "write a whole number from -2147483648 to 2147483647 (Int has 32 "
                    + "bits on watchOS), or make the field Int64")
        case .int64:
            BaseTypeRow(
                readDefault: { BaseTypeRow.wholeNumber($0, in: Int64.min...Int64.max) },
                defaultHint: "write a whole number, for example 0", literal: { $0 },
                exampleDefault: "0", placeholder: "0",
                sample: { _, number in "Int64(\(number))" })
        case .double:
            BaseTypeRow(
                readDefault: BaseTypeRow.floatingNumber, defaultHint: BaseTypeRow.plainNumber,
                literal: { $0 }, exampleDefault: "0", placeholder: "0",
                sample: { _, number in "Double(\(number)) * 1.5" },
                fitsEveryPlatform: BaseTypeRow.isZeroOrNormal,
                platformHint: BaseTypeRow.doubleRangeHint)
        case .float:
            BaseTypeRow(
                readDefault: BaseTypeRow.floatingNumber, defaultHint: BaseTypeRow.plainNumber,
                literal: { $0 }, exampleDefault: "0", placeholder: "0",
                sample: { _, number in "Float(\(number)) * 1.5" },
                fitsEveryPlatform: { text in
                    // Neither beyond Float's range nor so small that it loses digits (a
                    // subnormal, which the compiler warns of) or becomes 0.
                    guard let value = Float(text) else { return false }
                    return value.isFinite && (value.isNormal || BaseTypeRow.isZero(text))
                },
                platformHint: "write a number within Float's range (0, or about 1.2e-38 to "
                    + "3.4e38 either side of it), or make the field Double")
        case .bool:
            BaseTypeRow(
                readDefault: { Bool($0.lowercased()).map(DefaultValue.bool) },
                defaultHint: "write true or false", literal: { $0 }, exampleDefault: "false",
                placeholder: "false", sample: { _, number in "\(number).isMultiple(of: 2)" })
        case .date:
            // Samples: 1 January 2026 and the days after it.
            BaseTypeRow(
                readDefault: BaseTypeRow.floatingNumber,
                defaultHint: "write seconds since 1970, for example 0",
                literal: { "Date(timeIntervalSince1970: \($0))" }, exampleDefault: "0",
                placeholder: "Date(timeIntervalSince1970: 0)",
                sample: { _, number in
                    "Date(timeIntervalSince1970: 1_767_225_600 + Double(\(number)) * 86_400)"
                },
                needsFoundation: true, fitsEveryPlatform: BaseTypeRow.isZeroOrNormal,
                platformHint: BaseTypeRow.doubleRangeHint)
        case .uuid:
            BaseTypeRow(
                readDefault: { text in
                    UUID(uuidString: BaseTypeRow.unquoted(text)).map { .parsed($0.uuidString) }
                },
                defaultHint: "write a UUID such as 00000000-0000-0000-0000-000000000000",
                literal: { "UUID(uuidString: \(Literals.stringLiteral($0)))!" },
                exampleDefault: "00000000-0000-0000-0000-000000000000", placeholder: "UUID()",
                sample: { _, number in
                    "UUID(uuid: (0, 0, 0, 0, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, UInt8(\(number))))"
                },
                needsFoundation: true)
        case .url:
            BaseTypeRow(
                readDefault: { text in
                    let value = BaseTypeRow.unquoted(text)
                    return value.contains("://") && URL(string: value) != nil
                        ? .parsed(value) : nil
                },
                defaultHint: "write an absolute URL such as https://example.com",
                literal: { "URL(string: \(Literals.stringLiteral($0)))!" },
                exampleDefault: "https://example.com", placeholder: "URL(fileURLWithPath: \"/\")",
                sample: { words, number in
                    "URL(fileURLWithPath: \"/samples/\(words.lowercased())-\\(\(number))\")"
                },
                needsFoundation: true)
        case .decimal:
            BaseTypeRow(
                readDefault: { text in
                    BaseTypeRow.isDecimalNumber(text) && text.filter(\.isNumber).count <= 18
                        ? .number(text) : nil
                },
                defaultHint: "write a decimal number of up to 18 digits, for example 9.99",
                literal: Literals.decimal, exampleDefault: "0", placeholder: "0",
                sample: { _, number in "Decimal(\(number) * 10)" }, needsFoundation: true)
        case .data:
            BaseTypeRow(
                readDefault: { text in
                    let value = BaseTypeRow.unquoted(text)
                    return Data(base64Encoded: value) != nil ? .parsed(value) : nil
                },
                defaultHint: "write base64 text, or \"\" for no bytes",
                literal: { text in
                    text.isEmpty
                        ? "Data()" : "Data(base64Encoded: \(Literals.stringLiteral(text)))!"
                },
                exampleDefault: "\"\"", placeholder: "Data()",
                sample: { words, number in "Data(\"\(words) \\(\(number))\".utf8)" },
                needsFoundation: true)
        }
    }
}

/// One base type's row: how the generator reads, writes and suggests its values.
struct BaseTypeRow {
    /// The `=default` text as a checked default, or nil when it does not fit the type.
    let readDefault: (String) -> DefaultValue?
    /// What a refusal of a default that does not fit says to write instead.
    let defaultHint: String
    /// The Swift expression of a checked default's text (`DefaultValue.number` or `.parsed`).
    let literal: (String) -> String
    /// A default that the type takes, for the messages that suggest one.
    let exampleDefault: String
    /// A value of the type that a migration decision starts from.
    let placeholder: String
    /// A sample's value, from the field's name as words and the sample's number (a Swift
    /// expression of an `Int` from 1 to 5).
    let sample: (_ words: String, _ number: String) -> String
    /// Whether the type comes from Foundation, so that a model with it imports Foundation
    /// publicly.
    var needsFoundation = false
    /// Whether a checked default's text fits the type on every platform the package builds
    /// for (`Int` has 32 bits on watchOS). Checked for a command line's fields only: a record
    /// that a manifest already holds is read as it was written.
    var fitsEveryPlatform: (String) -> Bool = { _ in true }
    /// What a refusal of a default that does not fit every platform says to write instead.
    var platformHint = ""

    static let plainNumber = "write a number such as 0.5, -3 or 1e-05"

    /// A whole number within `range`: the type's own, so that the literal fits it.
    static func wholeNumber(_ text: String, in range: ClosedRange<Int64>) -> DefaultValue? {
        guard let value = Int64(text), range.contains(value) else { return nil }
        return .number(String(value))
    }

    /// A `Double` (or `Date`) default: written as Swift writes the number (`1e-05` for
    /// `0.00001`), which is how a manifest records it, so both forms are read. Refused beyond
    /// the type's range, or so small that it becomes 0.
    static func floatingNumber(_ text: String) -> DefaultValue? {
        let parts = text.lowercased().split(separator: "e", omittingEmptySubsequences: false)
        guard isDecimalNumber(String(parts[0])),
            parts.count == 1
                || (parts.count == 2 && isDecimalNumber(String(parts[1].drop { $0 == "+" }))
                    && !parts[1].contains(".")),
            let value = Double(text), value.isFinite,
            // So small that it reads as 0: never what was meant (a record says `0.0`).
            value != 0 || isZero(text)
        else { return nil }
        return .number(String(value))
    }

    /// Whether a checked `Double` default is 0 or a normal number: not so small that it
    /// loses digits (a subnormal, which the compiler warns of) or becomes 0.
    static func isZeroOrNormal(_ text: String) -> Bool {
        Double(text).map { $0.isNormal || isZero(text) } ?? false
    }

    /// Whether a number's digits before its exponent are all 0.
    static func isZero(_ text: String) -> Bool {
        !text.lowercased().prefix { $0 != "e" }.contains { ("1"..."9").contains($0) }
    }

    static let doubleRangeHint =
        "write 0, or a number from about 2.2e-308 to 1.8e308 either side of it"

    /// `-12`, `3.25`: digits with an optional sign and fraction (what every number type reads).
    static func isDecimalNumber(_ text: String) -> Bool {
        let body = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// Strips one pair of matching surrounding quotes.
    static func unquoted(_ text: String) -> String {
        guard text.count >= 2, let first = text.first, first == "\"" || first == "'",
            text.last == first
        else { return text }
        return String(text.dropFirst().dropLast())
    }
}
