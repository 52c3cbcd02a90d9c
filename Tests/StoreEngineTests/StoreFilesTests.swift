import Foundation
import Testing

@testable import StoreEngine

/// A model with a Decimal, which JSONEncoder writes as a bare `NaN` when it is not a number.
struct Priced: StoredValue {
    var id: Int
    var name: String
    var price: Decimal

    static let schemaVersion = 1

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

@Suite struct StoreFilesTests {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("StoreFilesTests-\(UUID().uuidString)")
    }

    func priced(_ number: Int, price: Decimal = 1) -> Priced {
        Priced(id: number, name: "NaN \(number)", price: price)
    }

    /// Whether `error` is `unwritable` naming a Decimal's NaN.
    func isRefusedNaN(_ error: any Error) -> Bool {
        guard case ItemError.unwritable(_, let reason)? = error as? ItemError else { return false }
        return reason.contains("NaN")
    }

    /// The files in `folder` and their bytes.
    func contents() throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
        }
        return files
    }

    @Test func aBareNaNIsFoundOnlyOutsideStrings() throws {
        #expect(throws: EncodingError.self) {
            try StoreFiles.readableJSON(Data(#"{"a":"NaN","b":NaN}"#.utf8))
        }
        for json in [#"{"a":"NaN \"NaN\" N","b":1}"#, #"["\\",1]"#, "{}", ""] {
            #expect(try StoreFiles.readableJSON(Data(json.utf8)) == Data(json.utf8))
        }
    }

    @Test func aDecimalNaNIsRefusedByEveryStorageAndNothingIsWritten() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nan = priced(9, price: Decimal(1) / Decimal(0))
        #expect(nan.price.isNaN)

        // The journal: a record appended, and a batch written as a snapshot.
        var journal = try JournalStore<Priced, ItemError>(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock", compactionFloor: 1 << 20)
        try journal.commit(.saved((1...3).map { priced($0) }))
        try journal.commit(.saved([priced(4)]))
        let before = try contents()
        #expect {
            try journal.commit(.saved([nan]))
        } throws: {
            isRefusedNaN($0)
        }
        #expect {
            try journal.commit(.saved((10...20).map { priced($0) } + [nan]))
        } throws: {
            isRefusedNaN($0)
        }
        #expect(try contents() == before)
        #expect(journal.values.items == (1...4).map { priced($0) })
        _ = journal.close()

        // The snapshot store.
        var snapshot = try SnapshotStore<Priced, ItemError>(
            directory: folder, file: "priced.json", lock: "priced-snapshot.lock")
        try snapshot.commit(.saved([priced(1)]))
        let written = try contents()
        #expect {
            try snapshot.commit(.saved([nan]))
        } throws: {
            isRefusedNaN($0)
        }
        #expect(try contents() == written)
        snapshot.close()

        // The sqlite store.
        let database = try SQLiteDatabase<ItemError>(file: folder.appendingPathComponent("p.db"))
        let table = try SQLiteTable<Priced, ItemError>("priced", in: database)
        try database.transaction { try table.save([priced(1)]) }
        #expect {
            try database.transaction { try table.save([priced(2), nan]) }
        } throws: {
            isRefusedNaN($0)
        }
        #expect(try table.page(after: nil, limit: 10) == [priced(1)])
        database.close()
    }

    @Test func aGenerationNoStoreReachesOpensAndSavesWithoutOverflow() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        // An intact checksum over a generation past any a store reaches (a damaged byte before
        // the checksum was taken, or a file made by hand).
        let json = #"{"generation":9223372036854775807,"items":[],"schemaVersion":1}"#
        try StoreFiles.CRC32.sealed(Data(json.utf8)).write(
            to: folder.appendingPathComponent("priced.snapshot.json"))

        var store = try JournalStore<Priced, ItemError>(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock", compactionFloor: 1 << 20)
        // A batch of at least as many values as the store holds is written as a snapshot,
        // of the next generation.
        try store.commit(.saved([priced(1)]))
        try store.commit(.saved([priced(1), priced(2)]))
        _ = store.close()

        let reopened = try JournalStore<Priced, ItemError>(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock", compactionFloor: 1 << 20)
        #expect(reopened.values.items == [priced(1), priced(2)])
    }

    @Test func aPathIsOneWhateverLinkSpellsItAndWhetherItExistsYet() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let real = folder.appendingPathComponent("real")
        let link = folder.appendingPathComponent("link")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)

        let missing = StoreFiles.canonicalPath(link.appendingPathComponent("Store/App.sqlite"))
        #expect(
            missing == StoreFiles.canonicalPath(real.appendingPathComponent("Store/App.sqlite")))
        #expect(missing.hasSuffix("/real/Store/App.sqlite"))
        // Once the folder and the file exist, the path is the same as before.
        try FileManager.default.createDirectory(
            at: real.appendingPathComponent("Store"), withIntermediateDirectories: true)
        try Data().write(to: real.appendingPathComponent("Store/App.sqlite"))
        #expect(
            StoreFiles.canonicalPath(link.appendingPathComponent("Store/App.sqlite")) == missing)
        #expect(
            StoreFiles.canonicalPath(link.appendingPathComponent("Store/../Store/App.sqlite"))
                == missing)
    }

    @Test func aWholeFileIsReplacedWithNothingLeftBeside() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("values.json")
        try Data("old".utf8).write(to: file)
        try StoreFiles.replaceWhole(file, with: Data("new".utf8), reporting: ItemError.self)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["values.json"])

        // A folder where the file should be: the replacement fails, and leaves nothing behind.
        let blocked = folder.appendingPathComponent("blocked")
        try FileManager.default.createDirectory(
            at: blocked.appendingPathComponent("inside"), withIntermediateDirectories: true)
        #expect(throws: ItemError.self) {
            try StoreFiles.replaceWhole(blocked, with: Data("new".utf8), reporting: ItemError.self)
        }
        #expect(!FileManager.default.fileExists(atPath: blocked.path + ".tmp"))
    }
}
