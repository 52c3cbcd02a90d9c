import Foundation
import Testing

@testable import StoreEngine
@testable import StoreEngineTestSupport

/// A parent model with UUID ids, a unique name and an indexed rank.
struct Shelf: StoredValue {
    var id: UUID
    var name: String
    var rank: Int

    static let schemaVersion = 1
    static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        first.checksumBytes.lexicographicallyPrecedes(second.checksumBytes)
    }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Shelf] {
        try [Shelf](from: decoder)
    }
}

/// A child of a shelf, with Int ids, by a reference whose rule each test chooses.
struct Book: StoredValue {
    var id: Int
    var shelfID: UUID?
    var title: String

    static let schemaVersion = 1
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Book] {
        try [Book](from: decoder)
    }
}

/// A child of a book: a grandchild of a shelf.
struct Page: StoredValue {
    var id: String
    var bookID: Int

    static let schemaVersion = 1
    static func precedes(_ first: String, _ second: String) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Page] {
        try [Page](from: decoder)
    }
}

/// A shelf of schema version 2, whose version 1 stored the same fields.
struct Badge: StoredValue {
    var id: Int
    var name: String

    static let schemaVersion = 2
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [Badge] {
        try [Badge](from: decoder)
    }
}

/// A child of a shelf whose schema version 1 stored the reference under `shelf`.
struct MigratedBook: StoredValue {
    var id: Int
    var shelfID: UUID?
    var title: String

    static let schemaVersion = 2
    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    static func decodeStored(_ version: Int, from decoder: any Decoder) throws -> [MigratedBook] {
        switch version {
        case 1: try [V1](from: decoder).map { $0.migrated() }
        default: try [MigratedBook](from: decoder)
        }
    }

    struct V1: Codable, Sendable, Hashable, FrozenVersion {
        var id: Int
        var shelf: UUID?
        var title: String

        func migrated() -> MigratedBook { MigratedBook(id: id, shelfID: shelf, title: title) }
    }
}

/// References, delete rules, unique and indexed fields, and a transaction across tables.
@Suite struct SQLiteRelationsTests {
    let folder: URL
    var file: URL { folder.appendingPathComponent("Store.sqlite") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SQLiteRelationsTests-\(UUID().uuidString)")
    }

    struct Tables {
        let database: SQLiteDatabase<ItemError>
        let shelves: SQLiteTable<Shelf, ItemError>
        let books: SQLiteTable<Book, ItemError>
        let pages: SQLiteTable<Page, ItemError>
    }

    func open(books rule: DeleteRule, pages pageRule: DeleteRule = .cascade) throws -> Tables {
        let database = try SQLiteDatabase<ItemError>(file: file)
        return Tables(
            database: database,
            shelves: try SQLiteTable(
                "shelves", in: database,
                schema: SQLiteSchema(model: "Shelf", indexed: ["rank"], unique: ["name"])),
            books: try SQLiteTable(
                "books", in: database,
                schema: SQLiteSchema(
                    model: "Book",
                    references: [
                        SQLiteReference(
                            field: "shelfID", table: "shelves", rule: rule, parentID: \.shelfID)
                    ])),
            pages: try SQLiteTable(
                "pages", in: database,
                schema: SQLiteSchema(
                    model: "Page",
                    references: [
                        SQLiteReference(
                            field: "bookID", table: "books", rule: pageRule, parentID: \.bookID)
                    ])))
    }

    let shelf = Shelf(id: UUID(), name: "Fiction", rank: 1)

    func fill(_ tables: Tables) throws {
        try tables.shelves.commit(.saved([shelf]))
        try tables.books.commit(
            .saved((1...3).map { Book(id: $0, shelfID: shelf.id, title: "Book \($0)") }))
        try tables.pages.commit(
            .saved(
                (1...3).flatMap { book in
                    (1...2).map { Page(id: "\(book)-\($0)", bookID: book) }
                }))
    }

    @Test func aCascadeDeletesChildrenAndGrandchildrenInTheSameTransaction() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try fill(tables)

        let effects = try tables.shelves.commit(.deleted([shelf.id]))

        #expect(try tables.shelves.count() == 0)
        #expect(try tables.books.count() == 0)
        #expect(try tables.pages.count() == 0)
        #expect(effects.keys(in: "books").count == 3)
        #expect(effects.keys(in: "pages").count == 6)
        #expect(effects.keys(in: "shelves") == [shelf.id.argument])
    }

    /// `store_references` has no checksum: a byte damaged in a record's child table names a
    /// table that does not exist, whose values cannot refer to anything.
    @Test func aReferenceRecordNamingNoTableDoesNotStopADelete() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try fill(tables)
        try tables.database.execute(
            """
            INSERT INTO store_references (child, field, model, parent, rule)
            VALUES ('bioks', 'shelfID', 'Book', 'shelves', 'restrict')
            """)

        try tables.shelves.commit(.deleted([shelf.id]))

        #expect(try tables.shelves.count() == 0)
        #expect(try tables.books.count() == 0)
    }

    @Test func nullifySetsTheReferenceToNilAndKeepsTheRowsChecksumValid() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .nullify)
        try fill(tables)

        let effects = try tables.shelves.commit(.deleted([shelf.id]))

        let books = try SQLiteTable<Book, ItemError>("books", in: SQLiteDatabase(file: file))
        #expect(try books.count() == 3)
        #expect(try books.find(1) == Book(id: 1, shelfID: nil, title: "Book 1"))
        #expect(try tables.pages.count() == 6)
        #expect(effects.changed["books"]?.count == 3)
    }

    @Test func restrictThrowsNamingTheReferringModelAndKeepsEverything() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade, pages: .restrict)
        try fill(tables)

        #expect(throws: ItemError.stillReferenced(by: "Page", count: 6)) {
            try tables.shelves.commit(.deleted([shelf.id]))
        }
        #expect(try tables.shelves.count() == 1)
        #expect(try tables.books.count() == 3)
        #expect(try tables.pages.count() == 6)

        try tables.pages.commit(.removedAll)
        try tables.shelves.commit(.deleted([shelf.id]))
        #expect(try tables.books.count() == 0)
    }

    @Test func aReferenceToNothingThrowsAndWritesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        let stray = UUID()

        #expect(throws: ItemError.missingReference(field: "shelfID", id: "\(stray)")) {
            try tables.books.commit(.saved([Book(id: 1, shelfID: stray, title: "Lost")]))
        }
        #expect(try tables.books.count() == 0)
        // nil refers to nothing, and a parent saved earlier in the same transaction counts.
        try tables.books.commit(.saved([Book(id: 2, shelfID: nil, title: "Loose")]))
        try tables.database.transaction {
            try tables.shelves.save([shelf])
            try tables.books.save([Book(id: 3, shelfID: shelf.id, title: "Early")])
        }
        #expect(try tables.books.count() == 2)
    }

    @Test func aSecondValueWithAUniqueFieldsValueThrowsNamingFieldAndValue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try tables.shelves.commit(.saved([shelf]))

        #expect(throws: ItemError.notUnique(field: "name", value: "Fiction")) {
            try tables.shelves.commit(.saved([Shelf(id: UUID(), name: "Fiction", rank: 2)]))
        }
        #expect(throws: ItemError.notUnique(field: "name", value: "Poetry")) {
            try tables.shelves.commit(
                .saved([
                    Shelf(id: UUID(), name: "Poetry", rank: 2),
                    Shelf(id: UUID(), name: "Poetry", rank: 3),
                ]))
        }
        // Saving the same value again is not a second value.
        try tables.shelves.commit(.saved([Shelf(id: shelf.id, name: "Fiction", rank: 5)]))
        #expect(try tables.shelves.count() == 1)
    }

    @Test func aFieldMadeUniqueOrAReferenceLaterKeepsEveryStoredValueAndListsTheMisfits() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let plainShelves = try SQLiteTable<Shelf, ItemError>("shelves", in: database)
        let plainBooks = try SQLiteTable<Book, ItemError>("books", in: database)
        let twin = Shelf(id: UUID(), name: "Fiction", rank: 2)
        try plainShelves.commit(.saved([shelf, twin]))
        try plainBooks.commit(.saved([Book(id: 1, shelfID: UUID(), title: "Lost")]))
        database.close()

        let tables = try open(books: .cascade)

        #expect(try tables.shelves.count() == 2)
        #expect(try tables.shelves.duplicates() == ["name": ["Fiction"]])
        #expect(try tables.books.dangling() == [1])
        #expect(throws: ItemError.notUnique(field: "name", value: "Fiction")) {
            try tables.shelves.commit(.saved([Shelf(id: twin.id, name: "Fiction", rank: 3)]))
        }
        try tables.shelves.commit(.saved([Shelf(id: twin.id, name: "Fiction 2", rank: 3)]))
        #expect(try tables.shelves.duplicates().isEmpty)
    }

    /// A value of another model that refers to a page: a reference to a table keyed by text.
    struct Bookmark: StoredValue {
        var id: Int
        var pageID: String

        static let schemaVersion = 1
        static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
    }

    /// A book as another program wrote it: its shelf's id in lowercase, which Swift reads as
    /// the same UUID.
    struct BookInLowercase: Encodable {
        var id: Int
        var shelfID: String
        var title: String
    }

    /// `dangling()` finds, for each kind of id (UUID, Int, String), the values whose reference
    /// names no stored value, and no other: not a nil reference, not one that names a stored
    /// value, and not one whose JSON spells the id otherwise than SQL compares it.
    @Test func danglingFindsTheValuesThatNameNothingForEveryKindOfId() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        try SQLiteTable<Shelf, ItemError>("shelves", in: database).commit(.saved([shelf]))
        try SQLiteTable<Book, ItemError>("books", in: database).commit(
            .saved([
                Book(id: 1, shelfID: shelf.id, title: "On the shelf"),
                Book(id: 2, shelfID: UUID(), title: "Lost"),
                Book(id: 3, shelfID: nil, title: "On no shelf"),
                Book(id: 5, shelfID: UUID(), title: "Lost too"),
            ]))
        try SQLiteTable<Page, ItemError>("pages", in: database).commit(
            .saved([
                Page(id: "a", bookID: 1), Page(id: "b", bookID: 99), Page(id: "c", bookID: 3),
            ]))
        try SQLiteTable<Bookmark, ItemError>("bookmarks", in: database).commit(
            .saved([Bookmark(id: 1, pageID: "a"), Bookmark(id: 2, pageID: "A")]))
        database.close()
        try StoredRows.insert(
            [BookInLowercase(id: 4, shelfID: shelf.id.uuidString.lowercased(), title: "Lower")],
            ids: [4], version: 1, into: "books", in: file)

        let tables = try open(books: .cascade)
        defer { tables.database.close() }
        let bookmarks = try SQLiteTable<Bookmark, ItemError>(
            "bookmarks", in: tables.database,
            schema: SQLiteSchema(
                model: "Bookmark",
                references: [
                    SQLiteReference(
                        field: "pageID", table: "pages", rule: .restrict, parentID: \.pageID)
                ]))

        #expect(try tables.books.dangling() == [2, 5])
        #expect(try tables.pages.dangling() == ["b"])
        #expect(try bookmarks.dangling() == [2])
        #expect(try tables.shelves.dangling().isEmpty)
    }

    /// A row of schema version 1 (written after the table was migrated), whose reference, as
    /// Swift reads it (migrated), names no shelf: SQL cannot read it as this build does, so
    /// `dangling()` checks it in Swift (found by a review: SQL read only the current key).
    @Test func danglingFindsARowOfAnEarlierVersionThatNamesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        try SQLiteTable<Shelf, ItemError>("shelves", in: database).commit(.saved([shelf]))
        let books = try SQLiteTable<MigratedBook, ItemError>(
            "books", in: database,
            schema: SQLiteSchema(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "shelfID", table: "shelves", rule: .restrict, parentID: \.shelfID)
                ]))
        try StoredRows.insert(
            [MigratedBook.V1(id: 7, shelf: UUID(), title: "Lost")], ids: [7], version: 1,
            into: "books", in: file)

        var scanned: [Int] = []
        try books.scan { if $0.shelfID != shelf.id { scanned.append($0.id) } }
        #expect(scanned == [7])
        #expect(try books.dangling() == [7])
    }

    /// A reference to a table that no value of its model was ever saved in names nothing,
    /// unless it is nil; a row whose JSON SQL cannot read is damage, which `dangling()` throws,
    /// as a read of it does.
    @Test func danglingNamesEveryReferenceToAMissingTableAndThrowsAtDamage() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        let books = try SQLiteTable<Book, ItemError>(
            "books", in: database,
            schema: SQLiteSchema(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "shelfID", table: "shelves", rule: .restrict, parentID: \.shelfID)
                ]))
        try StoredRows.insert(
            [
                Book(id: 1, shelfID: UUID(), title: "A"), Book(id: 2, shelfID: nil, title: "B"),
            ], ids: [1, 2], version: 1, into: "books", in: file)

        #expect(try books.dangling() == [1])

        try StoredRows.execute("UPDATE books SET value = '{\"id\":2,' WHERE id = 2", in: file)
        #expect(throws: ItemError.self) { try books.dangling() }
        database.close()
    }

    @Test func aMigrationKeepsValuesThatBreakARuleAddedBeforeIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase<ItemError>(file: file)
        _ = try SQLiteTable<Badge, ItemError>("badges", in: database)
        database.close()
        let twins = [Badge(id: 1, name: "Gold"), Badge(id: 2, name: "Gold")]
        try StoredRows.insert(twins, ids: [1, 2], version: 1, into: "badges", in: file)
        try StoredRows.execute("UPDATE store_tables SET version = 1", in: file)

        let badges = try SQLiteTable<Badge, ItemError>(
            "badges", in: SQLiteDatabase(file: file),
            schema: SQLiteSchema(model: "Badge", unique: ["name"]))

        #expect(try badges.values(StoreQuery()) == twins)
        #expect(try badges.duplicates() == ["name": ["Gold"]])
    }

    @Test func nullifyRefusesADamagedRowAndDeletesNothing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .nullify)
        try fill(tables)
        try tables.database.execute("UPDATE books SET checksum = checksum + 1 WHERE id = 2")

        #expect(throws: ItemError.self) { try tables.shelves.commit(.deleted([shelf.id])) }

        #expect(try tables.shelves.count() == 1)
        #expect(try tables.books.find(1)?.shelfID == shelf.id)
    }

    @Test func aWriteInsideATransactionThatThrowsUndoesOnlyItself() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade, pages: .restrict)
        try fill(tables)

        try tables.database.transaction {
            // A restrict under a cascade: the books' pages stop the shelf's delete, and the
            // books already deleted by then come back.
            #expect(throws: ItemError.stillReferenced(by: "Page", count: 6)) {
                try tables.database.transaction { try tables.shelves.delete([shelf.id]) }
            }
            try tables.books.save([Book(id: 9, shelfID: shelf.id, title: "Kept")])
        }

        #expect(try tables.books.count() == 4)
        #expect(try tables.shelves.count() == 1)
    }

    /// A write that fills the disk (here, the page limit) makes SQLite roll the whole
    /// transaction back itself. A caller that catches it and goes on (a move: the copy's save
    /// failed, then the original's delete) must not have the rest committed on its own.
    @Test func aFullDiskEndsTheTransactionAndNothingAfterItIsCommitted() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try fill(tables)
        var pages: Int64 = 0
        try tables.database.run("PRAGMA page_count") { pages = $0.int64(at: 0) }
        try tables.database.execute("PRAGMA max_page_count = \(pages + 2)")
        let large = Book(id: 9, shelfID: shelf.id, title: String(repeating: "x", count: 200_000))

        var failures: [String] = []
        let failure = { (write: () throws -> Void) in
            do { try write() } catch { failures.append("\(error)".prefix(11).description) }
        }
        failure {
            try tables.database.transaction {
                try tables.books.save([Book(id: 8, shelfID: shelf.id, title: "Before")])
                failure { try tables.database.transaction { try tables.books.save([large]) } }
                failure { _ = try tables.shelves.delete([shelf.id]) }
                failure { try tables.database.transaction { _ = try tables.pages.delete(["1-1"]) } }
            }
        }

        #expect(failures == Array(repeating: "unwritable(", count: 4), "\(failures)")

        #expect(try tables.shelves.count() == 1)
        #expect(try tables.books.values(StoreQuery()).map(\.id) == [1, 2, 3])
        #expect(try tables.pages.count() == 6)
    }

    @Test func deletingIdsThatAreNotStoredReportsNone() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try fill(tables)

        let effects = try tables.pages.commit(.deleted(["1-1", "none"]))

        #expect(effects.keys(in: "pages") == [.text("1-1")])
    }

    /// The books' schema at `revision`, referring to shelves with `rule`.
    func booksSchema(_ rule: DeleteRule, revision: Int) -> SQLiteSchema<Book> {
        SQLiteSchema(
            model: "Book",
            references: [
                SQLiteReference(field: "shelfID", table: "shelves", rule: rule, parentID: \.shelfID)
            ], revision: revision)
    }

    /// The books at `revision`, referring to shelves with `rule`.
    func openBooks(_ rule: DeleteRule, revision: Int) throws -> Tables {
        let database = try SQLiteDatabase<ItemError>(file: file)
        return Tables(
            database: database,
            shelves: try SQLiteTable("shelves", in: database),
            books: try SQLiteTable(
                "books", in: database, schema: booksSchema(rule, revision: revision)),
            pages: try SQLiteTable("pages", in: database))
    }

    /// A revision record whose number a damaged byte made larger (2 read as 66) fails its
    /// checksum, and is taken for no record: the app's next build (revision 3, which made the
    /// rule `restrict`) records its own, and a delete follows it, at this open and the next
    /// (found by a review: every later build took itself for an older one, and the `cascade`
    /// deleted the book for good).
    @Test func aRevisionDamagedUpwardIsNotTakenForANewerBuilds() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let tables = try openBooks(.cascade, revision: 2)
            defer { tables.database.close() }
            try tables.shelves.commit(.saved([shelf]))
            try tables.books.commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Kept")]))
        }
        try StoredRows.execute(
            "UPDATE store_revisions SET revision = 66 WHERE name = 'books'", in: file)

        for _ in 1...2 {
            let tables = try openBooks(.restrict, revision: 3)
            defer { tables.database.close() }
            #expect(try tables.books.recordedRevision() == 3)
            #expect(try tables.books.recordedReferences() == ["shelfID shelves restrict Book"])
            #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
                try tables.shelves.commit(.deleted([shelf.id]))
            }
            #expect(try tables.books.count() == 1)
        }
    }

    /// A database an earlier release made (no checksum column) at the current revision: this
    /// release's first open writes the record again with its checksum, so that a damaged byte
    /// that later makes it larger is found, and the next build's rule applies (found by a
    /// review: the record was written only at a model change, and until then trusted).
    @Test func anEarlierReleasesRevisionRecordGetsItsChecksumAtTheFirstOpen() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func open(_ rule: DeleteRule, _ revision: Int) throws -> (
            SQLiteDatabase<ItemError>, SQLiteTable<Shelf, ItemError>, SQLiteTable<Book, ItemError>
        ) {
            let database = try SQLiteDatabase<ItemError>(file: file)
            let shelves = try SQLiteTable<Shelf, ItemError>("shelves", in: database)
            let books = try SQLiteTable<Book, ItemError>(
                "books", in: database,
                schema: SQLiteSchema(
                    model: "Book",
                    references: [
                        SQLiteReference(
                            field: "shelfID", table: "shelves", rule: rule, parentID: \.shelfID)
                    ], revision: revision))
            return (database, shelves, books)
        }
        do {
            let (database, shelves, books) = try open(.cascade, 2)
            defer { database.close() }
            try shelves.commit(.saved([shelf]))
            try books.commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Kept")]))
        }
        // As an earlier release left it.
        try StoredRows.execute(
            """
            DROP TABLE store_revisions;
            CREATE TABLE store_revisions (name TEXT PRIMARY KEY NOT NULL,
                revision INTEGER NOT NULL) WITHOUT ROWID;
            INSERT INTO store_revisions (name, revision) VALUES ('books', 2);
            INSERT INTO store_revisions (name, revision) VALUES ('shelves', 0);
            """, in: file)
        // This release, same revision, opens it (many launches).
        do {
            let (database, _, _) = try open(.cascade, 2)
            var columns = 0
            try database.run("PRAGMA table_info(store_revisions)") { _ in columns += 1 }
            #expect(columns == 3)
            database.close()
        }
        // One damaged byte: 2 reads as 66.
        try StoredRows.execute(
            "UPDATE store_revisions SET revision = 66 WHERE name = 'books'", in: file)

        let (database, shelves, books) = try open(.restrict, 3)
        defer { database.close() }
        #expect(try books.recordedRevision() == 3)
        #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
            try shelves.commit(.deleted([shelf.id]))
        }
    }
    func revision(_ name: String) throws -> [Int] {
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        var found: [Int] = []
        try database.run("SELECT revision FROM store_revisions WHERE name = '\(name)'") {
            found.append(Int($0.int64(at: 0)))
        }
        return found
    }

    /// An earlier release's record of revision 2 (no checksum). The older build (revision 2,
    /// `cascade`) opens while the newer one (revision 3, `restrict`) records its own: the older
    /// build read the unchecked record before the newer one committed, and its checksum write
    /// reads it again under the write lock, so it never writes 2 over 3 (found by a review: the
    /// older build's next open took the record for its own, and its cascade deleted the book).
    @Test func theBestEffortChecksumDoesNotWriteOverANewerBuildsRecord() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let tables = try openBooks(.cascade, revision: 2)
            defer { tables.database.close() }
            try tables.shelves.commit(.saved([shelf]))
            try tables.books.commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Kept")]))
        }
        try StoredRows.execute(
            "UPDATE store_revisions SET checksum = NULL WHERE name = 'books'", in: file)

        // The newer build's open, holding the write lock while it records revision 3.
        let newer = try SQLiteDatabase<ItemError>(file: file)
        try newer.execute("BEGIN IMMEDIATE")
        _ = try SQLiteTable<Book, ItemError>(
            "books", in: newer, schema: booksSchema(.restrict, revision: 3))
        let done = RevisionFlag()
        let file = file
        Thread.detachNewThread {
            // The older build's open (another process), at the same moment.
            if let database = try? SQLiteDatabase<ItemError>(file: file) {
                _ = try? SQLiteTable<Shelf, ItemError>("shelves", in: database)
                _ = try? SQLiteTable<Book, ItemError>(
                    "books", in: database, schema: booksSchema(.cascade, revision: 2))
                database.close()
            }
            done.set()
        }
        Thread.sleep(forTimeInterval: 0.5)
        try newer.execute("COMMIT")
        newer.close()
        while !done.isSet { Thread.sleep(forTimeInterval: 0.05) }

        #expect(try revision("books") == [3])
        // The older build's next open leaves the newer build's `restrict` in force.
        let tables = try openBooks(.cascade, revision: 2)
        defer { tables.database.close() }
        #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
            try tables.shelves.commit(.deleted([shelf.id]))
        }
        #expect(try tables.books.count() == 1)
    }

    /// A revision record with no checksum (a table an earlier release of scaffold-repo made, or
    /// a record it wrote into this one) is taken as it is: a newer build's rules stay in force.
    @Test(arguments: [false, true])
    func aRevisionRecordWithoutAChecksumIsTakenAsItIs(tableOfAnEarlierRelease: Bool) throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            let tables = try openBooks(.restrict, revision: 4)
            defer { tables.database.close() }
            try tables.shelves.commit(.saved([shelf]))
            try tables.books.commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Kept")]))
        }
        try StoredRows.execute(
            tableOfAnEarlierRelease
                ? """
                DROP TABLE store_revisions;
                CREATE TABLE store_revisions (name TEXT PRIMARY KEY NOT NULL,
                    revision INTEGER NOT NULL) WITHOUT ROWID;
                INSERT INTO store_revisions (name, revision) VALUES ('books', 4);
                """
                : "INSERT OR REPLACE INTO store_revisions (name, revision) VALUES ('books', 4)",
            in: file)

        let tables = try openBooks(.cascade, revision: 3)
        defer { tables.database.close() }

        #expect(try tables.books.recordedRevision() == 4)
        #expect(try tables.books.recordedReferences() == ["shelfID shelves restrict Book"])
        #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
            try tables.shelves.commit(.deleted([shelf.id]))
        }
    }

    /// An older build of the app (an earlier revision of the models) that opens the database
    /// after a newer one changed a delete rule and added an index leaves the newer records as
    /// they are: a delete by either build follows the newer rule (`restrict`, not the older
    /// `cascade`, which would delete the books). A later revision records its own again.
    @Test func anEarlierRevisionLeavesTheReferencesAndIndexesALaterOneRecorded() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        // The older build's books list their keys, which the newer build's do not: its open
        // writes, and must still leave the newer records.
        func open(_ rule: DeleteRule, revision: Int, indexed: [String] = []) throws -> Tables {
            let database = try SQLiteDatabase<ItemError>(file: file)
            let books = SQLiteSchema<Book>(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "shelfID", table: "shelves", rule: rule, parentID: \.shelfID)
                ], storedKeys: revision == 1 ? ["id", "shelfID?", "title"] : [],
                revision: revision)
            return Tables(
                database: database,
                shelves: try SQLiteTable(
                    "shelves", in: database,
                    schema: SQLiteSchema(model: "Shelf", indexed: indexed, revision: revision)),
                books: try SQLiteTable("books", in: database, schema: books),
                pages: try SQLiteTable("pages", in: database))
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let newer = try open(.restrict, revision: 2, indexed: ["rank"])
        defer { newer.database.close() }
        try newer.shelves.commit(.saved([shelf]))
        try newer.books.commit(.saved([Book(id: 1, shelfID: shelf.id, title: "Kept")]))

        let older = try open(.cascade, revision: 1)
        defer { older.database.close() }

        #expect(try older.books.recordedReferences() == ["shelfID shelves restrict Book"])
        #expect(Set(try older.shelves.indexes().keys) == ["shelves.rank"])
        for shelves in [newer.shelves, older.shelves] {
            #expect(throws: ItemError.stillReferenced(by: "Book", count: 1)) {
                try shelves.commit(.deleted([shelf.id]))
            }
        }
        #expect(try newer.books.count() == 1)
        let later = try open(.nullify, revision: 3)
        defer { later.database.close() }
        #expect(try later.books.recordedReferences() == ["shelfID shelves nullify Book"])
        #expect(try later.shelves.indexes().isEmpty)
    }

    @Test func theTableRecordsItsReferencesAndIndexesAndOpensWithoutWritingNextTime() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        #expect(
            Set(try tables.shelves.indexes().keys) == ["shelves.name", "shelves.rank"])
        #expect(try tables.books.recordedReferences() == ["shelfID shelves cascade Book"])
        tables.database.close()

        // Reopened with another rule and no index: the records follow the model.
        let database = try SQLiteDatabase<ItemError>(file: file)
        let shelves = try SQLiteTable<Shelf, ItemError>(
            "shelves", in: database, schema: SQLiteSchema(model: "Shelf"))
        let books = try SQLiteTable<Book, ItemError>(
            "books", in: database,
            schema: SQLiteSchema(
                model: "Book",
                references: [
                    SQLiteReference(
                        field: "shelfID", table: "shelves", rule: .nullify, parentID: \.shelfID)
                ]))
        #expect(try shelves.indexes().isEmpty)
        #expect(try books.recordedReferences() == ["shelfID shelves nullify Book"])
    }

    @Test func aTransactionWritesSeveralTablesTogetherOrNotAtAll() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tables = try open(books: .cascade)
        try fill(tables)
        let transaction = StoreTransaction(tables.database)

        #expect(throws: ItemError.self) {
            try tables.database.transaction {
                let books = try transaction.table("books") { database in
                    try SQLiteTable<Book, ItemError>(
                        "books", in: database, schema: tables.books.schema)
                }
                try books.save([Book(id: 9, shelfID: shelf.id, title: "New")])
                // The second shelf named Fiction breaks the unique name: all is rolled back.
                try transaction.table("shelves") { database in
                    try SQLiteTable<Shelf, ItemError>(
                        "shelves", in: database, schema: tables.shelves.schema)
                }.save([Shelf(id: UUID(), name: "Fiction", rank: 3)])
            }
        }
        #expect(try tables.books.find(9) == nil)
        #expect(Set(try tables.shelves.indexes().keys) == ["shelves.name", "shelves.rank"])
        transaction.finish()
        #expect(throws: ItemError.closed) {
            try transaction.table("books") { try SQLiteTable<Book, ItemError>("books", in: $0) }
        }
    }

    @Test func theChangeCenterTellsListenersOfTheirTableButNotTheirOwnWrite() async {
        let center = SQLiteChangeCenter()
        let (books, told) = AsyncStream.makeStream(of: [SQLiteArgument].self)
        let listener = NSObject()
        center.listen(ObjectIdentifier(listener), file: file, table: "books") { told.yield($0) }
        var effects = SQLiteEffects()
        effects.delete([.integer(1)], in: "books")
        effects.change([.integer(2)], in: "books")
        effects.delete([.integer(3)], in: "shelves")

        center.post(effects, file: file, origin: ObjectIdentifier(listener), table: "books")
        center.post(effects, file: file, origin: nil, table: nil)
        center.post(
            effects, file: folder.appendingPathComponent("Other.sqlite"), origin: nil, table: nil)
        center.stopListening(ObjectIdentifier(listener))
        center.post(effects, file: file, origin: nil, table: nil)
        told.finish()

        var received: [[SQLiteArgument]] = []
        for await keys in books { received.append(keys) }
        #expect(received == [[.integer(1), .integer(2)]])
        withExtendedLifetime(listener) {}
    }
}

/// Set once by another thread, read by the test.
private final class RevisionFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
