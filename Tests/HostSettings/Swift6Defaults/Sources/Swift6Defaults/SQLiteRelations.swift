internal import Foundation

// Related models in the module's database: a field that holds another model's id (a reference,
// with a delete rule), fields whose values are unique or indexed, writes across several models
// in one transaction, and the changes a write makes to other models' tables, told to their
// repositories in this process.
//
// Each table records its references in `store_references` when it opens, so a delete finds
// every table that refers to it, in this process or another, whichever repositories are open.
//
// scaffold-repo writes one copy of this file per module that has a sqlite repository, and
// `scaffold-repo destroy` removes it with the last of them.

/// The failures of a sqlite repository that a model's rules cause: the write broke one, and its
/// transaction was rolled back.
nonisolated protocol SQLiteFailure: StoreFiles.Failure {
    /// Another value already holds `value` in the `:unique` field `field`.
    static func notUnique(field: String, value: String) -> Self
    /// The reference `field` holds `id`, which no value of the model it refers to has.
    static func missingReference(field: String, id: String) -> Self
    /// A `restrict` reference: `count` values of `model` still refer to a deleted value.
    static func stillReferenced(by model: String, count: Int) -> Self
}

/// What deleting a value does to the values of other models that refer to it.
public nonisolated enum DeleteRule: String, Sendable {
    /// They are deleted too, in the same transaction, and so are the values that refer to them.
    case cascade
    /// Their reference is set to nil, in the same transaction.
    case nullify
    /// The delete throws while any value refers to it.
    case restrict
}

/// A field of `Value` that holds the id of a value of another model, its parent.
nonisolated struct SQLiteReference<Value>: Sendable {
    /// The field's JSON key, such as `folderID`.
    let field: String
    /// The parent's table.
    let table: String
    let rule: DeleteRule
    /// The parent's id that a value refers to; nil when its optional field is nil.
    let parentID: @Sendable (Value) -> (any SQLiteKey)?
}

/// What a table keeps in order beyond its rows: its references, and its `:unique` and `:index`
/// fields, each with an index.
nonisolated struct SQLiteSchema<Value>: Sendable {
    /// The model's name, which a `restrict` error names.
    var model: String
    /// Fields with an index: lookups and sorts on them read the index, not every row.
    var indexed: [String] = []
    /// Fields whose values no two values share (nil apart), each with an index.
    var unique: [String] = []
    var references: [SQLiteReference<Value>] = []
    /// The keys of the model's JSON as this code writes them, with `?` those whose absence
    /// decodes as nil (an optional field without a default), and `!` those written as `null`
    /// for nil (an optional field with a default): a row written before a field was renamed or
    /// added with a default, or before its nil was written (so that SQL reads nil where Swift
    /// decodes the default), is rewritten this way when the table opens (``SQLiteTable``).
    /// Empty: not checked.
    var storedKeys: [String] = []
    /// The former key of each renamed field, and its key now (`["name": "title"]`).
    var renamed: [String: String] = [:]
    /// How many times the model's definition changed since it was first generated, plus one
    /// (its fields, their types, references and delete rules, `:unique` and `:index`): the
    /// manifest's `revision`. A table whose records a later revision wrote keeps them when an
    /// earlier one opens it (``SQLiteTable/recordSchema()``). 0: not known.
    var revision = 0

    /// The keys every value's JSON holds: a row without one was written before its field was
    /// added (or renamed), and Swift decodes a default (or the former key) that SQL cannot see.
    var requiredKeys: [String] {
        storedKeys.filter { !$0.hasSuffix("?") }.map {
            $0.hasSuffix("!") ? String($0.dropLast()) : $0
        }
    }

    /// Every key the code writes, without its mark.
    var keys: [String] {
        storedKeys.map { $0.hasSuffix("?") || $0.hasSuffix("!") ? String($0.dropLast()) : $0 }
    }

    /// What `store_layouts` records once the rows are rewritten; nil when nothing is known.
    var layout: String? {
        guard !storedKeys.isEmpty else { return nil }
        let renames = renamed.sorted { $0.key < $1.key }.map { "\($0.key)>\($0.value)" }
        return (storedKeys.sorted() + renames).joined(separator: ",")
    }

    /// The mark of each renamed field but a reference, with its former key and its key now:
    /// the model writes such a field under both keys, and the mark beside them (the generated
    /// `RenameMarks`, `title>headline`), so that a build from before the rename reads it. That
    /// build changes only the former key: where the two differ beside the mark, Swift decodes
    /// the former one (``changedByAnOlderBuild(former:now:mark:)``). A reference is written
    /// under its new key only, which an older build's delete rules follow.
    var renameMarks: [(former: String, now: String, mark: String)] {
        let referenceFields = Set(references.map(\.field))
        return renamed.sorted { $0.key < $1.key }.compactMap { former, now in
            referenceFields.contains(now) ? nil : (former, now, "\(former)>\(now)")
        }
    }

    /// A condition on a row's JSON `value`: it holds the `mark` and the `former` key of a
    /// renamed field (``renameMarks``), and the former key's value is not the one under `now`,
    /// so that Swift decodes the former one, which a build from before the rename changed.
    static func changedByAnOlderBuild(former: String, now: String, mark: String) -> String {
        let (former, now, mark) = ("'$.\"\(former)\"'", "'$.\"\(now)\"'", "'$.\"\(mark)\"'")
        return """
            (json_type(value, \(mark)) IS NOT NULL AND json_type(value, \(former)) IS NOT NULL \
            AND (json_type(value, \(former)) IS NOT json_type(value, \(now)) \
            OR json_extract(value, \(former)) IS NOT json_extract(value, \(now))))
            """
    }

    /// Whether a reference field was renamed: its delete rules must not see some rows under
    /// each name, so the rows are rewritten in the transaction that records the new name.
    var renamesAReference: Bool {
        references.contains { reference in renamed.values.contains(reference.field) }
    }

    /// Every field that has an index, in a fixed order and each once: a renamed reference's
    /// former key too (``formerReferences``).
    var indexedFields: [String] {
        var fields: [String] = []
        for field in references.map(\.field) + unique + indexed + formerReferences.map(\.field)
        where !fields.contains(field) {
            fields.append(field)
        }
        return fields
    }

    /// Each renamed reference field's former key, with its key now (marked `?` when a `null`
    /// there reads as no value, so that the former key is read: ``storedKeys``) and the
    /// reference's table and rule. An older build of the app still running writes the
    /// reference under that key: the table records it as a reference too
    /// (``SQLiteTable/recordSchema()``, as `former>now`), so that a delete rule, the older
    /// build's or this one's, finds those values as well, where the row holds no value under
    /// the new key (this build reads that one).
    var formerReferences: [(field: String, now: String, table: String, rule: DeleteRule)] {
        guard !renamed.isEmpty else { return [] }
        let current = Set(keys)
        return renamed.sorted { $0.key < $1.key }.compactMap { former, now in
            guard !current.contains(former),
                let reference = references.first(where: { $0.field == now })
            else { return nil }
            let marked = storedKeys.contains(now + "?") ? now + "?" : now
            return (former, marked, reference.table, reference.rule)
        }
    }

    /// The references the table records, by the field as recorded: the schema's, and their
    /// former keys as `former>now` (a release before these records reads no value there).
    var recordedReferences: [(field: String, table: String, rule: DeleteRule)] {
        references.map { ($0.field, $0.table, $0.rule) }
            + formerReferences.map { ("\($0.field)>\($0.now)", $0.table, $0.rule) }
    }
}

/// A row's key as stored: an integer, a text or a UUID's 16 bytes.
typealias SQLiteRowKey = SQLiteArgument

/// The rows a write changed, by table: deleted, and saved or changed by a delete rule.
nonisolated struct SQLiteEffects: Sendable {
    private(set) var deleted: [String: [SQLiteRowKey]] = [:]
    private(set) var changed: [String: [SQLiteRowKey]] = [:]

    var isEmpty: Bool { deleted.isEmpty && changed.isEmpty }

    /// Every table a row of which changed.
    var tables: Set<String> { Set(deleted.keys).union(changed.keys) }

    mutating func delete(_ keys: [SQLiteRowKey], in table: String) {
        if !keys.isEmpty { deleted[table, default: []] += keys }
    }

    mutating func change(_ keys: [SQLiteRowKey], in table: String) {
        if !keys.isEmpty { changed[table, default: []] += keys }
    }

    mutating func formUnion(_ other: SQLiteEffects) {
        for (table, keys) in other.deleted { delete(keys, in: table) }
        for (table, keys) in other.changed { change(keys, in: table) }
    }

    /// The rows of `table` that changed in any way.
    func keys(in table: String) -> [SQLiteRowKey] {
        (deleted[table] ?? []) + (changed[table] ?? [])
    }
}

nonisolated extension SQLiteArgument {
    /// How a key appears in the JSON of a value that refers to it: a UUID as its string.
    var jsonForm: SQLiteArgument {
        if case .blob(let bytes) = self, bytes.count == 16 {
            let b = [UInt8](bytes)
            let uuid = UUID(
                uuid: (
                    b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11],
                    b[12], b[13], b[14], b[15]
                ))
            return .text(uuid.uuidString)
        }
        return self
    }

    /// The bytes a row's checksum covers for this key, as ``SQLiteKey/checksumBytes`` gives.
    var keyChecksumBytes: Data {
        switch self {
        case .integer(let value): Data(String(value).utf8)
        case .text(let value): Data(value.utf8)
        case .blob(let value): value
        case .null, .real: Data()
        }
    }

    /// The value as an error message shows it.
    var shown: String {
        switch self {
        case .null: "nil"
        case .integer(let value): String(value)
        case .real(let value): String(value)
        case .text(let value): value
        case .blob(let value): jsonForm == self ? value.base64EncodedString() : "\(jsonForm.shown)"
        }
    }
}

// MARK: - Keeping the rules, in the caller's transaction

nonisolated extension SQLiteTable where Failure: SQLiteFailure {
    /// Creates `store_references` when missing.
    static func createReferenceTable(in database: SQLiteDatabase<Failure>) throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS store_references (
                child TEXT NOT NULL,
                field TEXT NOT NULL,
                model TEXT NOT NULL,
                parent TEXT NOT NULL,
                rule TEXT NOT NULL,
                PRIMARY KEY (child, field)
            ) WITHOUT ROWID
            """)
    }

    /// The references this table records, as `field parent rule model` lines, sorted. Every
    /// table's records are read (a few rows), so that the first table to open finds one that
    /// SQLite finds damaged, which every delete would meet.
    func recordedReferences() throws -> [String] {
        var lines: [String] = []
        try database.run("SELECT child, field, parent, rule, model FROM store_references") { row in
            guard row.text(at: 0) == name else { return }
            lines.append([1, 2, 3, 4].map { row.text(at: Int32($0)) }.joined(separator: " "))
        }
        return lines.sorted()
    }

    /// The references of `schema`, as ``recordedReferences()`` gives them; `withFormerKeys`
    /// false, without those of renamed references' former keys (as a release before them
    /// recorded the same revision: both are this revision's records, so that two releases of
    /// the engine at one revision do not each write them again at every open).
    func declaredReferences(withFormerKeys: Bool = true) -> [String] {
        let references =
            withFormerKeys
            ? schema.recordedReferences
            : schema.references.map { ($0.field, $0.table, $0.rule) }
        return references.map { "\($0.field) \($0.table) \($0.rule.rawValue) \(schema.model)" }
            .sorted()
    }

    /// Records the schema's references in place of what the table recorded before, and keeps
    /// exactly the indexes its fields need; then its revision (``SQLiteSchema/revision``).
    /// Nothing when a later revision recorded them (a newer build of the app): they stay, and
    /// every delete, this build's too, follows that build's rules.
    func recordSchema() throws {
        try createRevisionTable()
        if let recorded = try recordedRevision(), recorded > schema.revision { return }
        try database.run(
            "DELETE FROM store_references WHERE child = ?", bind: { $0.bind(name, at: 1) },
            row: { _ in })
        for reference in schema.recordedReferences {
            try database.run(
                """
                INSERT INTO store_references (child, field, model, parent, rule)
                VALUES (?, ?, ?, ?, ?)
                """,
                bind: { statement in
                    statement.bind(name, at: 1)
                    statement.bind(reference.field, at: 2)
                    statement.bind(schema.model, at: 3)
                    statement.bind(reference.table, at: 4)
                    statement.bind(reference.rule.rawValue, at: 5)
                }, row: { _ in })
        }
        let needed = neededIndexes()
        let kept = try indexes()
        for index in kept.keys.sorted() where needed[index] == nil {
            try database.execute("DROP INDEX \"\(index)\"")
        }
        for (index, sql) in needed.sorted(by: { $0.key < $1.key }) where kept[index] == nil {
            try database.execute(sql)
        }
        try recordRevision()
    }

    /// Creates `store_revisions`, with its checksum column (added to a table an earlier release
    /// made without it, whose records then have none).
    private func createRevisionTable() throws {
        try database.execute(
            """
            CREATE TABLE IF NOT EXISTS store_revisions (
                name TEXT PRIMARY KEY NOT NULL,
                revision INTEGER NOT NULL,
                checksum INTEGER
            ) WITHOUT ROWID
            """)
        var columns = 0
        try database.run("PRAGMA table_info(store_revisions)") { _ in columns += 1 }
        if columns == 2 {
            try database.execute("ALTER TABLE store_revisions ADD COLUMN checksum INTEGER")
        }
    }

    /// Records this build's revision of the table, with its checksum.
    func recordRevision() throws {
        try createRevisionTable()
        try database.run(
            "INSERT OR REPLACE INTO store_revisions (name, revision, checksum) VALUES (?, ?, ?)",
            bind: { statement in
                statement.bind(name, at: 1)
                statement.bind(Int64(schema.revision), at: 2)
                statement.bind(Int64(revisionChecksum(schema.revision)), at: 3)
            }, row: { _ in })
    }

    /// The CRC-32 of the table's name, a zero byte and `revision` in digits: what a revision
    /// record of this table holds beside it.
    private func revisionChecksum(_ revision: Int) -> UInt32 {
        StoreFiles.CRC32.checksum(Data(name.utf8) + Data([0]) + Data(String(revision).utf8))
    }

    /// The revision of the model whose build last recorded the table's references and indexes
    /// (``recordSchema()``): nil when none did (an earlier release, or a new table), or SQLite
    /// finds its record damaged.
    func recordedRevision() throws -> Int? {
        try revisionRecord()?.revision
    }

    /// ``recordedRevision()``, and whether its record carries a checksum (one an earlier release
    /// of scaffold-repo wrote has none).
    func revisionRecord() throws -> (revision: Int, isChecked: Bool)? {
        var revision: (revision: Int, isChecked: Bool)?
        let read = try database.readingBookkeeping(of: "store_revisions") {
            // `*`: a table an earlier release made has no checksum column, and its records,
            // like those an earlier release writes into this one (`NULL`), are taken as they are.
            try database.run(
                "SELECT * FROM store_revisions WHERE name = ?",
                bind: { $0.bind(name, at: 1) },
                row: { row in
                    let recorded = Int(truncatingIfNeeded: row.int64(at: 1))
                    let checksum = row.columnCount > 2 ? row.argument(at: 2) : .null
                    guard
                        checksum == .null
                            || checksum == .integer(Int64(revisionChecksum(recorded)))
                    else { return }
                    revision = (recorded, checksum != .null)
                })
        }
        return read ? revision : nil
    }

    /// Makes the `indexes` (name, and the statement that makes it now) again. Those an earlier
    /// release made give the same results meanwhile, only slower, so the table opens without
    /// this, and an older build of the app, whose queries use the earlier expression, scans
    /// where it used its index.
    func remakeIndexes(_ indexes: [(name: String, sql: String)]) throws {
        for index in indexes {
            try database.execute("DROP INDEX \"\(index.name)\"")
            try database.execute(index.sql)
        }
    }

    /// The indexes of the table that an earlier release made with another expression, by name,
    /// each with the statement that makes it now.
    func indexesOfAnEarlierRelease() throws -> [(name: String, sql: String)] {
        let needed = neededIndexes()
        return try indexes().sorted { $0.key < $1.key }.compactMap { index, sql in
            needed[index].flatMap { $0 == sql ? nil : (index, $0) }
        }
    }

    /// The indexes that the table's fields need, by name, each with the statement that makes
    /// it, as `sqlite_master` keeps it.
    func neededIndexes(withFormerKeys: Bool = true) -> [String: String] {
        var needed: [String: String] = [:]
        let former = Set(schema.formerReferences.map(\.field))
        for field in schema.indexedFields where withFormerKeys || !former.contains(field) {
            needed["\(name).\(field)"] =
                "CREATE INDEX \"\(name).\(field)\" ON \"\(name)\"(\(Self.json(field)))"
        }
        return needed
    }

    /// The indexes this table made on its fields, by name, each with its statement.
    func indexes() throws -> [String: String] {
        var indexes: [String: String] = [:]
        try database.run(
            "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ?",
            bind: { $0.bind(name, at: 1) },
            row: { row in
                let index = row.text(at: 0)
                if index.hasPrefix(name + ".") { indexes[index] = row.text(at: 1) }
            })
        return indexes
    }

    /// Throws `notUnique` when another row holds the `:unique` values of `json`, the value
    /// with `id` about to be written.
    func checkUnique(_ json: Data, id: Value.ID) throws {
        for field in schema.unique {
            var taken: SQLiteArgument?
            try database.run(
                """
                SELECT \(Self.json(field)) FROM "\(name)"
                WHERE \(Self.json(field)) = json_extract(?, '$.\(field)') AND id != ? LIMIT 1
                """,
                bind: { statement in
                    statement.bind(utf8: json, at: 1)
                    id.bind(to: statement, at: 2)
                }, row: { taken = $0.argument(at: 0) })
            if let taken {
                throw Failure.notUnique(field: field, value: taken.shown)
            }
        }
    }

    /// Throws `missingReference` when a reference of `value` names no stored value.
    func checkReferences(of value: Value) throws {
        if let (reference, parent) = try missingReference(of: value) {
            throw Failure.missingReference(field: reference.field, id: "\(parent)")
        }
    }

    /// The first reference of `value` that names no stored value, and the id it names.
    private func missingReference(
        of value: Value
    ) throws -> (SQLiteReference<Value>, any SQLiteKey)? {
        for reference in schema.references {
            guard let parent = reference.parentID(value) else { continue }
            var isStored = false
            if try tableExists(reference.table) {
                try database.run(
                    "SELECT 1 FROM \"\(reference.table)\" WHERE id = ?",
                    bind: { parent.bind(to: $0, at: 1) }, row: { _ in isStored = true })
            }
            if !isStored { return (reference, parent) }
        }
        return nil
    }

    private func tableExists(_ table: String) throws -> Bool {
        var exists = false
        try database.run(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?",
            bind: { $0.bind(table, at: 1) }, row: { _ in exists = true })
        return exists
    }

    /// For each `:unique` field whose stored values are not (they were stored before it was
    /// unique), the values that more than one row holds, in SQL's order.
    func duplicates() throws -> [String: [String]] {
        catchUpBeforeReading()
        var duplicates: [String: [String]] = [:]
        for field in schema.unique {
            try database.run(
                """
                SELECT \(Self.json(field)) FROM "\(name)" WHERE \(Self.json(field)) IS NOT NULL
                GROUP BY 1 HAVING count(*) > 1 ORDER BY 1
                """
            ) { duplicates[field, default: []].append($0.argument(at: 0).shown) }
        }
        return duplicates
    }

    /// The ids of the values whose reference names no stored value (stored before the field was
    /// a reference), in id order. SQL reads each row's references and looks them up among the
    /// ids of the tables they name, each read once (``suspects(of:)``); only the rows it finds,
    /// and those of another schema version (which SQL cannot read as this build decodes them),
    /// are decoded, and checked as a save checks them. A row whose checksum fails is reported
    /// (`corrupt`) only when it is one of those: damage is found by the reads and `recover`.
    func dangling() throws -> [Value.ID] {
        let suspects = try schema.references.map(suspects(of:))
        guard !suspects.isEmpty else { return [] }
        var ids: [Value.ID] = []
        let clause = (["version <> \(Value.schemaVersion)"] + suspects).joined(separator: " OR ")
        try database.run("SELECT \(columns) FROM \"\(name)\" WHERE \(clause) ORDER BY id") { row in
            let value = try value(of: row)
            if try missingReference(of: value) != nil { ids.append(value.id) }
        }
        return ids
    }

    /// A condition on a row that holds whenever `reference` of its value may name no stored
    /// value: its JSON names an id that the parent's table does not hold (as a value refers to
    /// it: a UUID as its string), or SQL cannot read its JSON, or (for a renamed reference) the
    /// new key holds none and the former key holds one. A row it selects is only a suspect.
    private func suspects(of reference: SQLiteReference<Value>) throws -> String {
        let key = "'$.\"\(reference.field)\"'"
        let parentIDs =
            try tableExists(reference.table)
            ? """
            SELECT CASE WHEN typeof(id) = 'blob' AND length(id) = 16 THEN
            substr(hex(id), 1, 8) || '-' || substr(hex(id), 9, 4) || '-' || substr(hex(id), 13, 4)
            || '-' || substr(hex(id), 17, 4) || '-' || substr(hex(id), 21) ELSE id END
            FROM "\(reference.table)" WHERE id IS NOT NULL
            """
            : "SELECT NULL WHERE 0"
        let formerKey = schema.renamed.first { $0.value == reference.field }?.key
        let heldUnderTheFormerKey =
            formerKey.map { "json_type(value, '$.\"\($0)\"') IS NOT NULL" } ?? "0"
        return """
            (CASE WHEN NOT json_valid(value) THEN 1
            WHEN coalesce(json_type(value, \(key)), 'null') = 'null' THEN \(heldUnderTheFormerKey)
            ELSE json_extract(value, \(key)) NOT IN (\(parentIDs)) END)
            """
    }

    /// The tables whose values refer to `table`'s: their field, model and rule. A record that
    /// names no table (its byte damaged) refers with no value.
    private func referrers(of table: String) throws -> [(
        child: String, field: String, model: String, rule: DeleteRule
    )] {
        var referrers: [(child: String, field: String, model: String, rule: DeleteRule)] = []
        try database.run(
            """
            SELECT child, field, model, rule FROM store_references WHERE parent = ?
            AND child IN (SELECT name FROM sqlite_master WHERE type = 'table') ORDER BY child
            """,
            bind: { $0.bind(table, at: 1) },
            row: { row in
                referrers.append(
                    (
                        row.text(at: 0), row.text(at: 1), row.text(at: 2),
                        DeleteRule(rawValue: row.text(at: 3)) ?? .restrict
                    ))
            })
        return referrers
    }

    /// Whether any table refers to this one: a delete then follows the delete rules.
    func hasReferrers() throws -> Bool {
        try !referrers(of: name).isEmpty
    }

    /// Deletes the rows `keys` of `table`, applying first each delete rule of the tables that
    /// refer to it, in the caller's transaction, and adds what changed to `effects`.
    /// `visited` keeps a cycle of cascades from running twice.
    func remove(
        _ keys: [SQLiteRowKey], from table: String, effects: inout SQLiteEffects,
        visited: inout Set<[SQLiteArgument]>
    ) throws {
        let keys = keys.filter { visited.insert([.text(table), $0]).inserted }
        guard !keys.isEmpty else { return }
        for referrer in try referrers(of: table) {
            // A renamed reference's former key (`former>now`) counts where the row holds no
            // value under the new one: where it does, that is what the newer build reads. A new
            // key marked `?` holds none when it is missing or `null`; another, when missing (a
            // `null` there is the value nil).
            let names = referrer.field.split(separator: ">", maxSplits: 1).map(String.init)
            let field = names[0]
            var unlessNew = ""
            if names.count == 2 {
                let now = names[1].hasSuffix("?") ? String(names[1].dropLast()) : names[1]
                let reads = names[1].hasSuffix("?") ? "json_extract" : "json_type"
                unlessNew =
                    " AND CASE WHEN json_valid(value) THEN \(reads)(value, '$.\"\(now)\"') IS NULL END"
            }
            var children: [SQLiteRowKey] = []
            for key in keys {
                try database.run(
                    "SELECT id FROM \"\(referrer.child)\" WHERE \(Self.json(field)) = ?\(unlessNew)",
                    bind: { $0.bind(key.jsonForm, at: 1) },
                    row: { children.append($0.argument(at: 0)) })
            }
            guard !children.isEmpty else { continue }
            switch referrer.rule {
            case .restrict:
                throw Failure.stillReferenced(by: referrer.model, count: children.count)
            case .cascade:
                try remove(children, from: referrer.child, effects: &effects, visited: &visited)
            case .nullify:
                try nullify(field, of: children, in: referrer.child)
                effects.change(children, in: referrer.child)
            }
        }
        for key in keys {
            try checkIntact(key, in: table)
            try database.writeRow(
                "DELETE FROM \"\(table)\" WHERE id = ?", of: table,
                bind: { $0.bind(key, at: 1) })
        }
        effects.delete(keys, in: table)
    }

    /// The checksum of a row of any table: its key, its schema version and its JSON.
    private static func covered(_ key: SQLiteRowKey, _ version: Int64, _ json: Data) -> UInt32 {
        StoreFiles.CRC32.checksum(
            key.keyChecksumBytes + Data([0]) + Data(String(version).utf8) + Data([0]) + json)
    }

    /// Throws `corrupt` when the row that SQLite's search for `key` lands on in `table` fails its
    /// checksum: a save or delete by that key would take it away, bytes and all, and when its
    /// key is what was damaged, the value it holds is another id's. `recover(directory:)` sets
    /// it aside first, its bytes kept. With `version`, the schema version this code writes, an
    /// intact row of a newer one (a newer build of the app saved it) throws `newerSchema`.
    func checkIntact(_ key: SQLiteRowKey, in table: String, supporting version: Int? = nil)
        throws
    {
        _ = try intactRow(key, in: table, supporting: version)
    }

    /// The schema version and JSON of the row `key` of `table`, checked as
    /// ``checkIntact(_:in:supporting:)`` checks it; nil when there is no such row.
    func intactRow(_ key: SQLiteRowKey, in table: String, supporting version: Int? = nil)
        throws -> (version: Int, json: Data)?
    {
        var isIntact = true
        var stored: (version: Int, json: Data)?
        try database.run(
            "SELECT id, version, value, checksum FROM \"\(table)\" WHERE id = ?",
            bind: { $0.bind(key, at: 1) },
            row: { row in
                let json = row.data(at: 2)
                let covered = Self.covered(row.argument(at: 0), row.int64(at: 1), json)
                isIntact = UInt32(truncatingIfNeeded: row.int64(at: 3)) == covered
                stored = (Int(truncatingIfNeeded: row.int64(at: 1)), json)
            })
        guard isIntact else { throw damagedRow(of: table, id: key.shown) }
        // A newer build's value: written over by this build, its newer fields would be lost.
        if let version, let stored, stored.version > version {
            throw Failure.newerSchema(
                file: database.fileURL, found: stored.version, supported: version)
        }
        return stored
    }

    /// What a read or a write that meets the row `id` of `table`, whose checksum fails, throws.
    func damagedRow(of table: String, id: String) -> Failure {
        Failure.corrupt(
            file: database.fileURL, offset: 0,
            reason: "a row of \(table) fails its checksum, or holds NaN (id \(id)); "
                + "recover(directory:) sets it aside, its bytes kept, and then that id can be "
                + "saved or deleted")
    }

    /// Sets `field` to nil in the rows `keys` of `table`, each with its new checksum. A row
    /// whose checksum fails is `corrupt`: signing it again would hide the damage.
    private func nullify(_ field: String, of keys: [SQLiteRowKey], in table: String) throws {
        let covered = Self.covered
        for key in keys {
            var row: (version: Int64, old: Data, checksum: Int64, json: Data)?
            try database.run(
                """
                SELECT version, value, checksum,
                    CASE WHEN json_valid(value) THEN json_set(value, '$.\(field)', NULL) END
                FROM "\(table)" WHERE id = ?
                """,
                bind: { $0.bind(key, at: 1) },
                row: { row = ($0.int64(at: 0), $0.data(at: 1), $0.int64(at: 2), $0.data(at: 3)) })
            guard let row else { continue }
            guard UInt32(truncatingIfNeeded: row.checksum) == covered(key, row.version, row.old)
            else {
                throw damagedRow(of: table, id: key.shown)
            }
            let checksum = covered(key, row.version, row.json)
            try database.run(
                "UPDATE \"\(table)\" SET value = ?, checksum = ? WHERE id = ?",
                bind: { statement in
                    statement.bind(utf8: row.json, at: 1)
                    statement.bind(Int64(checksum), at: 2)
                    statement.bind(key, at: 3)
                }, row: { _ in })
        }
    }
}

// MARK: - Several models in one transaction

/// Writes to the tables of several models of the module in one transaction: they reach the disk
/// together, or not at all. Its `save`, `delete` and `find` for each model are in that model's
/// `+API.swift`; a repository's `transaction(_:)` gives one, for the length of its closure.
public nonisolated final class StoreTransaction {
    /// The connection of the repository that runs the transaction.
    private let database: any SQLiteDatabaseSharing
    /// The tables written so far, by name.
    private var tables: [String: Any] = [:]
    /// What the transaction wrote, by table.
    private(set) var effects = SQLiteEffects()
    /// Set once the transaction ends: a transaction kept past its closure throws.
    private(set) var isFinished = false

    init(_ database: any SQLiteDatabaseSharing) {
        self.database = database
    }

    /// The table `name` of `Value`, opened by `open` on the transaction's connection the first
    /// time, and reporting `Failure`.
    func table<Value, Failure>(
        _ name: String, _ open: (SQLiteDatabase<Failure>) throws -> SQLiteTable<Value, Failure>
    ) throws -> SQLiteTable<Value, Failure> {
        guard !isFinished else { throw Failure.closed }
        if let table = tables[name] as? SQLiteTable<Value, Failure> { return table }
        let table = try open(database.sharing(Failure.self))
        tables[name] = table
        return table
    }

    /// Adds what a delete did to what the transaction did.
    func record(_ effects: SQLiteEffects) {
        self.effects.formUnion(effects)
    }

    /// Adds the rows `keys` of `table`, saved, to what the transaction did.
    func record(saved keys: [SQLiteRowKey], in table: String) {
        effects.change(keys, in: table)
    }

    func finish() {
        isFinished = true
        tables = [:]
    }
}

/// A database whose connection a table of another model can share.
nonisolated protocol SQLiteDatabaseSharing {
    func sharing<Other>(_ failure: Other.Type) -> SQLiteDatabase<Other>
}

nonisolated extension SQLiteDatabase: SQLiteDatabaseSharing {
    func sharing<Other>(_ failure: Other.Type) -> SQLiteDatabase<Other> {
        SQLiteDatabase<Other>(sharing: self)
    }
}

// MARK: - Telling other repositories

/// Tells the repositories open in this process what a write changed in their tables: a
/// cascade's deletes, a nullify's changes, a transaction's writes. Each repository that has
/// observers listens for its own table of its own database file.
nonisolated final class SQLiteChangeCenter: @unchecked Sendable {
    /// The one center of the process.
    static let shared = SQLiteChangeCenter()

    private let lock = NSLock()
    private var listeners: [ObjectIdentifier: Listener] = [:]

    private struct Listener {
        let file: String
        let table: String
        let receive: @Sendable ([SQLiteRowKey]) -> Void
        let stop: @Sendable () -> Void
    }

    /// Calls `receive` with the keys of the rows of `table` in `file` that another repository's
    /// write changed, until ``stopListening(_:)``, which calls `stop`.
    func listen(
        _ listener: ObjectIdentifier, file: URL, table: String,
        receive: @escaping @Sendable ([SQLiteRowKey]) -> Void,
        stop: @escaping @Sendable () -> Void = {}
    ) {
        lock.withLock {
            listeners[listener] = Listener(
                file: Self.path(file), table: table, receive: receive, stop: stop)
        }
    }

    func stopListening(_ listener: ObjectIdentifier) {
        lock.withLock { listeners.removeValue(forKey: listener) }?.stop()
    }

    /// The file's path with links resolved: `/var/…` and `/private/var/…` are one database.
    private static func path(_ file: URL) -> String {
        StoreFiles.canonicalPath(file)
    }

    /// Tells every listener of a table in `effects` but `origin`'s own table, which its
    /// repository publishes itself.
    func post(_ effects: SQLiteEffects, file: URL, origin: ObjectIdentifier?, table: String?) {
        guard !effects.isEmpty else { return }
        let path = Self.path(file)
        let receivers = lock.withLock {
            listeners.filter { id, listener in
                listener.file == path && effects.tables.contains(listener.table)
                    && !(id == origin && listener.table == table)
            }.map(\.value)
        }
        for listener in receivers {
            listener.receive(effects.keys(in: listener.table))
        }
    }
}
