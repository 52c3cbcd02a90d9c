// An older build of the app beside a newer one (`--child older-build SIZE 0`): the journal store
// of a model that a newer build wrote with one more field in every value, which this build does
// not know and keeps (the model's `knownKeys`). What that costs against the store of its own
// values: the first open (it reads every value key by key and writes the snapshot again), the
// next open (key by key again: the snapshot lists no keys while it keeps a newer build's), and
// a compaction that writes each value with the field it keeps.

import BenchJournal
import Foundation

/// The older-build child: prints `own open, first open, next open, compact`, in seconds, after
/// checking that every value written has the newer build's field, with its own id.
@MainActor
func runOlderBuildChild(size: Int) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("store-bench-older-build-\(size)-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let snapshot = directory.appendingPathComponent(EntryRepository.snapshotFileName)
    do {
        let entries = sampleEntries(0..<size)
        let first = try EntryRepository(directory: directory)
        try await first.save(contentsOf: entries)
        await first.close()
        // The snapshot as a newer build wrote it (without the checksum line of the files of
        // earlier releases, which opening reads too): every value has a field this build does
        // not know, its own id again.
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var items = Data("[".utf8)
        for (index, entry) in entries.enumerated() {
            if index > 0 { items.append(UInt8(ascii: ",")) }
            items.append(contentsOf: #"{"aNewerField":"\#(entry.id)","#.utf8)
            items.append(try encoder.encode(entry).dropFirst())
        }
        items.append(UInt8(ascii: "]"))
        let file =
            Data(#"{"generation":0,"items":"#.utf8) + items + Data(#","schemaVersion":1}"#.utf8)
        try file.write(to: directory.appendingPathComponent("newer"))
    }
    // A closed repository still holds its values: each is let go before the next opens.
    var repository: EntryRepository?
    let ownOpen = try time { repository = try EntryRepository(directory: directory) }
    await repository?.close()
    repository = nil
    try FileManager.default.removeItem(at: snapshot)
    try FileManager.default.moveItem(
        at: directory.appendingPathComponent("newer"), to: snapshot)
    try? FileManager.default.removeItem(
        at: directory.appendingPathComponent(EntryRepository.journalFileName))

    let firstOpen = try time { repository = try EntryRepository(directory: directory) }
    await repository?.close()
    repository = nil
    let nextOpen = try time { repository = try EntryRepository(directory: directory) }
    let compact = try await timeOnMain { try await repository?.compact() }
    await repository?.close()
    // Each value written has the newer build's field, with its own id.
    let written = try Data(contentsOf: snapshot)
    let json = written.prefix { $0 != UInt8(ascii: "\n") }
    let items =
        (try JSONSerialization.jsonObject(with: json) as? [String: Any])?["items"]
        as? [[String: Any]] ?? []
    let kept = items.filter { $0["aNewerField"] as? String == $0["id"] as? String }.count
    guard items.count == size, kept == size else {
        throw BenchError("the newer build's field is in \(kept) of \(size) values written")
    }
    print(ownOpen, firstOpen, nextOpen, compact)
}

/// Prints the older-build table for `size` values.
func runOlderBuild(size: Int) throws {
    let numbers = try runChildProcess(store: "older-build", size: size, saves: 0, expecting: 4)
    print("")
    print(
        "An older build's journal store at \(size) values, every value holding a newer build's "
            + "field (times in ms):")
    print(
        "| own values: cold open | newer build's: first open (written again) | next open "
            + "| compact() keeping it |")
    print("|---:|---:|---:|---:|")
    print(
        "| \(milliseconds(numbers[0])) | \(milliseconds(numbers[1])) | "
            + "\(milliseconds(numbers[2])) | \(milliseconds(numbers[3])) |")
}
