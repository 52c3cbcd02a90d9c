import Foundation
import Testing

@testable import StoreEngine

/// A model with UUID ids, ordered by their 16 bytes as a generated model orders them.
struct Tagged: StoredValue {
    var id: UUID
    var name: String

    static let schemaVersion = 1

    static func precedes(_ first: UUID, _ second: UUID) -> Bool {
        withUnsafeBytes(of: first.uuid) { first in
            withUnsafeBytes(of: second.uuid) { second in
                first.lexicographicallyPrecedes(second)
            }
        }
    }
}

/// Salvage with what the flat Int-id tests do not have: UUID ids, whose order is their bytes',
/// and a snapshot written by an earlier version of the model, read through its migration.
@Suite struct SalvageAcrossModelsTests {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("SalvageAcrossModelsTests-\(UUID().uuidString)")

    /// Damages a sealed snapshot by replacing `old` with `new` (more than one bit, so it is not
    /// put back), then recovers the store as `Value`: the report and the values kept.
    func recovered<Value: StoredValue>(
        _ sealed: Data, replacing old: String, with new: String, as _: Value.Type
    ) throws -> (StoreRecovery, [Value]) {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var data = sealed
        let range = try #require(data.range(of: Data(old.utf8)))
        data.replaceSubrange(range, with: Data(new.utf8))
        try data.write(to: folder.appendingPathComponent("values.json"))
        let recovery = try JournalStore<Value, ItemError>.recover(
            directory: folder, snapshot: "values.json", journal: "values.journal",
            lock: "values.lock")
        let reopened = try JournalStore<Value, ItemError>(
            directory: folder, snapshot: "values.json", journal: "values.journal",
            lock: "values.lock", compactionFloor: 1 << 30)
        return (recovery, reopened.values.items)
    }

    /// Ten values with UUID ids `…0010` to `…0019`, written by the store itself.
    func taggedSnapshot() throws -> (values: [Tagged], sealed: Data) {
        let values = (0x10...0x19).map { number in
            let hex = String(number, radix: 16)
            return Tagged(
                id: UUID(uuidString: "00000000-0000-0000-0000-0000000000\(hex)")!,
                name: "Tag \(number)")
        }
        var store = try JournalStore<Tagged, ItemError>(
            directory: folder, snapshot: "values.json", journal: "values.journal",
            lock: "values.lock", compactionFloor: 1 << 30)
        try store.commit(.saved(values))
        _ = store.close()
        let sealed = try Data(contentsOf: folder.appendingPathComponent("values.json"))
        try FileManager.default.removeItem(at: folder)
        return (values, sealed)
    }

    /// A UUID id damaged out of the ids' byte order, and one no longer a UUID: each costs only
    /// its own value, and each is reported.
    @Test func aDamagedUUIDIdCostsOnlyItsValue() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let (values, sealed) = try taggedSnapshot()
        for (old, new, lost) in [
            ("0000000014", "000000001A", 0x14),  // Still a UUID, now after …0015.
            ("0000000016", "00000000G6", 0x16),  // No longer a UUID.
        ] {
            defer { try? FileManager.default.removeItem(at: folder) }
            let (recovery, kept) = try recovered(sealed, replacing: old, with: new, as: Tagged.self)
            #expect(kept == values.filter { $0.name != "Tag \(lost)" }, "\(new)")
            #expect(recovery.setAside.count == 1, "\(new)")
        }
    }

    /// A damaged snapshot that an earlier version of the model wrote: the values that still read
    /// are migrated as an intact one's would be, and the damaged one is set aside.
    @Test func aDamagedSnapshotOfAnEarlierVersionKeepsItsOtherValuesMigrated() throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let items = (1...5).map { #"{"count":\#($0),"id":\#($0),"title":"Old \#($0)"}"# }
        let old =
            #"{"generation":0,"items":["# + items.joined(separator: ",")
            + #"],"schemaVersion":1}"#
        let sealed = StoreFiles.CRC32.sealed(Data(old.utf8))

        let (recovery, kept) = try recovered(
            sealed, replacing: #""count":3,"#, with: #""count":x,"#, as: Item.self)

        #expect(kept == [1, 2, 4, 5].map { Item(id: $0, title: "Old \($0)", count: Int64($0)) })
        #expect(recovery.setAside.count == 1)
        #expect(recovery.keptUnverified.count == 1)  // Its checksum failed.
    }
}
