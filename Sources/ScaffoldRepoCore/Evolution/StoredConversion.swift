/// What becomes of a stored value when its field changes type between two schema versions:
/// kept as it is, converted by a conversion that loses nothing (which the generated migration
/// writes itself), or left for a person to decide (the migration then throws until they have).
///
/// Every conversion here is the one table behind the migrations, the generated migration tests
/// and the list of conversions in Documentation/changing-a-model.md.
enum StoredConversion {
    /// A conversion the migration writes: Swift for it, applied to the old value.
    struct Lossless {
        /// The new value, from the Swift expression for the old one. Inside a migration, a
        /// conversion that is exact only for some values goes through `lossless(_:_:)`.
        let migration: (String) -> String
        /// The same conversion for a test's expected value, without the check that it is exact
        /// (the store opened, so every value converted exactly).
        let expected: (String) -> String
        /// Whether the value is the old one as it is (the same type, or made optional).
        let isSame: Bool
        /// The values it is not exact for, which the migration does not convert (it throws,
        /// and the store stays closed until a person decides them); nil when there are none.
        var exception: String?
    }

    /// The conversion from `old` to `new` that loses nothing, or nil when some stored values
    /// need a person's decision. `field` names the field in errors; `target` is the new
    /// version's type (`Question.V2`), whose nested enums the new value needs.
    static func lossless(
        from old: FieldType, to new: FieldType, field: String, target: String
    ) -> Lossless? {
        let same = Lossless(migration: { $0 }, expected: { $0 }, isSame: true)
        if old == new, old.allTypes.allSatisfy({ !$0.isEnumeration }) { return same }
        switch (old, new) {
        case (.enumeration(_, let oldCases), .enumeration(let name, let cases))
        where oldCases.allSatisfy(cases.contains):
            let converted = { (value: String) in "\(target).\(name)(rawValue: \(value).rawValue)" }
            return Lossless(
                migration: { "try lossless(\(converted($0)), \(Literals.stringLiteral(field)))" },
                expected: converted, isSame: false)
        case (.enumeration, .base(.string)):
            return Lossless(
                migration: { "\($0).rawValue" }, expected: { "\($0).rawValue" }, isSame: false)
        case (.base(let from), .base(let to)):
            return base(from: from, to: to, field: field)
        case (_, .optional(let wrapped)) where !old.isOptional:
            // Swift makes a value optional where one is expected.
            return lossless(from: old, to: wrapped, field: field, target: target)
        case (.optional(let from), .optional(let to)),
            (.array(let from), .array(let to)):
            return lossless(from: from, to: to, field: field, target: target).map {
                mapped($0, with: "map")
            }
        case (.dictionary(let from), .dictionary(let to)):
            return lossless(from: from, to: to, field: field, target: target).map {
                mapped($0, with: "mapValues")
            }
        default:
            return nil
        }
    }

    /// Whether a stored `old` value becomes a `new` one without loss, so that a migration needs
    /// no decision for it.
    static func losesNothing(from old: FieldType, to new: FieldType) -> Bool {
        lossless(from: old, to: new, field: "", target: "") != nil
    }

    /// What a run says the migration does with the stored values of a field whose type changes
    /// from `old` to `new` without loss: every value converted, and those it is not exact for.
    static func promise(from old: FieldType, to new: FieldType) -> String {
        guard let exception = lossless(from: old, to: new, field: "", target: "")?.exception
        else { return "the migration converts every stored value, losing nothing" }
        return "the migration converts every stored value that converts exactly; \(exception) "
            + "does not, and keeps the store closed (.notMigrated, naming the field and the value) "
            + "until you decide it in the migration"
    }

    /// A conversion of each element, of a wrapped value or of each dictionary value.
    private static func mapped(_ inner: Lossless, with method: String) -> Lossless {
        guard !inner.isSame else { return inner }
        let body = inner.migration("$0")
        let tried = body.hasPrefix("try ") ? "try " : ""
        let expected = inner.expected("$0")
        return Lossless(
            migration: { "\(tried)\($0).\(method) { \(body) }" },
            expected: { "\($0).\(method) { \(expected) }" }, isSame: false,
            exception: inner.exception)
    }

    /// The conversions between base types that lose nothing: widening numbers, and any value
    /// to the text that stands for it.
    private static func base(from: BaseType, to: BaseType, field: String) -> Lossless? {
        let plain = { (make: @escaping (String) -> String) in
            Lossless(migration: make, expected: make, isSame: false)
        }
        // Exact for every value but the rare one past 2^53 (Int to Double) or past 32 bits (Int64
        // to Int on a 32-bit watch): such a value throws instead of changing.
        let exactly = { (type: String, exception: String) in
            Lossless(
                migration: {
                    "try lossless(\(type)(exactly: \($0)), \(Literals.stringLiteral(field)), "
                        + "from: \($0))"
                },
                expected: { "\(type)(\($0))" }, isSame: false, exception: exception)
        }
        switch (from, to) {
        case (.int, .int64): return plain { "Int64(\($0))" }
        case (.int64, .int):
            return exactly("Int", "a value past 32 bits, on a watch whose Int has 32,")
        case (.int, .double), (.int64, .double):
            return exactly(
                "Double", "a whole number past 2^53 that a Double cannot hold exactly")
        // The decimal the person saw (0.1), not the binary value's expansion (0.100000001…).
        case (.float, .double): return plain { "Double(String(\($0))) ?? Double(\($0))" }
        case (.int, .decimal), (.int64, .decimal): return plain { "Decimal(\($0))" }
        case (.int, .string), (.int64, .string), (.double, .string), (.float, .string),
            (.bool, .string):
            return plain { "String(\($0))" }
        case (.uuid, .string): return plain { "\($0).uuidString" }
        case (.url, .string): return plain { "\($0).absoluteString" }
        default: return nil
        }
    }

    /// A starting point for a person's decision, from `value` (the old value in Swift): a
    /// conversion that can fail, then `??` and a value for the person to choose; nil when there
    /// is no such conversion to suggest.
    static func hint(
        from old: FieldType, to new: FieldType, value: String, target: String
    ) -> String? {
        let fallback = MigrationValues.placeholder(new)
        if case .optional(let wrapped) = old, !new.isOptional {
            if lossless(from: wrapped, to: new, field: "", target: target)?.isSame == true {
                return "\(value) ?? \(fallback)"
            }
            return failable(from: wrapped, to: new, value: "$0", target: target).map {
                "\(value).flatMap { \($0) } ?? \(fallback)"
            }
        }
        if convertsEveryValue(from: old, to: new) { return "\(value) ? 1 : 0" }
        // Made optional too: a value that does not convert can be nil.
        if case .optional(let wrapped) = new, !old.isOptional {
            return failable(from: old, to: wrapped, value: value, target: target)
        }
        return failable(from: old, to: new, value: value, target: target).map {
            "\($0) ?? \(fallback)"
        }
    }

    /// Whether every stored `old` value has a `new` one, though which is the person's choice
    /// (`true` as 1), so that the hint is not a conversion that can fail.
    static func convertsEveryValue(from old: FieldType, to new: FieldType) -> Bool {
        if case .optional(let wrapped) = new, !old.isOptional {
            return convertsEveryValue(from: old, to: wrapped)
        }
        guard case .base(.bool) = old, case .base(let to) = new else { return false }
        return numbers.contains(to)
    }

    /// The number types a `Bool` becomes 1 or 0 in.
    private static let numbers: [BaseType] = [.int, .int64, .double, .float, .decimal]

    /// A conversion from `old` to `new` that gives nil for a value it cannot convert.
    private static func failable(
        from old: FieldType, to new: FieldType, value: String, target: String
    ) -> String? {
        switch (old, new) {
        case (.base(.string), .base(.uuid)): "UUID(uuidString: \(value))"
        case (.base(.string), .base(.url)): "URL(string: \(value))"
        case (.base(.string), .base(.decimal)): "Decimal(string: \(value))"
        case (.base(.string), .base(let to))
        where [.int, .int64, .double, .float, .bool].contains(to):
            "\(to.rawValue)(\(value))"
        case (.base(let from), .base(let to))
        where [.double, .float].contains(from) && [.int, .int64, .float].contains(to):
            "\(to.rawValue)(exactly: \(value))"
        case (.base(.string), .enumeration(let name, _)):
            "\(target).\(name)(rawValue: \(value))"
        case (.enumeration, .enumeration(let name, _)):
            "\(target).\(name)(rawValue: \(value).rawValue)"
        default: nil
        }
    }
}
