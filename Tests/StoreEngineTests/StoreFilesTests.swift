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

/// A model whose values hold objects, some of them its own kind.
struct Node: StoredValue {
    var id: Int
    var title: String
    var children: [Node]

    static let schemaVersion = 1

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// Salvaging a damaged snapshot: every value whose bytes still decode is kept, the others are
/// set aside and reported, and nothing is kept that was not a value of the snapshot.
@Suite struct SnapshotSalvageTests {
    let folder: URL
    var snapshot: URL { folder.appendingPathComponent("nodes.json") }

    init() {
        folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("SnapshotSalvageTests-\(UUID().uuidString)")
    }

    func node(_ id: Int, children: Int = 0) -> Node {
        Node(
            id: id, title: "Node \(id)",
            children: (0..<children).map { Node(id: $0, title: "old copy of \($0)", children: []) })
    }

    /// Writes `nodes` as the store's snapshot, replaces the first `old` in it with `new`, and
    /// recovers the store: what recover reports, and the values it kept.
    func recovered(_ nodes: [Node], replacing old: String, with new: String) throws
        -> (StoreRecovery, [Node])
    {
        var store = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        try store.commit(.saved(nodes))
        _ = store.close()
        var data = try Data(contentsOf: snapshot)
        let range = try #require(data.range(of: Data(old.utf8)))
        data.replaceSubrange(range, with: Data(new.utf8))
        try data.write(to: snapshot)
        let recovery = try JournalStore<Node, ItemError>.recover(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal", lock: "nodes.lock")
        let reopened = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        return (recovery, reopened.values.items)
    }

    /// One flipped bit anywhere in a snapshot, its end included, is put back from its
    /// checksum: every value as written.
    @Test func oneDamagedBitOfASnapshotIsPutBack() throws {
        let nodes = (1...20).map { node($0, children: 1) }
        for (old, new) in [
            (#""title":"Node 2""#, #""title":"Node 3""#),
            (#"],"schemaVersion":1}"#, #"],"schemaVersion":3}"#),
            (#""id":12,"#, #""id":13,"#),
        ] {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (recovery, kept) = try recovered(nodes, replacing: old, with: new)
            #expect(kept == nodes, "\(new)")
            #expect(recovery.repaired.count == 1 && recovery.setAside.isEmpty, "\(new)")
        }
        // The snapshot store's file too.
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try SnapshotStore<Node, ItemError>(
            directory: folder, file: "file.json", lock: "file.lock")
        try store.commit(.saved(nodes))
        store.close()
        let file = folder.appendingPathComponent("file.json")
        var data = try Data(contentsOf: file)
        data[data.count / 2] ^= 0x10
        try data.write(to: file)
        let recovery = try SnapshotStore<Node, ItemError>.recover(
            directory: folder, file: "file.json", lock: "file.lock")
        #expect(recovery.repaired.map(\.offset) == [data.count / 2])
        let reopened = try SnapshotStore<Node, ItemError>(
            directory: folder, file: "file.json", lock: "file.lock")
        #expect(reopened.values.items == nodes)
    }

    @Test func aValuesOwnObjectsAreNeverKeptAsValues() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = [node(1), node(2, children: 3)] + (3...8).map { node($0) }
        let (recovery, kept) = try recovered(
            nodes, replacing: #""title":"Node 2""#, with: #""TitlE":"Node 2""#)
        #expect(kept == nodes.filter { $0.id != 2 })
        #expect(recovery.setAside.count == 1)
    }

    @Test func aValueHoldingManyObjectsCostsOnlyItself() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = (1...200).map { node($0, children: 300) }
        let (recovery, kept) = try recovered(
            nodes, replacing: #""title":"Node 7""#, with: #""TitlE":"Node 7""#)
        #expect(kept == nodes.filter { $0.id != 7 })
        #expect(recovery.setAside.count == 1)
    }

    @Test func aDamagedBracketLosesOnlyItsValueAndSaysSo() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = (1...6).map { node($0) }
        for (old, new) in [
            (#""items":[{"#, #""items":[Z"#),  // The first value's start.
            (#""Node 3"},{"#, #""Node 3"}#{"#),  // Between two values.
            (#""Node 4"}"#, #""Node 4'}"#),  // A quote that ends a string.
        ] {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (recovery, kept) = try recovered(nodes, replacing: old, with: new)
            let lost = nodes.count - kept.count
            #expect(lost >= 1 && lost <= 2, "\(old)")
            #expect(!recovery.setAside.isEmpty, "\(old)")
            #expect(kept.allSatisfy(nodes.contains), "\(old)")
        }
        // A comma between two values that reads as the array's end: the values after it are
        // read from the end, and none is lost.
        let (recovery, kept) = try recovered(
            nodes, replacing: #""Node 3"},{"#, with: #""Node 3"}]{"#)
        #expect(kept == nodes)
        #expect(recovery.keptUnverified.count == 1)
    }

    @Test func aDamagedIdThatEqualsAnotherKeepsTheValueThatHoldsIt() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = (1...1000).map { node($0) }
        let (recovery, kept) = try recovered(nodes, replacing: #""id":300,"#, with: #""id":500,"#)
        #expect(kept == nodes.filter { $0.id != 300 })
        #expect(
            recovery.setAside.map(\.reason).contains { $0.contains("out of the snapshot's order") })
    }

    /// The version is read from the end: a value's own `schemaVersion` key is not taken for
    /// it. One that does not read there is taken to be the model's (a snapshot is written again
    /// in it whenever it opens); one that reads newer sets the snapshot aside whole.
    @Test func aSchemaVersionIsReadFromTheEndOrTakenToBeTheModels() throws {
        let nodes = (1...8).map { Node(id: $0, title: #"{"schemaVersion":1}"#, children: []) }
        do {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (recovery, kept) = try recovered(
                nodes, replacing: #"],"schemaVersion":1}"#, with: #"],"schemaVersiON":1}"#)
            #expect(kept == nodes)
            // The end, which was not read, is reported.
            #expect(recovery.setAside.count == 1 && recovery.keptUnverified.count == 1)
        }
        do {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (recovery, kept) = try recovered(
                nodes, replacing: #"],"schemaVersion":1}"#, with: #"],"schemaVersion":7}"#)
            #expect(kept.isEmpty)
            #expect(recovery.setAside.map(\.reason) == [StoreRecovery.Damage.undecodable])
        }
    }

    /// A snapshot cut short (its end and checksum line lost) is read as far as it goes.
    @Test func aSnapshotCutShortKeepsTheValuesBeforeTheCut() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let nodes = (1...8).map { node($0) }
        var store = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        try store.commit(.saved(nodes))
        _ = store.close()
        let data = try Data(contentsOf: snapshot)
        let cut = try #require(data.range(of: Data(#"{"children":[],"id":6"#.utf8)))
        try data[..<(cut.lowerBound + 5)].write(to: snapshot)
        #expect(throws: ItemError.self) {
            _ = try JournalStore<Node, ItemError>(
                directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
                lock: "nodes.lock", compactionFloor: 1 << 30)
        }

        let recovery = try JournalStore<Node, ItemError>.recover(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal", lock: "nodes.lock")

        #expect(recovery.setAside.map(\.offset) == [cut.lowerBound])
        let reopened = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        #expect(reopened.values.items == Array(nodes.prefix(5)))
    }

    /// Cut inside a value's own objects: none of them is taken for a value.
    @Test func aSnapshotCutInsideAValuesObjectsKeepsNoneOfThem() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var nodes = (1...5).map { node($0) }
        nodes.append(
            Node(
                id: 6, title: "Node 6",
                children: (100...102).map { Node(id: $0, title: "child", children: []) }))
        var store = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        try store.commit(.saved(nodes))
        _ = store.close()
        let data = try Data(contentsOf: snapshot)
        let child = try #require(data.range(of: Data(#""id":101,"title":"child"}"#.utf8)))
        try data[..<child.upperBound].write(to: snapshot)

        let recovery = try JournalStore<Node, ItemError>.recover(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal", lock: "nodes.lock")

        #expect(recovery.setAside.count == 1)
        let reopened = try JournalStore<Node, ItemError>(
            directory: folder, snapshot: "nodes.json", journal: "nodes.journal",
            lock: "nodes.lock", compactionFloor: 1 << 30)
        #expect(reopened.values.items == Array(nodes.prefix(5)))
    }
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

    /// A store that an earlier release wrote with a Decimal's NaN (intact checksums) is
    /// damaged, not a model to change: recover sets that value aside and keeps the others.
    @Test func aNaNAnEarlierReleaseSavedIsSetAsideAndTheOtherValuesKept() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func json(_ id: Int, _ price: String) -> String {
            #"{"id":\#(id),"name":"NaN \#(id)","price":\#(price)}"#
        }
        let snapshot =
            #"{"generation":1,"items":["# + json(1, "1") + "," + json(2, "NaN") + ","
            + json(3, "3") + #"],"schemaVersion":1}"#
        try StoreFiles.CRC32.sealed(Data(snapshot.utf8)).write(
            to: folder.appendingPathComponent("priced.snapshot.json"))
        let record =
            #"{"generation":1,"save":["# + json(4, "NaN") + "," + json(5, "5")
            + #"],"version":1}"#
        let line =
            record + " " + StoreFiles.CRC32.format(StoreFiles.CRC32.checksum(Data(record.utf8)))
        try Data((line + "\n").utf8).write(to: folder.appendingPathComponent("priced.journal"))
        func open() throws -> JournalStore<Priced, ItemError> {
            try JournalStore(
                directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
                lock: "priced.lock", compactionFloor: 1 << 20)
        }
        #expect {
            _ = try open()
        } throws: {
            guard case ItemError.corrupt(_, _, let reason)? = $0 as? ItemError else { return false }
            return reason == StoreFiles.bareNaN
        }

        let recovery = try JournalStore<Priced, ItemError>.recover(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock")

        #expect(recovery.setAside.count == 2)
        #expect(try open().values.items.map(\.id) == [1, 3, 5])

        // The snapshot store's file alike.
        let file = #"{"items":["# + json(1, "1") + "," + json(2, "NaN") + #"],"schemaVersion":1}"#
        try StoreFiles.CRC32.sealed(Data(file.utf8)).write(
            to: folder.appendingPathComponent("priced.json"))
        _ = try SnapshotStore<Priced, ItemError>.recover(
            directory: folder, file: "priced.json", lock: "priced-snapshot.lock")
        let store = try SnapshotStore<Priced, ItemError>(
            directory: folder, file: "priced.json", lock: "priced-snapshot.lock")
        #expect(store.values.items.map(\.id) == [1])
    }

    /// A sqlite row an earlier release saved with a Decimal's NaN (its checksum intact) is a
    /// damaged row: reads say to recover, and recover sets it aside, its bytes kept.
    @Test func aNaNRowAnEarlierReleaseSavedIsSetAsideByRecover() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("p.db")
        do {
            let database = try SQLiteDatabase<ItemError>(file: file)
            defer { database.close() }
            let table = try SQLiteTable<Priced, ItemError>("priced", in: database)
            try database.transaction { try table.save([priced(1), priced(3)]) }
            let json = Data(#"{"id":2,"name":"NaN 2","price":NaN}"#.utf8)
            let checksum = SQLiteTable<Priced, ItemError>.checksum(2, 1, json)
            try database.transaction {
                try database.run(
                    "INSERT INTO priced (id, version, value, checksum) VALUES (2, 1, ?, ?)",
                    bind: {
                        $0.bind(utf8: json, at: 1)
                        $0.bind(Int64(checksum), at: 2)
                    }, row: { _ in })
            }
            #expect {
                _ = try table.page(after: nil, limit: 10)
            } throws: {
                guard case ItemError.corrupt(_, _, let reason)? = $0 as? ItemError else {
                    return false
                }
                return reason.contains("recover")
            }
        }

        let recovery = try SQLiteTable<Priced, ItemError>.recover(
            "priced", schema: SQLiteSchema(model: "Priced"), file: file)

        #expect(recovery.setAside.count == 1)
        let database = try SQLiteDatabase<ItemError>(file: file)
        defer { database.close() }
        let table = try SQLiteTable<Priced, ItemError>("priced", in: database)
        #expect(try table.page(after: nil, limit: 10) == [priced(1), priced(3)])
    }

    /// Two damaged quotes, one on each side of `},{`, join two values into one object that
    /// JSONDecoder reads (the second's members repeat the first's keys): both are set aside and
    /// reported, where the first kept the second's fields and the second was lost unreported.
    @Test func twoValuesJoinedByDamageAreSetAsideNotReadAsOne() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        var store = try JournalStore<Priced, ItemError>(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock", compactionFloor: 1 << 20)
        try store.commit(.saved((1...5).map { priced($0) }))
        _ = store.close()
        let file = folder.appendingPathComponent("priced.snapshot.json")
        var data = try Data(contentsOf: file)
        let joint = try #require(data.range(of: Data(#""price":1},{"id":2"#.utf8)))
        data.replaceSubrange(joint, with: Data(#""price#:1},{#id":2"#.utf8))
        try data.write(to: file)
        #expect(
            StoreFiles.JSONBytes.hasRepeatedKey(
                Array(#"{"a":1,"b":2,"c#:1},{#a":2,"b":3}"#.utf8)[...]))
        #expect(
            !StoreFiles.JSONBytes.hasRepeatedKey(Array(#"{"a":{"a":1},"b":[{"a":2}]}"#.utf8)[...]))

        let recovery = try JournalStore<Priced, ItemError>.recover(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock")

        #expect(recovery.setAside.count == 1)
        let reopened = try JournalStore<Priced, ItemError>(
            directory: folder, snapshot: "priced.snapshot.json", journal: "priced.journal",
            lock: "priced.lock", compactionFloor: 1 << 20)
        #expect(reopened.values.items == (3...5).map { priced($0) })
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

    /// A file's size as an `Int`, or nil: never a trap (`Int(lseek(…))` trapped past 2 GiB
    /// where `Int` has 32 bits), and never a size taken from a failed call (a copy of a file
    /// whose size failed was made empty).
    @Test func aFilesSizeIsReadOrNil() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("sized")
        try Data(repeating: 7, count: 1_234).write(to: file)
        let descriptor = open(file.path, O_RDONLY)
        defer { close(descriptor) }

        #expect(StoreFiles.size(of: descriptor) == 1_234)
        #expect(StoreFiles.size(of: -1) == nil)
    }

    @Test func aWholeFileIsReplacedWithNothingLeftBeside() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("values.json")
        try Data("old".utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        try StoreFiles.replaceWhole(file, with: Data("new".utf8), reporting: ItemError.self)
        #expect(try Data(contentsOf: file) == Data("new".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["values.json"])
        // The permissions of the file it replaces, as Foundation's atomic write keeps them.
        let permissions =
            try FileManager.default.attributesOfItem(atPath: file.path)[
                .posixPermissions] as? Int
        #expect(permissions == 0o600)
        // A folder removed while the store is open is made again.
        try FileManager.default.removeItem(at: folder)
        try StoreFiles.replaceWhole(file, with: Data("again".utf8), reporting: ItemError.self)
        #expect(try Data(contentsOf: file) == Data("again".utf8))

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

/// An item as a build without its title stored it, at the same schema version.
struct Untitled: StoredValue {
    var id: Int
    var count: Int64

    static let schemaVersion = Item.schemaVersion

    static func precedes(_ first: Int, _ second: Int) -> Bool { first < second }
}

/// Stored values that do not fit the model are reported in words: what is missing and where,
/// not the decoding error's debug dump.
@Suite struct IncompatibleValueTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("IncompatibleValueTests-\(UUID().uuidString)")

    /// The reason of the `.incompatible` error that `open` throws.
    func reason(_ open: () throws -> Void) throws -> String {
        do {
            try open()
        } catch ItemError.incompatible(_, let reason) {
            return reason
        }
        Issue.record("the values opened although they have no title")
        return ""
    }

    @Test func everyStorageNamesTheMissingKeyAndWhereItIsMissing() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let untitled = [Untitled(id: 1, count: 7), Untitled(id: 2, count: 8)]
        func journal<Value: StoredValue>(_: Value.Type) throws -> JournalStore<Value, ItemError> {
            try JournalStore(
                directory: folder, snapshot: "items.json", journal: "items.journal",
                lock: "items.lock", compactionFloor: 1 << 30)
        }
        // A save smaller than the store goes in the journal, not a new snapshot.
        var titled = try journal(Item.self)
        try titled.commit(.saved([Item(id: 1, title: "First", count: 7)]))
        try titled.commit(.saved([Item(id: 2, title: "Second", count: 8)]))
        _ = titled.close()
        var written = try journal(Untitled.self)
        try written.commit(.saved([Untitled(id: 3, count: 9)]))
        _ = written.close()
        let inRecord = try reason { _ = try journal(Item.self) }

        var snapshot = try SnapshotStore<Untitled, ItemError>(
            directory: folder, file: "snapshot.json", lock: "snapshot.lock")
        try snapshot.commit(.saved(untitled))
        snapshot.close()
        let inSnapshot = try reason {
            _ = try SnapshotStore<Item, ItemError>(
                directory: folder, file: "snapshot.json", lock: "snapshot.lock")
        }

        let file = folder.appendingPathComponent("Store.sqlite")
        let database = try SQLiteDatabase<ItemError>(file: file)
        let rows = try SQLiteTable<Untitled, ItemError>("items", in: database)
        try database.transaction { try rows.save(untitled) }
        database.close()
        let inRow = try reason {
            _ = try SQLiteTable<Item, ItemError>("items", in: SQLiteDatabase(file: file)).find(1)
        }

        #expect(inRecord.hasPrefix("the record at byte "))
        #expect(inRecord.hasSuffix(": no value for save[0].title"))
        #expect(inSnapshot == "no value for items[0].title")
        #expect(inRow == "a row of items (id 1): no value for title")
    }

    @Test func aValueOfTheWrongTypeNamesItsPlaceAndWhatWasFound() {
        struct Titled: Decodable { var title: [String] }
        let json = Data(#"{"title": ["a", 1]}"#.utf8)
        let error = #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(Titled.self, from: json)
        }
        let reason = error.map { StoreFiles.decodingReason($0) } ?? ""
        #expect(reason.hasPrefix("title[1]: "))
        #expect(reason.contains("String"))
        #expect(!reason.contains("CodingKeys"))
    }
}
