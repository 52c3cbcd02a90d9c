/// How a model changed since it was last generated, judged by what the change does to the values
/// an app has already stored with the previous model. The generator knows both models (the
/// previous one from the manifest), so a change that would make stored data fail to open is
/// refused before it ships, instead of being found on users' devices.
struct ModelEvolution: Equatable {
    /// What one change does to stored data.
    enum Effect: Equatable {
        /// Old data opens, with the values it has.
        case compatible
        /// Old data opens, but stored values of a removed field are dropped on the next write:
        /// the run is refused unless the field is dropped on purpose (`--drop`).
        case dropsValues
        /// Old data would not open: the run is refused.
        case breaksStoredData
    }

    struct Change: Equatable {
        let effect: Effect
        /// One line for a person: the field, what happens to stored data, and the fix.
        let message: String
        /// The change alone, for when a migration takes care of it.
        var what: String = ""
        /// The field of the new model it is about, if any.
        var field: String?
        /// For a type change without loss, what the migration does with the stored values
        /// (``StoredConversion/promise(from:to:)``).
        var promise: String?
    }

    let model: String
    let changes: [Change]

    /// Compares `previous` (as the manifest recorded it) with `next`. Renames in `next` say
    /// which removed field an added one continues.
    init(previous: ModelSpec, next: ModelSpec) {
        model = next.typeName
        var changes: [Change] = []
        let before = Dictionary(
            previous.fields.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let continued = Set(next.fields.compactMap(\.formerName) + next.fields.map(\.name))
        // The fields no longer there: an added field of a type that loses nothing from one of
        // them may be it renamed.
        let removed = previous.fields.filter { !continued.contains($0.name) }
        let addedNames = Set(next.fields.map(\.name)).subtracting(before.keys)
        let renameCandidate = { (old: Field) -> Field? in
            next.fields.first { field in
                addedNames.contains(field.name) && field.formerName == nil
                    && StoredConversion.losesNothing(from: old.type, to: field.type)
            }
        }
        for field in next.fields {
            if let old = before[field.name] {
                changes += Self.compare(old, field, model: model)
            } else if let formerName = field.formerName, let old = before[formerName] {
                if let older = old.formerName, older != field.name {
                    // The model reads one former name: stores that still hold the one before
                    // it would not be read. A frozen version keeps reading it.
                    changes.append(
                        Change(
                            effect: .breaksStoredData,
                            message: "\(formerName) was renamed from \(older) before, and stores "
                                + "that no release opened since may still hold \(older): renamed "
                                + "again to \(field.name), the model would not read them. Keep the "
                                + "name, or migrate: the frozen version of \(model) keeps reading "
                                + "\(older) and \(formerName)",
                            what: "renamed \(formerName) (was \(older)) to \(field.name)",
                            field: field.name))
                } else {
                    // A reference is written under its new name only (``Field/renameMark``).
                    let writtenUnderBoth =
                        field.renameMark == nil
                        ? ""
                        : ", and \(field.name) is written under \(formerName) too, for a build "
                            + "of the app from before the rename"
                    changes.append(
                        Change(
                            effect: .compatible,
                            message: "renamed \(formerName) to \(field.name): stored "
                                + "\(formerName) values are read into \(field.name)"
                                + writtenUnderBoth))
                }
                changes += Self.compare(old, field, model: model)
            } else {
                let renamed = removed.first { renameCandidate($0)?.name == field.name }
                changes.append(Self.addition(field, model: model, maybeRenamed: renamed))
            }
        }
        for old in removed {
            var message =
                "removed \(old.name): stored \(old.name) values would be dropped when the store "
                + "next rewrites them. Keep the field"
            if let candidate = renameCandidate(old) {
                // `ratng` beside a removed `rating` is more likely a typo than a rename.
                if Suggestion.closest(to: candidate.name, among: [old.name]) != nil {
                    message += "; if \(candidate.name) is \(old.name) misspelled, write \(old.name)"
                }
                message +=
                    "; if \(candidate.name) is \(old.name) renamed, say so and keep them: "
                    + "--rename \(old.name)=\(candidate.name)"
            }
            changes.append(
                Change(
                    effect: .dropsValues, message: message,
                    what: "removed \(old.name) (--drop): its stored values are dropped when the "
                        + "store next rewrites them",
                    field: old.name))
        }
        self.changes = changes
    }

    /// The changes that refuse the run.
    var refusals: [Change] { changes.filter { $0.effect == .breaksStoredData } }

    private static func addition(_ field: Field, model: String, maybeRenamed old: Field?) -> Change
    {
        let token = SpecFormatter.token(field)
        if field.defaultValue != nil, field.defaultValue != DefaultValue.none {
            let shared =
                field.index == .unique
                ? ", so they all share it: duplicates() lists them, and saving one throws "
                    + "notUnique until its \(field.name) changes (without a default, an optional "
                    + "unique field loads nil, which no two values share)"
                : ""
            return Change(
                effect: .compatible,
                message: "added \(token): stored values load with the default" + shared)
        }
        if field.type.isOptional {
            return Change(
                effect: .compatible,
                message: "added \(token): stored values load with \(field.name) = nil")
        }
        let base = SpecFormatter.spelling(field.type)
        let rename = old.map {
            "If \(field.name) is \($0.name) renamed, say so and keep every stored \($0.name): "
                + "--rename \($0.name)=\(field.name). Otherwise give"
        }
        return Change(
            effect: .breaksStoredData,
            message: "\(field.name):\(base) is a new required field without a default: stores "
                + "saved by the previous \(model) have no \(field.name), so they would not "
                + "open. \(rename ?? "Give") it a default "
                + "(\(field.name):\(base)=\(Self.exampleDefault(field.type))) "
                + "or make it optional (\(field.name):\(base)?)",
            what: "added \(field.name):\(base), without a default", field: field.name)
    }

    private static func compare(_ old: Field, _ new: Field, model: String) -> [Change] {
        let (was, now) = (SpecFormatter.spelling(old.type), SpecFormatter.spelling(new.type))
        let (oldShape, newShape) = (shape(old.type), shape(new.type))
        let widened = !old.type.isOptional && newShape == .optional(oldShape)
        // A default other than nil: what a missing key loads as. An optional field with one
        // writes a nil as null; one without leaves the key out.
        let given = { (field: Field) -> DefaultValue? in
            field.defaultValue == DefaultValue.none ? nil : field.defaultValue
        }
        var changes: [Change] = []
        let madeRequired = old.type.isOptional && oldShape == .optional(newShape)
        if madeRequired {
            let base = SpecFormatter.spelling(new.type)
            // A nil stored without the key loads as the new default; one stored as null (the
            // field had a default) cannot load into a required field.
            if given(old) == nil, given(new) != nil {
                let shared =
                    new.index == .unique
                    ? ", so the values stored with none all share it: duplicates() lists them, "
                        + "and saving one throws notUnique until its \(new.name) changes"
                    : ""
                changes.append(
                    Change(
                        effect: .compatible,
                        message: "\(new.name) is required now (was \(was)): stored values "
                            + "without one load with the default" + shared))
            } else {
                let fix =
                    given(old) == nil
                    ? "Keep it optional, or give it a default (\(new.name):\(base)="
                        + "\(exampleDefault(new.type)))"
                    : "Keep it optional: a nil was stored as null, which no default replaces"
                return [
                    Change(
                        effect: .breaksStoredData,
                        message: "\(new.name) is required now (was \(was)): stores saved by the "
                            + "previous \(model) may have no \(new.name), so they would not open. "
                            + fix,
                        what: "\(new.name) is required now (was \(was))", field: new.name)
                ]
            }
        }
        guard oldShape == newShape || widened || madeRequired else {
            let what = new.name == "id" ? "the id type" : new.name
            let lossless =
                StoredConversion.losesNothing(from: old.type, to: new.type)
            let fix =
                lossless
                ? "Keep the type, or migrate (--migrate): "
                    + StoredConversion.promise(from: old.type, to: new.type)
                : "Keep the type, or add a field with another name for the new type"
            return [
                Change(
                    effect: .breaksStoredData,
                    message: "\(what) changes type from \(was) to \(now): stores saved by the "
                        + "previous \(model) hold \(was) values, so they would not open. \(fix)",
                    what: "\(what) changes type from \(was) to \(now)", field: new.name,
                    promise: StoredConversion.promise(from: old.type, to: new.type))
            ]
        }
        if widened {
            changes.append(
                Change(effect: .compatible, message: "\(new.name) is optional now (was \(was))"))
        }
        if let oldDefault = given(old), given(new) == nil {
            // Values stored before the field existed have no key: they would not open, or (an
            // optional field) would load nil where they loaded the default.
            let kept = Field(name: new.name, type: new.type, defaultValue: oldDefault)
            let harm =
                new.type.isOptional
                ? "they would load with \(new.name) = nil instead of the default"
                : "they would not open"
            changes.append(
                Change(
                    effect: .breaksStoredData,
                    message: "\(new.name) loses its default: values stored before "
                        + "\(new.name) existed have none, so \(harm). Keep the default: "
                        + SpecFormatter.token(kept),
                    what: "\(new.name) loses its default", field: new.name))
        } else if let oldDefault = given(old), let newDefault = given(new), newDefault != oldDefault
        {
            changes.append(
                Change(
                    effect: .compatible,
                    message: "\(new.name) has a new default: values stored before "
                        + "\(new.name) existed load with it"))
        } else if old.type.isOptional, new.type.isOptional, given(old) == nil, given(new) != nil {
            let kept = Field(name: new.name, type: new.type)
            changes.append(
                Change(
                    effect: .breaksStoredData,
                    message: "\(new.name) gets a default: a value saved with \(new.name) = nil was "
                        + "stored without the key, so it would load with the default instead. Keep "
                        + "it without one (\(SpecFormatter.token(kept))), or migrate",
                    what: "\(new.name) gets a default", field: new.name))
        }
        changes += relationChanges(old, new)
        let oldCases = old.type.allTypes.flatMap(\.enumCases)
        let newCases = new.type.allTypes.flatMap(\.enumCases)
        let removed = oldCases.filter { !newCases.contains($0) }
        let addedCases = newCases.filter { !oldCases.contains($0) }
        if !removed.isEmpty {
            changes.append(
                Change(
                    effect: .breaksStoredData,
                    message: "\(new.name) no longer has the case(s) "
                        + "\(removed.joined(separator: ", ")), which stored values may hold, so "
                        + "stores saved by the previous \(model) would not open. Keep every case "
                        + "and add new ones: "
                        + SpecFormatter.token(
                            Field(
                                name: new.name, type: old.type,
                                defaultValue: new.defaultValue ?? old.defaultValue)),
                    what: "\(new.name) no longer has \(removed.joined(separator: ", "))",
                    field: new.name))
        } else if !addedCases.isEmpty {
            changes.append(
                Change(
                    effect: .compatible,
                    message: "\(new.name) has new case(s) \(addedCases.joined(separator: ", "))"))
        }
        return changes
    }

    /// What a reference, `:unique` or `:index` added, removed or changed does: none changes the
    /// stored JSON, so stores open as they are, and the table records the change when it opens.
    private static func relationChanges(_ old: Field, _ new: Field) -> [Change] {
        var changes: [Change] = []
        let change = { (message: String) in
            changes.append(Change(effect: .compatible, message: message))
        }
        switch (old.reference, new.reference) {
        case (nil, let added?):
            change(
                "\(new.name) refers to \(added.model) now (\(added.rule.rawValue)): stored values "
                    + "whose \(new.name) names no \(added.model) still open and are kept; "
                    + "danglingReferences() lists them, and saving one throws missingReference "
                    + "until it names a stored \(added.model)")
        case (let removed?, nil):
            change(
                "\(new.name) no longer refers to \(removed.model): deleting a \(removed.model) "
                    + "leaves it as it is")
        case (let was?, let now?) where was.rule != now.rule:
            change(
                "\(new.name): deleting a \(now.model) now follows \(now.rule.rawValue) (was "
                    + "\(was.rule.rawValue))")
        default: break
        }
        if old.index != new.index {
            switch new.index {
            case .unique?:
                change(
                    "\(new.name) is unique now: a store whose values already share a "
                        + "\(new.name) still opens and keeps every value; duplicates() lists "
                        + "them, and saving one of them throws notUnique until its \(new.name) "
                        + "differs")
            case .index?: change("\(new.name) has an index now, made when the store opens")
            case nil:
                let index = new.reference == nil ? " and has no index" : ""
                change(
                    old.index == .unique
                        ? "\(new.name) is no longer unique\(index)"
                        : "\(new.name) has no index of its own now")
            }
        }
        return changes
    }

    /// The type with enum names and cases left out: what must stay the same for stored JSON to
    /// decode, apart from the cases.
    private static func shape(_ type: FieldType) -> FieldType {
        switch type {
        case .base: type
        case .enumeration: .enumeration(name: "", cases: [])
        case .optional(let inner): .optional(shape(inner))
        case .array(let inner): .array(shape(inner))
        case .dictionary(let inner): .dictionary(shape(inner))
        }
    }

    /// A default that `type` accepts, for the messages that suggest one.
    static func exampleDefault(_ type: FieldType) -> String {
        switch type {
        case .base(let base): base.row.exampleDefault
        case .optional: "nil"
        case .array, .dictionary: "[]"
        case .enumeration(_, let cases): cases.first ?? "a"
        }
    }
}

extension ModelEvolution {
    /// What a run prints about a model generated before: lines before the file statuses, and
    /// warnings for stderr.
    struct Report {
        var lines: [String] = []
        var warnings: [Diagnostic] = []
    }

    /// Compares `spec` with the `previous` spec the manifest recorded: keeps the renames
    /// recorded before (stored data may still use the old names), checks the new ones, and
    /// throws a `SpecError` naming every change that would stop stored data opening.
    static func check(
        _ request: inout GenerateRequest, previous: ModelSpec, history: ModelHistory
    ) throws -> Report {
        request.history = history
        // A dropped field's former name too: values saved before its rename hold that key. (A
        // field dropped now but still given is refused below, as a drop of no removed field.)
        let formerNames = request.droppedFields.compactMap { name in
            previous.fields.first { $0.name == name }?.formerName
        }
        let returning = request.spec.fields.map(\.name).filter(
            Set(history.dropped + formerNames).contains)
        if let name = returning.first, !request.migrate {
            throw SpecError(
                "\(request.spec.typeName).\(name): a field \(name) was dropped before (--drop, "
                    + "under this name or a later one), and stored values may still hold its "
                    + "former values under that key: the new \(name) would load them (or, of "
                    + "another type, stop the store opening). Give the field another name, or add "
                    + "--migrate: the model as last generated is frozen, and the values stored "
                    + "before open without the old \(name). Nothing was written.")
        }
        // A field renamed before reads its former key while its own is missing: a new field of
        // that name would take those values from it (and the renamed field, without them, would
        // not open).
        let reused = previous.fields.compactMap { field in
            field.formerName.flatMap { former in
                request.spec.fields.contains { $0.name == field.name && $0.formerName == nil }
                    && request.spec.fields.contains { $0.name == former }
                    ? (former, field.name) : nil
            }
        }
        if let (former, renamed) = reused.first, !request.migrate {
            throw SpecError(
                "\(request.spec.typeName).\(former): \(former) was renamed to \(renamed) before "
                    + "(--rename), and values stored before the rename hold \(renamed)'s values "
                    + "under the key \(former): the new \(former) would load them, and \(renamed) "
                    + "would lose them (or, required, stop the store opening). Give the field "
                    + "another name, or add --migrate: the model as last generated is frozen, and "
                    + "reads \(former) into \(renamed) as before. Nothing was written.")
        }
        // Run again, a migration's `--drop` names a field the current version no longer has:
        // it was dropped by that migration, and there is nothing to drop now.
        if request.migrate, request.history.current > 1,
            request.spec.fields.map(\.name) == previous.fields.map(\.name)
        {
            let names = Set(previous.fields.map(\.name))
            request.droppedFields.removeAll { !names.contains($0) }
        }
        var report = try check(
            &request.spec, previous: previous, migrate: request.migrate,
            dropping: request.droppedFields)
        if !request.migrate {
            request.history.dropped = Set(history.dropped + request.droppedFields + formerNames)
                .sorted()
        }
        // The command that made the current schema version, run again (a script, or a README's
        // history followed twice): nothing changed since, so nothing is frozen or migrated, and
        // the files come out as they are.
        if request.migrate, request.history.current > 1, request.spec == previous,
            returning.isEmpty, reused.isEmpty
        {
            report.lines.append(
                "  note     \(request.spec.typeName) is schema version \(request.history.current) "
                    + "already, with these fields: nothing to migrate again")
            return report
        }
        if request.migrate {
            guard
                !ModelEvolution(previous: previous, next: request.spec).refusals.isEmpty
                    || !returning.isEmpty || !reused.isEmpty
            else {
                throw SpecError(
                    "--migrate: stored \(request.spec.typeName) data opens with this model as "
                        + "it is, so there is nothing to migrate; drop --migrate (it would add a "
                        + "schema version each time it is given)")
            }
            request.history.freeze(previous)
            let step = request.history.current - 1
            report.lines.append(
                "  note     migrating: \(request.spec.typeName) is schema version "
                    + "\(request.history.current) now; stores written by version \(step) open "
                    + "through \(Names(request.spec).type).V\(step).migrated() in "
                    + "\(Names(request.spec).migrationFile(from: step)) (written once; yours to edit)"
            )
            let file = Names(request.spec).migrationFile(from: step)
            let decisions = MigrationValues.assignments(
                old: previous, new: request.spec,
                targetType: "\(request.spec.typeName).V\(step + 1)"
            )
            .filter { $0.decision != nil }
            for assignment in decisions {
                let hint = assignment.hint.map { " (for example \($0))" } ?? ""
                report.lines.append("  decide   \(file): \(assignment.decision ?? "")\(hint)")
            }
            if !decisions.isEmpty {
                report.warnings.append(
                    .warning(
                        "\(request.spec.typeName): \(decisions.count) stored value(s) to "
                            + "decide in \(file): until each `undecided` call there is replaced with "
                            + "a value, stores written by version \(step) or earlier do not open (they "
                            + "are left as they are) and their generated tests fail, naming the file"
                    ))
            }
        }
        return report
    }

    /// Compares `spec` with `previous`; with `migrate`, a breaking change goes through (a
    /// migration will carry stored values over) instead of being refused, and a removed field
    /// goes through only when `dropping` names it.
    static func check(
        _ spec: inout ModelSpec, previous: ModelSpec, migrate: Bool = false,
        dropping: [String] = []
    ) throws -> Report {
        // A rename recorded before is kept, unless a field of the former name is back (refused
        // without --migrate, whose frozen version reads the former key).
        for index in spec.fields.indices where spec.fields[index].formerName == nil {
            let name = spec.fields[index].name
            guard let former = previous.fields.first(where: { $0.name == name })?.formerName,
                !spec.fields.contains(where: { $0.name == former })
            else { continue }
            spec.fields[index].formerName = former
        }
        for field in spec.fields {
            guard let former = field.formerName,
                !previous.fields.contains(where: {
                    $0.name == field.name && $0.formerName == former
                })
            else { continue }
            guard previous.fields.contains(where: { $0.name == former }) else {
                let suggestion = Suggestion.closest(
                    to: former, among: previous.fields.map(\.name).filter { $0 != "id" }
                ).map { " Did you mean \($0)?" }
                throw SpecError(
                    "--rename \(former)=\(field.name): the \(spec.typeName) generated before has "
                        + "no field '\(former)'.\(suggestion ?? "") Give the name it had then")
            }
            guard !previous.fields.contains(where: { $0.name == field.name }) else {
                throw SpecError(
                    "--rename \(former)=\(field.name): '\(field.name)' was already a field of the "
                        + "\(spec.typeName) generated before; rename to a name it did not have")
            }
        }
        let evolution = ModelEvolution(previous: previous, next: spec)
        try refuseDropsOfFieldsNotRemoved(dropping, spec: spec, previous: previous)
        if previous.idField?.type != spec.idField?.type {
            throw SpecError(
                "\(spec.typeName): the id type cannot change from "
                    + "\(previous.idField.map { SpecFormatter.spelling($0.type) } ?? "?") to "
                    + "\(spec.idField.map { SpecFormatter.spelling($0.type) } ?? "?"), not even "
                    + "with --migrate: stored changes and other models refer to values by id. "
                    + "Keep the id type. Nothing was written.")
        }
        let unmigrated = migrate ? [] : evolution.refusals
        let undropped = evolution.changes.filter {
            $0.effect == .dropsValues && !dropping.contains($0.field ?? "")
        }
        guard unmigrated.isEmpty, undropped.isEmpty else {
            let harm = [
                unmigrated.isEmpty ? nil : "could not open it",
                undropped.isEmpty ? nil : "would lose some of it",
            ]
            var lines = (unmigrated + undropped).map { "  - " + $0.message }
            if !unmigrated.isEmpty {
                lines.append("  Or keep the change and migrate stored values: add --migrate")
            }
            if !undropped.isEmpty {
                let names = undropped.compactMap(\.field).joined(separator: ",")
                let fields = undropped.count == 1 ? "field's" : "fields'"
                lines.append(
                    "  Or drop the removed \(fields) stored values on purpose: add --drop \(names)")
            }
            throw SpecError(
                "\(spec.typeName) cannot change this way: apps that saved data with the "
                    + "\(spec.typeName) generated before "
                    + harm.compactMap { $0 }.joined(separator: " or ")
                    + ". Nothing was written.\n" + lines.joined(separator: "\n"))
        }
        var report = Report()
        guard !evolution.changes.isEmpty else { return report }
        report.lines.append("\(spec.typeName) changed since it was last generated:")
        let decided = Set(
            MigrationValues.assignments(old: previous, new: spec, targetType: "")
                .filter { $0.decision != nil }.map(\.field.name))
        for change in evolution.changes {
            let migrated = change.effect == .breaksStoredData
            let toDecide = migrated && change.field.map(decided.contains) == true
            let label =
                change.effect == .dropsValues
                ? "drop" : toDecide ? "decide" : migrated ? "migrate" : "note"
            let message =
                change.effect == .dropsValues
                ? change.what
                : toDecide
                    ? change.what + ": you decide its stored values in the migration"
                    : migrated
                        ? change.what + ": "
                            + (change.promise
                                ?? "the migration converts every stored value, losing nothing")
                        : change.message
            report.lines.append(
                "  \(label.padding(toLength: 9, withPad: " ", startingAt: 0))\(message)")
        }
        return report
    }

    /// Refuses a `--drop` that names no field removed since `previous`: a field never there, a
    /// field still given, or one renamed (its values are kept).
    private static func refuseDropsOfFieldsNotRemoved(
        _ dropping: [String], spec: ModelSpec, previous: ModelSpec
    ) throws {
        for name in dropping {
            if let renamed = spec.fields.first(where: { $0.formerName == name }),
                previous.fields.contains(where: { $0.name == renamed.name })
            {
                throw SpecError(
                    "--drop \(name): \(name) was renamed to \(renamed.name) before, so its stored "
                        + "values are \(renamed.name)'s now; to drop them, leave \(renamed.name) out "
                        + "and give --drop \(renamed.name)")
            }
            if let renamed = spec.fields.first(where: { $0.formerName == name }) {
                throw SpecError(
                    "--drop \(name): \(name) is renamed to \(renamed.name), so its stored values "
                        + "are kept; give --rename \(name)=\(renamed.name) or --drop \(name), not both"
                )
            }
            guard !spec.fields.contains(where: { $0.name == name }) else {
                throw SpecError(
                    "--drop \(name): \(name) is still a field of \(spec.typeName); leave it out of "
                        + "the fields to drop it, or leave out --drop \(name)")
            }
            guard previous.fields.contains(where: { $0.name == name }) else {
                let removed = previous.fields.map(\.name).filter { old in
                    !spec.fields.contains { $0.name == old || $0.formerName == old }
                }
                let suggestion =
                    Suggestion.closest(to: name, among: removed).map { " Did you mean \($0)?" }
                    ?? ""
                throw SpecError(
                    "--drop \(name): the \(spec.typeName) generated before has no field "
                        + "'\(name)'.\(suggestion) Give the name of a field you left out")
            }
        }
    }
}
