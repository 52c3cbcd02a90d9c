/// The Swift expressions a generated migration starts with: each field of the new version
/// taken from the old value where it still fits, converted where a conversion loses nothing
/// (``StoredConversion``), and otherwise a call that throws until a person replaces it with
/// the value they decide on, so that no made-up value ever reaches a user's store.
enum MigrationValues {
    /// One argument of a migration: the new version's field, the expression for it, and what a
    /// person must decide when the expression is `try undecided(…)`.
    struct Assignment {
        let field: Field
        let value: String
        let decision: String?
        /// Swift to start the decision from, when there is a conversion to suggest.
        var hint: String?
    }

    /// An assignment for each field of `new`, from a value of `old` (the version before it);
    /// `targetType` names the new version's type (`Question.V2`).
    static func assignments(old: ModelSpec, new: ModelSpec, targetType: String) -> [Assignment] {
        let continued = Set(new.fields.map(\.name) + new.fields.compactMap(\.formerName))
        // A new field may be made from one that this version removes: the old value has it.
        let removed = old.fields.filter { !continued.contains($0.name) }
            .map { "self.\(Identifier.escaped($0.name))" }
        return new.fields.map { field in
            let source =
                old.fields.first { $0.name == field.name }
                ?? field.formerName.flatMap { former in old.fields.first { $0.name == former } }
            var (value, decision, hint) = expression(
                for: field, from: source, targetType: targetType)
            if source == nil, decision != nil, !removed.isEmpty {
                decision? += " (\(removed.joined(separator: ", ")), removed now, can still be read)"
            }
            return Assignment(field: field, value: value, decision: decision, hint: hint)
        }
    }

    /// The expression for `field` of the new version, read from `source` (the same field, or
    /// the one it was renamed from) of the old version, and what a person must decide when
    /// none can be written for them, with Swift to start from.
    static func expression(
        for field: Field, from source: Field?, targetType: String
    ) -> (value: String, decision: String?, hint: String?) {
        let undecided = "try undecided(\(Literals.stringLiteral(field.name)))"
        guard let source else {
            if let value = field.defaultValue {
                return (Literals.swift(value, type: field.type), nil, nil)
            }
            if field.type.isOptional { return ("nil", nil, nil) }
            return (
                undecided, "\(field.name) is new and has no default: give stored values one",
                placeholder(field.type)
            )
        }
        let old = "self.\(Identifier.escaped(source.name))"
        if let conversion = StoredConversion.lossless(
            from: source.type, to: field.type, field: field.name, target: targetType)
        {
            return (conversion.migration(old), nil, nil)
        }
        let was = SpecFormatter.spelling(source.type)
        let now = SpecFormatter.spelling(field.type)
        let renamed = source.name == field.name ? "" : " (\(source.name))"
        var decision = "\(field.name) was \(was)\(renamed), is \(now) now"
        let removed = source.type.allTypes.flatMap(\.enumCases).filter {
            !field.type.allTypes.flatMap(\.enumCases).contains($0)
        }
        if source.type.isOptional, !field.type.isOptional {
            decision += ": stored values may be nil"
        } else if !removed.isEmpty {
            decision += ": stored values of \(removed.joined(separator: ", ")) have no case now"
        }
        let hint = StoredConversion.hint(
            from: source.type, to: field.type, value: old, target: targetType)
        if !source.type.isOptional || field.type.isOptional, removed.isEmpty {
            // A conversion that fails for some values has a hint; without one, no value
            // converts by itself.
            decision +=
                hint == nil
                ? ": no conversion is written for it; decide what each stored value becomes"
                : StoredConversion.convertsEveryValue(from: source.type, to: field.type)
                    ? ": every stored value converts, in a way that is yours to choose"
                    : ": some stored values may not convert"
        }
        return (undecided, decision, hint)
    }

    /// A value of `type`, in the examples a decision starts from.
    static func placeholder(_ type: FieldType) -> String {
        switch type {
        case .optional: "nil"
        case .array: "[]"
        case .dictionary: "[:]"
        case .enumeration(_, let cases): "." + Identifier.escaped(cases[0])
        case .base(let base): base.row.placeholder
        }
    }
}
