public import Foundation

// Typed queries over a sqlite repository: filters, sort, limit and a cursor, run in SQL on the
// row's JSON (`json_extract`), and the same query in Swift, which the view-model uses to place
// a committed change in the window it shows. Both sides compare the same values
// (`SQLiteArgument`) by SQLite's rules, so a change lands where a new query would put it.
//
// scaffold-repo writes one copy of this file per module that has a sqlite repository, and
// `scaffold-repo destroy` removes it with the last of them.

/// A value as SQLite compares it: numbers (integers and reals, by value) after NULL, text by its
/// UTF-8 bytes after numbers, and bytes after text.
public nonisolated enum SQLiteArgument: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// Whether `self` sorts before `other` in SQL's `ORDER BY` (NULL first). An integer and a
    /// real compare exactly, as SQLite compares them, not through a rounded Double.
    func sortsBefore(_ other: SQLiteArgument) -> Bool {
        switch (self, other) {
        case (.integer(let first), .integer(let second)): first < second
        case (.integer(let first), .real(let second)): Self.compare(first, second) < 0
        case (.real(let first), .integer(let second)): Self.compare(second, first) > 0
        case (.real(let first), .real(let second)): first < second
        case (.text(let first), .text(let second)):
            first.utf8.lexicographicallyPrecedes(second.utf8)
        case (.blob(let first), .blob(let second)): first.lexicographicallyPrecedes(second)
        default: rank < other.rank
        }
    }

    /// Whether SQL's `=` holds: never for NULL.
    func sqlEquals(_ other: SQLiteArgument) -> Bool {
        if case .null = self { return false }
        if case .null = other { return false }
        return !sortsBefore(other) && !other.sortsBefore(self)
    }

    /// What SQL's `<` says; false when either side is NULL.
    func sqlLess(than other: SQLiteArgument) -> Bool {
        if case .null = self { return false }
        if case .null = other { return false }
        return sortsBefore(other)
    }

    /// -1, 0 or 1 as `integer` is less than, equal to or greater than `real`, exactly.
    private static func compare(_ integer: Int64, _ real: Double) -> Int {
        // SQLite holds NaN as NULL, which every number follows (and `Int64(_:)` would trap on it).
        if real.isNaN { return 1 }
        // 2^63 is exact as a Double; every Int64 is below it, and at or above -2^63.
        if real >= 9_223_372_036_854_775_808.0 { return -1 }
        if real < -9_223_372_036_854_775_808.0 { return 1 }
        let whole = real.rounded(.down)
        let wholeInteger = Int64(whole)
        if integer != wholeInteger { return integer < wholeInteger ? -1 : 1 }
        return real > whole ? -1 : 0
    }

    var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    private var rank: Int {
        switch self {
        case .null: 0
        case .integer, .real: 1
        case .text: 2
        case .blob: 3
        }
    }
}

/// A field type that queries filter and sort on: its value as SQL reads it from the stored JSON.
public nonisolated protocol QueryableField {
    /// The value as `json_extract` reads it from the JSON that the store writes.
    var queryArgument: SQLiteArgument { get }
}

nonisolated extension String: QueryableField {
    public var queryArgument: SQLiteArgument { .text(self) }
}

nonisolated extension Int: QueryableField {
    public var queryArgument: SQLiteArgument { .integer(Int64(self)) }
}

nonisolated extension Int64: QueryableField {
    public var queryArgument: SQLiteArgument { .integer(self) }
}

nonisolated extension Double: QueryableField {
    /// NaN, which JSON cannot hold, is bound as SQL's NULL: no stored value equals it.
    public var queryArgument: SQLiteArgument { isNaN ? .null : .real(self) }
}

nonisolated extension Float: QueryableField {
    /// The JSON holds the shortest decimal that gives the Float back (`0.1`), which SQL reads as
    /// that decimal's Double.
    public var queryArgument: SQLiteArgument {
        isNaN ? .null : .real(Double("\(self)") ?? Double(self))
    }
}

nonisolated extension Bool: QueryableField {
    /// JSON's `true` and `false` are 1 and 0 in SQL.
    public var queryArgument: SQLiteArgument { .integer(self ? 1 : 0) }
}

nonisolated extension Date: QueryableField {
    /// `JSONEncoder` writes a date as its seconds since 1 January 2001.
    public var queryArgument: SQLiteArgument { .real(timeIntervalSinceReferenceDate) }
}

nonisolated extension UUID: QueryableField {
    public var queryArgument: SQLiteArgument { .text(uuidString) }
}

nonisolated extension URL: QueryableField {
    public var queryArgument: SQLiteArgument { .text(absoluteString) }
}

nonisolated extension Decimal: QueryableField {
    /// JSON holds the decimal as written: SQL reads a whole number as an integer (exactly, up to
    /// 64 bits), and any other as a real. NaN is bound as SQL's NULL, as a Double's is.
    public var queryArgument: SQLiteArgument {
        let text = "\(self)"
        if let integer = Int64(text) { return .integer(integer) }
        guard let real = Double(text), !real.isNaN else { return .null }
        return .real(real)
    }
}

nonisolated extension Optional: QueryableField where Wrapped: QueryableField {
    public var queryArgument: SQLiteArgument { self?.queryArgument ?? .null }
}

nonisolated extension QueryableField where Self: RawRepresentable, RawValue == String {
    /// An enum is stored as its raw value.
    public var queryArgument: SQLiteArgument { .text(rawValue) }
}

/// A field of `Value` that a query filters or sorts on; each repository lists its model's as
/// `Fields` (`QuestionRepository.Fields.text`).
public nonisolated struct QueryField<Value: Sendable, Field: Sendable>: Sendable {
    /// How SQL reads the field from a row: `id`, or its JSON key (``StoreQueryText/field(_:)``).
    let expression: String
    let read: @Sendable (Value) -> Field
    let argument: @Sendable (Field) -> SQLiteArgument

    /// The field stored under the JSON key `key`.
    init(_ key: String, _ read: @escaping @Sendable (Value) -> Field)
    where Field: QueryableField {
        expression = StoreQueryText.field(key)
        self.read = read
        argument = { $0.queryArgument }
    }

    /// The id, the table's key.
    init(id read: @escaping @Sendable (Value) -> Field) where Field: SQLiteKey {
        expression = "id"
        self.read = read
        argument = { $0.keyArgument }
    }

    /// The field's value in `value`, as SQL compares it.
    func argument(of value: Value) -> SQLiteArgument { argument(read(value)) }

    /// The field equals `value` (for an optional field, `nil` matches values without one).
    public func isEqual(to value: Field) -> QueryCondition<Value> {
        let compared = argument(value)
        if compared.isNull {
            return QueryCondition(sql: "\(expression) IS NULL", arguments: []) {
                argument(of: $0).isNull
            }
        }
        return QueryCondition(sql: "\(expression) = ?", arguments: [compared]) {
            argument(of: $0).sqlEquals(compared)
        }
    }

    /// The field is less than `value`. A value without the field (nil) never matches.
    public func isLess(than value: Field) -> QueryCondition<Value> {
        let compared = argument(value)
        return QueryCondition(sql: "\(expression) < ?", arguments: [compared]) {
            argument(of: $0).sqlLess(than: compared)
        }
    }

    /// The field is greater than `value`. A value without the field (nil) never matches.
    public func isGreater(than value: Field) -> QueryCondition<Value> {
        let compared = argument(value)
        return QueryCondition(sql: "\(expression) > ?", arguments: [compared]) {
            compared.sqlLess(than: argument(of: $0))
        }
    }
}

nonisolated extension QueryField where Field: ExpressibleByNilLiteral {
    /// The field holds no value.
    public var isNil: QueryCondition<Value> {
        QueryCondition(sql: "\(expression) IS NULL", arguments: []) { argument(of: $0).isNull }
    }

    /// The field holds a value.
    public var isNotNil: QueryCondition<Value> {
        QueryCondition(sql: "\(expression) IS NOT NULL", arguments: []) {
            !argument(of: $0).isNull
        }
    }
}

nonisolated extension QueryField where Field == String {
    /// The text starts with `prefix`, compared character by character as stored (exact case).
    /// In SQL, a range of the field's values (``StoreQueryText/prefixRange(_:of:)``), which
    /// an index on the field reads in place of every row.
    public func hasPrefix(_ prefix: String) -> QueryCondition<Value> {
        let (sql, arguments) = StoreQueryText.prefixRange(prefix, of: expression)
        return QueryCondition(sql: sql, arguments: arguments) {
            read($0).unicodeScalars.starts(with: prefix.unicodeScalars)
        }
    }

    /// The text holds `part`, compared as stored (exact case).
    public func contains(_ part: String) -> QueryCondition<Value> {
        QueryCondition(sql: "instr(\(expression), ?) > 0", arguments: [.text(part)]) {
            StoreQueryText.contains(read($0), part)
        }
    }
}

nonisolated extension QueryField where Field == String? {
    /// ``hasPrefix(_:)`` for an optional text field: a value without one never matches.
    public func hasPrefix(_ prefix: String) -> QueryCondition<Value> {
        let (sql, arguments) = StoreQueryText.prefixRange(prefix, of: expression)
        return QueryCondition(sql: sql, arguments: arguments) {
            read($0).map { $0.unicodeScalars.starts(with: prefix.unicodeScalars) } ?? false
        }
    }

    /// ``contains(_:)`` for an optional text field: a value without one never matches.
    public func contains(_ part: String) -> QueryCondition<Value> {
        QueryCondition(sql: "instr(\(expression), ?) > 0", arguments: [.text(part)]) {
            read($0).map { StoreQueryText.contains($0, part) } ?? false
        }
    }
}

/// How SQL reads a row's JSON, and text search by Unicode scalars, as SQL's `instr` searches:
/// no case folding, no normalization.
nonisolated enum StoreQueryText {
    /// The SQL that reads the JSON key `key` of a row's value: NULL when the value is not JSON
    /// (damaged), where `json_extract` would fail the whole statement. Queries, indexes and
    /// delete rules all use this expression, so that SQLite finds the index for each.
    static func field(_ key: String) -> String {
        "CASE WHEN json_valid(value) THEN json_extract(value, '$.\(key)') END"
    }

    /// The texts that start with `prefix` (Unicode scalar by scalar, exact case) as a range of
    /// `expression`: from `prefix`, up to `prefix` with its last scalar that has a next one
    /// made that next one (those after it dropped; none when every scalar is the last one,
    /// U+10FFFF). Every text matches an empty prefix; SQL's NULL never does.
    static func prefixRange(
        _ prefix: String, of expression: String
    ) -> (sql: String, arguments: [SQLiteArgument]) {
        guard !prefix.isEmpty else { return ("\(expression) IS NOT NULL", []) }
        var scalars = Array(prefix.unicodeScalars)
        while let last = scalars.popLast() {
            // The next scalar, past the surrogates, which are not scalars.
            let next = last.value == 0xD7FF ? 0xE000 : last.value + 1
            if let scalar = Unicode.Scalar(next) {
                var upper = String.UnicodeScalarView()
                upper.append(contentsOf: scalars + [scalar])
                return (
                    "\(expression) >= ? AND \(expression) < ?",
                    [.text(prefix), .text(String(upper))]
                )
            }
        }
        return ("\(expression) >= ?", [.text(prefix)])
    }

    static func contains(_ text: String, _ part: String) -> Bool {
        let (haystack, needle) = (Array(text.utf8), Array(part.utf8))
        guard !needle.isEmpty else { return true }
        guard needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count)
        where haystack[start..<(start + needle.count)].elementsEqual(needle) {
            return true
        }
        return false
    }
}

/// One condition of a query, in SQL and in Swift.
public nonisolated struct QueryCondition<Value: Sendable>: Sendable {
    let sql: String
    let arguments: [SQLiteArgument]
    let matches: @Sendable (Value) -> Bool
}

/// A query over one model's table: the values its conditions all accept, sorted by its fields
/// (then by id), from an offset or after a cursor, up to a limit. Build one by chaining:
///
///     QuestionRepository.Query()
///         .filter(QuestionRepository.Fields.text.hasPrefix("What"))
///         .sorted(by: QuestionRepository.Fields.text)
///         .limit(50)
public nonisolated struct StoreQuery<Value: Sendable>: Sendable {
    private(set) var conditions: [QueryCondition<Value>] = []
    private(set) var sorts: [Sort] = []
    /// The most values a read returns; nil for all of them.
    public private(set) var limit: Int?
    /// How many values a read skips first.
    public private(set) var offset = 0
    /// The value that reads start after, in the query's order, or nil to start at the first.
    private(set) var cursor: Value?

    /// A sort key: a field's SQL, its order, and its value in a value.
    struct Sort: Sendable {
        let expression: String
        let descending: Bool
        let key: @Sendable (Value) -> SQLiteArgument
    }

    /// Every value, by id.
    public init() {}

    /// Only the values that `condition` accepts, as well as any before it.
    public func filter(_ condition: QueryCondition<Value>) -> Self {
        var query = self
        query.conditions.append(condition)
        return query
    }

    /// Sorted by `field` (smallest first, or largest when `descending`; values without it
    /// first, or last when `descending`), after the sorts before it; ties are ordered by id.
    public func sorted<Field>(
        by field: QueryField<Value, Field>, descending: Bool = false
    ) -> Self {
        var query = self
        query.sorts.append(
            Sort(expression: field.expression, descending: descending) { field.argument(of: $0) })
        return query
    }

    /// At most `count` values, after skipping `offset`.
    public func limit(_ count: Int, offset: Int = 0) -> Self {
        var query = self
        query.limit = max(0, count)
        query.offset = max(0, offset)
        return query
    }

    /// The values after `value` in this query's order: the next page after the last one shown,
    /// which stays right when values before it are added or removed meanwhile.
    public func after(_ value: Value?) -> Self {
        var query = self
        query.cursor = value
        return query
    }

    /// Whether every condition accepts `value`.
    func matches(_ value: Value) -> Bool {
        conditions.allSatisfy { $0.matches(value) }
    }

    /// Whether `first` comes before `second` by the sort fields alone (not by id): false when
    /// they tie.
    func sortsBefore(_ first: Value, _ second: Value) -> Bool {
        for sort in sorts {
            let (a, b) = (sort.key(first), sort.key(second))
            if a.sortsBefore(b) { return !sort.descending }
            if b.sortsBefore(a) { return sort.descending }
        }
        return false
    }
}

nonisolated extension StoreQuery where Value: StoredValue, Value.ID: SQLiteKey {
    /// `ORDER BY` for the sort fields, then the id.
    var orderClause: String {
        (sorts.map { $0.expression + ($0.descending ? " DESC" : "") } + ["id"])
            .joined(separator: ", ")
    }

    /// ` WHERE …` for the conditions (and the cursor), with the arguments to bind in order;
    /// empty when there are none.
    func whereClause(includingCursor: Bool) -> (sql: String, arguments: [SQLiteArgument]) {
        var parts = conditions.map { "(\($0.sql))" }
        var arguments = conditions.flatMap(\.arguments)
        if includingCursor, let cursor {
            let (sql, cursorArguments) = afterClause(cursor)
            parts.append(sql)
            arguments += cursorArguments
        }
        return (parts.isEmpty ? "" : " WHERE " + parts.joined(separator: " AND "), arguments)
    }

    /// The SQL that holds for the rows after `cursor` in this query's order: for sort keys
    /// k1…kn and then the id, a row is after when its k1 comes after, or k1 ties and k2 comes
    /// after, and so on; NULL comes first in ascending order and last in descending order.
    private func afterClause(_ cursor: Value) -> (String, [SQLiteArgument]) {
        var alternatives: [String] = []
        var arguments: [SQLiteArgument] = []
        var ties: [(String, [SQLiteArgument])] = []
        for sort in sorts {
            let key = sort.key(cursor)
            let after: (String, [SQLiteArgument])
            switch (key.isNull, sort.descending) {
            case (true, false): after = ("\(sort.expression) IS NOT NULL", [])
            case (true, true): after = ("0", [])
            case (false, false): after = ("\(sort.expression) > ?", [key])
            case (false, true):
                after = ("(\(sort.expression) < ? OR \(sort.expression) IS NULL)", [key])
            }
            alternatives.append((ties.map(\.0) + [after.0]).joined(separator: " AND "))
            arguments += ties.flatMap(\.1) + after.1
            ties.append(("\(sort.expression) IS ?", [key]))
        }
        alternatives.append((ties.map(\.0) + ["id > ?"]).joined(separator: " AND "))
        arguments += ties.flatMap(\.1) + [cursor.id.keyArgument]
        return ("(" + alternatives.map { "(\($0))" }.joined(separator: " OR ") + ")", arguments)
    }

    /// Whether `first` comes before `second` in this query's order: its sorts, then the id as
    /// SQL orders the table's keys (a `String` by its bytes, where Swift puts a decomposed "é"
    /// after "f"), so that a page read after a value starts where the values shown end.
    func precedes(_ first: Value, _ second: Value) -> Bool {
        if sortsBefore(first, second) { return true }
        if sortsBefore(second, first) { return false }
        return first.id.keyArgument.sortsBefore(second.id.keyArgument)
    }
}

nonisolated extension SQLiteKey {
    /// The id as the table's `id` column holds it.
    var keyArgument: SQLiteArgument {
        switch self {
        case let id as Int: .integer(Int64(id))
        case let id as String: .text(id)
        default: .blob(checksumBytes)
        }
    }
}

/// What a view-model over a sqlite repository shows: the first values of a query, a page at a
/// time, kept in order as committed changes arrive. A change beyond the values shown (while
/// more remain to load) is left to the next page, so the window is always the start of the
/// query's result and the next page starts right after it. It holds at most the pages loaded:
/// values saved among those shown push the last ones out (the next page reads them again), so
/// that another process saving a million values does not bring them all into memory.
nonisolated struct LiveWindow<Value: StoredValue> where Value.ID: SQLiteKey {
    private(set) var list: LiveList<Value>
    let query: StoreQuery<Value>
    /// Whether every value the query selects is shown (no page is left to load).
    private(set) var isComplete = true
    /// How many values the window holds at most: the size of each page loaded, added up, and
    /// the values saved into it since (at most a page more than ``loaded``).
    private(set) var capacity = Int.max
    /// The size of each page loaded, added up.
    private var loaded = Int.max
    /// The size of the pages loaded.
    private var pageSize = Int.max

    init(query: StoreQuery<Value>) {
        self.query = query
        var list = LiveList<Value>(order: ListOrdering { query.precedes($0, $1) })
        list.filter = { query.matches($0) }
        self.list = list
    }

    /// The values shown, in the query's order.
    var values: [Value] { list.values }

    /// The query for the page after the values shown.
    func nextPage(size: Int) -> StoreQuery<Value> {
        query.after(list.values.last).limit(size)
    }

    /// Shows `page`, the first page of the query, read `pageSize` at most; `isComplete` when no
    /// more values follow.
    mutating func show(_ page: [Value], isComplete: Bool, pageSize: Int = .max) {
        list.show(page, inIDOrder: false)
        self.isComplete = isComplete
        capacity = max(pageSize, page.count)
        loaded = capacity
        self.pageSize = max(pageSize, 1)
    }

    /// Adds `page`, read with ``nextPage(size:)`` (`pageSize` at most), after the values shown.
    mutating func append(_ page: [Value], isComplete: Bool, pageSize: Int = .max) {
        list.apply(.saved(page))
        self.isComplete = isComplete
        let count = max(pageSize, page.count)
        grow(by: count)
        let (sum, overflow) = loaded.addingReportingOverflow(count)
        loaded = overflow ? .max : sum
    }

    /// How many values it shows fewer than it held, while more follow: deletes took them out.
    /// Reading that many after the last value shown (``nextPage(size:)``) and passing them to
    /// ``refill(_:isComplete:)`` brings it back to its size, as a list moves its next rows up.
    var missing: Int { isComplete ? 0 : max(0, capacity - list.values.count) }

    /// Adds `page`, read with ``nextPage(size:)`` for the ``missing`` values, after the values
    /// shown, without making the window larger than it was: of a page read before values
    /// entered the window, only as many as are still missing.
    mutating func refill(_ page: [Value], isComplete: Bool) {
        let taken = page.prefix(missing)
        list.apply(.saved(Array(taken)))
        self.isComplete = isComplete && taken.count == page.count
    }

    private mutating func grow(by count: Int) {
        let (sum, overflow) = capacity.addingReportingOverflow(count)
        capacity = overflow ? .max : sum
    }

    /// Whether `change` changes what is shown.
    func affects(_ change: StoreChange<Value>) -> Bool {
        let (removed, placed, _) = split(change)
        return list.affects(.deleted(removed)) || (placed.map(list.affects) ?? false)
    }

    /// Applies one committed change in place. A change of more values than a page that takes
    /// the window past ``capacity`` pushes the last ones out, and the window then has more to
    /// load; a smaller one (a value the user adds) is taken in, the window growing by as many,
    /// up to a page more than the pages loaded: past that, small changes push the last ones out
    /// too (another process adding values one at a time, each among those shown, would
    /// otherwise bring them all into memory).
    mutating func apply(_ change: StoreChange<Value>) {
        if case .removedAll = change { isComplete = true }
        let (removed, placed, isCut) = split(change)
        if isCut { isComplete = false }
        if !removed.isEmpty { list.apply(.deleted(removed)) }
        if let placed { list.apply(placed) }
        let extra = list.values.count - capacity
        guard extra > 0 else { return }
        if case .saved(let values) = change, values.count <= pageSize,
            extra <= pageSize - (capacity - loaded)
        {
            // Room for exactly what came in: no room left over for a refill to read into.
            grow(by: extra)
        } else {
            list.apply(.deleted(list.values.suffix(extra).map(\.id)))
            isComplete = false
        }
    }

    /// `change` as what leaves the window (ids) and what enters or moves in it: while more
    /// values remain to load, a saved value that sorts after the last value shown before the
    /// change leaves it (a later page holds it); one that sorts up to it stays or enters. Of
    /// more values than the window holds, only the first ``capacity`` in the query's order can
    /// enter it: the others leave it at once (`isCut`), so the list never holds them all.
    private func split(
        _ change: StoreChange<Value>
    ) -> (removed: [Value.ID], placed: StoreChange<Value>?, isCut: Bool) {
        guard case .saved(let saved) = change else { return ([], change, false) }
        // Of values with the same id, the last one saved is the one stored.
        var latest: [Value.ID: Value] = [:]
        for value in saved { latest[value.id] = value }
        let values = saved.filter { latest[$0.id] == $0 }
        var inside = values
        var outside: [Value.ID] = []
        if !isComplete {
            guard let boundary = list.values.last else { return (values.map(\.id), nil, false) }
            inside = values.filter { !query.precedes(boundary, $0) }
            outside = values.filter { query.precedes(boundary, $0) }.map(\.id)
        }
        var isCut = false
        if inside.count > capacity {
            let matching = inside.filter(query.matches).sorted(by: query.precedes)
            let shown = matching.prefix(capacity)
            let entering = Set(shown.map(\.id))
            outside += inside.lazy.map(\.id).filter { !entering.contains($0) }
            inside = Array(shown)
            isCut = matching.count > capacity
        }
        return (outside, inside.isEmpty ? nil : .saved(inside), isCut)
    }
}
