internal import Foundation

#if canImport(SQLite3)
    internal import SQLite3
#else
    internal import CSQLite
#endif

/// Raw access to a sqlite repository's database, for the tests that open what an earlier
/// version of the app wrote, or what a damaged disk left: SQL run as it is, and rows written
/// with the checksum that the store checks (CRC-32 of the id's bytes, a zero byte, the schema
/// version in digits, a zero byte, the JSON).
///
/// scaffold-repo writes one copy of this file per test target that tests a sqlite repository,
/// and `scaffold-repo destroy` removes it with the last of them.
nonisolated enum StoredRows {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Runs `sql` on the database `file`, which must exist.
    static func execute(_ sql: String, in file: URL) throws {
        try withDatabase(file) { database in
            guard sqlite3_exec(database, sql, nil, nil, nil) == SQLITE_OK else {
                throw Failure(description: String(cString: sqlite3_errmsg(database)))
            }
        }
    }

    /// Writes each of `values` as a row of `table`, as schema `version` wrote it: its JSON
    /// (sorted keys), keyed by its id in `ids` (`Int`, `String` or `UUID`), with its checksum.
    static func insert<Value: Encodable>(
        _ values: [Value], ids: [some Sendable], version: Int, into table: String, in file: URL
    ) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try withDatabase(file) { database in
            var statement: OpaquePointer?
            let sql =
                "INSERT OR REPLACE INTO \"\(table)\" (id, version, value, checksum) VALUES (?, ?, ?, ?)"
            guard sqlite3_prepare_v2(database, sql, -1, &statement, nil) == SQLITE_OK else {
                throw Failure(description: String(cString: sqlite3_errmsg(database)))
            }
            defer { sqlite3_finalize(statement) }
            for (value, id) in zip(values, ids) {
                let json = try encoder.encode(value)
                let idBytes = try bind(id, to: statement)
                sqlite3_bind_int64(statement, 2, Int64(version))
                let text = String(decoding: json, as: UTF8.self)
                sqlite3_bind_text(statement, 3, text, -1, transient)
                let covered = idBytes + [0] + Array(String(version).utf8) + [0] + [UInt8](json)
                sqlite3_bind_int64(statement, 4, Int64(checksum(covered)))
                guard sqlite3_step(statement) == SQLITE_DONE else {
                    throw Failure(description: String(cString: sqlite3_errmsg(database)))
                }
                sqlite3_reset(statement)
            }
        }
    }

    /// Binds `id` as the table's key, and returns the bytes its checksum covers.
    private static func bind(_ id: Any, to statement: OpaquePointer?) throws -> [UInt8] {
        switch id {
        case let id as Int:
            sqlite3_bind_int64(statement, 1, Int64(id))
            return Array(String(id).utf8)
        case let id as String:
            // Every byte: a NUL inside the id does not end it.
            let bytes = Array(id.utf8)
            sqlite3_bind_text(statement, 1, id, Int32(bytes.count), transient)
            return bytes
        case let id as UUID:
            let bytes = withUnsafeBytes(of: id.uuid) { Array($0) }
            sqlite3_bind_blob(statement, 1, bytes, Int32(bytes.count), transient)
            return bytes
        default:
            throw Failure(description: "an id of type \(type(of: id)) is not a table's key")
        }
    }

    private static func withDatabase(_ file: URL, _ body: (OpaquePointer?) throws -> Void) throws {
        var database: OpaquePointer?
        guard sqlite3_open_v2(file.path, &database, SQLITE_OPEN_READWRITE, nil) == SQLITE_OK
        else {
            sqlite3_close(database)
            throw Failure(description: "cannot open \(file.path)")
        }
        defer { sqlite3_close(database) }
        sqlite3_busy_timeout(database, 5_000)
        try body(database)
    }

    /// CRC-32, the polynomial of zip and PNG, as the store computes it.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        var crc = ~UInt32(0)
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    /// SQLite copies a bound value before the call returns.
    private static var transient: sqlite3_destructor_type {
        unsafeBitCast(-1, to: sqlite3_destructor_type.self)
    }
}
