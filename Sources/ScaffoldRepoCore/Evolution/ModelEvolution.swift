/// How a model changed since it was last generated, judged by what the change does to the values
/// an app has already stored with the previous model. The generator knows both models (the
/// previous one from the manifest), so a change that would make stored data fail to open is
/// refused before it ships, instead of being found on users' devices.
struct ModelEvolution: Equatable {
    /// What one change does to stored data.
    enum Effect: Equatable {
        /// Old data opens, with the values it has.
        case compatible
        /// Old data opens, but stored values of a removed field are dropped on the next write.
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
        var added: [Field] = []
        for field in next.fields {
            if let old = before[field.name] {
                changes += Self.compare(old, field, model: model)
            } else if let formerName = field.formerName, let old = before[formerName] {
                changes.append(
                    Change(
                        effect: .compatible,
                        message: "renamed \(formerName) to \(field.name): stored \(formerName) "
                            + "values are read into \(field.name)"))
                changes += Self.compare(old, field, model: model)
            } else {
                added.append(field)
                changes.append(Self.addition(field, model: model))
            }
        }
        for old in previous.fields where !continued.contains(old.name) {
            var message =
                "removed \(old.name): its stored values are dropped when the store next "
                + "rewrites its file"
            let sameType = added.filter { $0.type == old.type }.map(\.name)
            if let candidate = sameType.first {
                message +=
                    "; if \(candidate) is \(old.name) renamed, say so and keep them: "
                    + "--rename \(old.name)=\(candidate)"
            }
            changes.append(Change(effect: .dropsValues, message: message))
        }
        self.changes = changes
    }

    /// The changes that refuse the run.
    var refusals: [Change] { changes.filter { $0.effect == .breaksStoredData } }

    private static func addition(_ field: Field, model: String) -> Change {
        let token = SpecFormatter.token(field)
        if field.type.isOptional {
            return Change(
                effect: .compatible,
                message: "added \(token): stored values load with \(field.name) = nil")
        }
        if field.defaultValue != nil {
            return Change(
                effect: .compatible,
                message: "added \(token): stored values load with the default")
        }
        let base = SpecFormatter.spelling(field.type)
        return Change(
            effect: .breaksStoredData,
            message: "\(field.name):\(base) is a new required field without a default: stores "
                + "saved by the previous \(model) have no \(field.name), so they would not "
                + "open. Give it a default (\(field.name):\(base)=\(Self.exampleDefault(field.type))) "
                + "or make it optional (\(field.name):\(base)?)",
            what: "added \(field.name):\(base), without a default")
    }

    private static func compare(_ old: Field, _ new: Field, model: String) -> [Change] {
        let (was, now) = (SpecFormatter.spelling(old.type), SpecFormatter.spelling(new.type))
        let (oldShape, newShape) = (shape(old.type), shape(new.type))
        let widened = !old.type.isOptional && newShape == .optional(oldShape)
        if old.type.isOptional, oldShape == .optional(newShape) {
            let base = SpecFormatter.spelling(new.type)
            return [
                Change(
                    effect: .breaksStoredData,
                    message: "\(new.name) is required now (was \(was)): stores saved by the "
                        + "previous \(model) may have no \(new.name), so they would not open. Keep "
                        + "it optional, or give it a default (\(new.name):\(base)="
                        + "\(exampleDefault(new.type)))",
                    what: "\(new.name) is required now (was \(was))")
            ]
        }
        guard oldShape == newShape || widened else {
            let what = new.name == "id" ? "the id type" : new.name
            return [
                Change(
                    effect: .breaksStoredData,
                    message: "\(what) changes type from \(was) to \(now): stores saved by the "
                        + "previous \(model) hold \(was) values, so they would not open. Keep the "
                        + "type, or add a field with another name for the new type",
                    what: "\(what) changes type from \(was) to \(now)")
            ]
        }
        var changes: [Change] = []
        if widened {
            changes.append(
                Change(effect: .compatible, message: "\(new.name) is optional now (was \(was))"))
        }
        if let oldDefault = old.defaultValue, !new.type.isOptional {
            if new.defaultValue == nil {
                let kept = Field(name: new.name, type: new.type, defaultValue: oldDefault)
                changes.append(
                    Change(
                        effect: .breaksStoredData,
                        message: "\(new.name) loses its default: values stored before "
                            + "\(new.name) existed have none, so they would not open. Keep the "
                            + "default: \(SpecFormatter.token(kept))",
                        what: "\(new.name) loses its default"))
            } else if new.defaultValue != oldDefault {
                changes.append(
                    Change(
                        effect: .compatible,
                        message: "\(new.name) has a new default: values stored before "
                            + "\(new.name) existed load with it"))
            }
        }
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
                    what: "\(new.name) no longer has \(removed.joined(separator: ", "))"))
        } else if !addedCases.isEmpty {
            changes.append(
                Change(
                    effect: .compatible,
                    message: "\(new.name) has new case(s) \(addedCases.joined(separator: ", "))"))
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

    private static func exampleDefault(_ type: FieldType) -> String {
        switch type {
        case .base(.string): "\"\""
        case .base(.bool): "false"
        case .base(.int), .base(.int64), .base(.double), .base(.float), .base(.decimal): "0"
        case .base(.date): "0"
        case .array, .dictionary: "[]"
        case .enumeration(_, let cases): cases.first ?? "a"
        default: "…"
        }
    }
}

extension ModelEvolution {
    /// What a run prints about a model generated before: lines before the file statuses, and
    /// warnings for stderr.
    struct Report {
        var lines: [String] = []
        var warnings: [String] = []
    }

    /// Compares `spec` with the `previous` spec the manifest recorded: keeps the renames
    /// recorded before (stored data may still use the old names), checks the new ones, and
    /// throws a `SpecError` naming every change that would stop stored data opening.
    static func check(
        _ request: inout GenerateRequest, previous: ModelSpec, history: ModelHistory
    ) throws -> Report {
        request.history = history
        var report = try check(&request.spec, previous: previous, migrate: request.migrate)
        if request.migrate {
            guard !ModelEvolution(previous: previous, next: request.spec).refusals.isEmpty else {
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
        }
        return report
    }

    /// Compares `spec` with `previous`; with `migrate`, a breaking change goes through (a
    /// migration will carry stored values over) instead of being refused.
    static func check(
        _ spec: inout ModelSpec, previous: ModelSpec, migrate: Bool = false
    ) throws -> Report {
        var reusedFormerNames: [String] = []
        for index in spec.fields.indices where spec.fields[index].formerName == nil {
            let name = spec.fields[index].name
            guard let former = previous.fields.first(where: { $0.name == name })?.formerName
            else { continue }
            if spec.fields.contains(where: { $0.name == former }) {
                reusedFormerNames.append(
                    "\(former) was renamed to \(name) before: stored values that still have the "
                        + "key \(former) now load into the new field \(former), not into \(name)")
            } else {
                spec.fields[index].formerName = former
            }
        }
        for field in spec.fields {
            guard let former = field.formerName,
                !previous.fields.contains(where: {
                    $0.name == field.name && $0.formerName == former
                })
            else { continue }
            guard previous.fields.contains(where: { $0.name == former }) else {
                throw SpecError(
                    "--rename \(former)=\(field.name): the \(spec.typeName) generated before has "
                        + "no field '\(former)'; give the name it had then")
            }
            guard !previous.fields.contains(where: { $0.name == field.name }) else {
                throw SpecError(
                    "--rename \(former)=\(field.name): '\(field.name)' was already a field of the "
                        + "\(spec.typeName) generated before; rename to a name it did not have")
            }
        }
        let evolution = ModelEvolution(previous: previous, next: spec)
        if previous.idField?.type != spec.idField?.type {
            throw SpecError(
                "\(spec.typeName): the id type cannot change from "
                    + "\(previous.idField.map { SpecFormatter.spelling($0.type) } ?? "?") to "
                    + "\(spec.idField.map { SpecFormatter.spelling($0.type) } ?? "?"), not even "
                    + "with --migrate: stored changes and other models refer to values by id. "
                    + "Keep the id type. Nothing was written.")
        }
        guard evolution.refusals.isEmpty || migrate else {
            throw SpecError(
                "\(spec.typeName) cannot change this way: apps that saved data with the "
                    + "\(spec.typeName) generated before could not open it. Nothing was written.\n"
                    + evolution.refusals.map { "  - " + $0.message }.joined(separator: "\n")
                    + "\n  Or keep the change and migrate stored values: add --migrate")
        }
        var report = Report()
        report.warnings = reusedFormerNames.map { "warning: \(spec.typeName): \($0)" }
        guard !evolution.changes.isEmpty else { return report }
        report.lines.append("\(spec.typeName) changed since it was last generated:")
        for change in evolution.changes {
            let migrated = change.effect == .breaksStoredData
            let label = change.effect == .dropsValues ? "warning" : migrated ? "migrate" : "note"
            let message =
                migrated ? change.what + ": the migration converts stored values" : change.message
            report.lines.append(
                "  \(label.padding(toLength: 9, withPad: " ", startingAt: 0))\(message)")
            if change.effect == .dropsValues {
                report.warnings.append("warning: \(spec.typeName): \(change.message)")
            }
        }
        return report
    }
}
