/// Rules for the names that become Swift identifiers in generated code.
enum Identifier {
    /// ASCII letters, digits and `_`, not starting with a digit, not only `_`.
    static func isValid(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, !("0"..."9").contains(first),
            name.contains(where: { $0 != "_" })
        else { return false }
        return name.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0)
                || $0 == "_"
        }
    }

    /// `name`, in backticks when it is a keyword: `` `default` ``.
    static func escaped(_ name: String) -> String {
        swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    /// `name` as an argument label at a call site: only `inout` needs backticks there (and
    /// escaping any other keyword is warned about).
    static func label(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// Words that cannot name a property or type without backticks.
    static let swiftKeywords: Set<String> = [
        "Any", "Protocol", "Self", "Type", "actor", "any", "as", "associatedtype", "async", "await",
        "break", "case", "catch", "class", "continue", "default", "defer", "deinit", "do", "else",
        "enum", "extension", "fallthrough", "false", "fileprivate", "for", "func", "guard", "if",
        "import", "in", "init", "inout", "internal", "is", "let", "nil", "open", "operator",
        "precedencegroup", "private", "protocol", "public", "repeat", "rethrows", "return", "self",
        "some", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true",
        "try",
        "typealias", "var", "where", "while",
    ]
}

extension Identifier {
    /// Type names the generated code uses unqualified; a model with one of these names would
    /// shadow it and not compile (an enum field's type gets `Kind` appended instead). Every
    /// field type is one of them: a model or enum named `Float` would hide the `Float` of a
    /// field beside it.
    static let reservedTypeNames = engineTypeNames.union(BaseType.allCases.map(\.rawValue))

    /// The names the engine and the generated code declare or use, besides the field types.
    private static let engineTypeNames: Set<String> = [
        "Any", "Array", "AsyncStream", "Bool", "CRC32", "Change", "CheckedContinuation", "Codable",
        "CSQLite", "CodingKey", "Comparable", "CustomStringConvertible", "Darwin", "Data", "Date",
        "Decodable",
        "Decoder", "DecodingError", "Dictionary", "Double", "Encodable", "Equatable", "Error",
        "FileError", "FileHandle", "FileManager", "FormerKeys", "Foundation", "FrozenVersion",
        "Glibc",
        "Hashable",
        "Identifiable", "IndexSet", "Int", "Int32", "Issue", "JSONDecoder", "JSONEncoder",
        "JournalRecord", "JournalStore", "KeyPath", "ListOrdering", "LiveList", "MainActor", "Musl",
        "Never", "NewerSchema", "ObjCBool", "Observable", "Observation", "ObservationIgnored",
        "ObservedChanges", "Observers", "OpenRepositories", "Optional", "Ordering", "RepeatedID",
        "Revised", "SQLiteDatabase", "SQLiteKey", "SQLiteProbe", "SQLiteTable", "SQLite3",
        "SampleData",
        "SampleValue", "Sendable", "Set", "SharedRepository",
        "ShownRevisions", "SnapshotFile", "SnapshotStore", "StoreChange", "StoreFiles",
        "StoreRecovery",
        "StoredChange", "StoredFile", "StoreFile", "Recovery", "Contents", "JSONReader",
        "SharedInstances", "FieldValue", "EncodingError", "JSONSerialization", "StoredValue",
        "StoredValues",
        "String", "Suite", "Test",
        "Testing", "UInt32",
        "UInt64", "UInt8", "URL", "UUID", "UnmigratedValue", "Values", "Void", "WeakReference",
        "XCTest", "XCTestCase",
        // The sqlite engine's top-level types (SQLiteStore.swift, StoreQuery.swift,
        // SQLiteRelations.swift, and StoredRows.swift in the test target).
        "LiveWindow", "QueryCondition", "QueryField", "QueryableField", "SQLiteArgument",
        "StoreQuery", "StoreQueryText", "StoredRows", "DeleteRule", "SQLiteChangeCenter",
        "SQLiteConnection", "SQLiteDatabaseSharing", "SQLiteEffects", "SQLiteFailure",
        "SQLiteReference", "SQLiteRowKey", "SQLiteSchema", "StoreTransaction", "SQLiteChangeLog",
        "SQLiteWAL",
        // The in-memory indexes of :index and :unique fields (StoredValues.swift).
        "FieldIndexes",
        // Used unqualified by the engine, the model's synthesized Codable or the tests.
        "AnyHashable", "CChar", "CancellationError", "CaseIterable", "CocoaError", "CodingKeys",
        "Encoder", "NSError", "NSLock", "ObjectIdentifier", "OpaquePointer", "POSIXError",
        "Range", "RawRepresentable", "SourceLocation", "StaticString", "Swift", "UInt", "UTF8",
        "ArraySlice", "ContiguousBytes", "DataProtocol", "DecodableWithConfiguration",
        "EncodingError", "ExpressibleByNilLiteral", "Int16", "JSONSerialization", "URLComponents",
        "URLQueryItem", "UnsafeBufferPointer", "UnsafeRawBufferPointer", "UnsafeRawPointer",
    ]

    /// Names the generated code uses where a model's variable or plural is also in scope (the
    /// view-model's `repository`, `error` and the locals that apply a change, the snapshot
    /// store's `changed`); a model named `Value` gets the variables `valueItem` and
    /// `valueItems` instead.
    static let reservedVariableNames: Set<String> = [
        "cache", "changed", "changes", "commit", "directory", "error", "files", "ids", "loaded",
        "loads", "perform", "removed", "repository", "saved", "shown", "update", "value", "values",
    ]

    /// Field names that clash with what every model has: `hashValue` from `Hashable`,
    /// `CodingKeys` from `Codable`, and `self`, which as an initializer parameter would hide the
    /// model being built; and `lossless` and `undecided`, which a migration calls on the version
    /// it migrates.
    static let reservedFieldNames: Set<String> = [
        "CodingKeys", "hashValue", "lossless", "self", "undecided",
    ]
}

/// Finds the likely intended word for a typo.
enum Suggestion {
    /// The candidate nearest to `word` by edit distance, ignoring case, if it is close enough.
    /// Two swapped neighbours count as one edit, so `Itn` finds `Int`.
    static func closest(to word: String, among candidates: [String]) -> String? {
        let lowered = Array(word.lowercased())
        let scored = candidates.map { candidate in
            (candidate, distance(lowered, Array(candidate.lowercased())))
        }
        // Very short words are too close to everything for a guess to help.
        let allowed = lowered.count < 3 ? 0 : max(1, lowered.count / 3)
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= allowed else {
            return nil
        }
        return best.0
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps
    /// of two neighbours each count as one edit.
    private static func distance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let substitution = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(
                    table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
