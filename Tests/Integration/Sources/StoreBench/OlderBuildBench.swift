// An older build of the app beside a newer one (`--child older-build SIZE 0`): the journal store
// of a model that a newer build wrote with one more field in every value, which this build does
// not know and keeps (the model's `knownKeys`). What that costs against the store of its own
// values: the first open (it reads every value key by key and writes the snapshot again), the
// next open (key by key again: the snapshot lists no keys while it keeps a newer build's), and
// a compaction that writes each value with the field it keeps.

import BenchJournal
import Foundation

/// The older-build child: prints `own open, first open, next open, compact, peak memory`, in
/// seconds and MiB, after checking that the newer build's field is in every value written.
@MainActor
func runOlderBuildChild(size: Int) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("store-bench-older-build-\(size)-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let entries = sampleEntries(0..<size)
    let first = try EntryRepository(directory: directory)
    try await first.save(contentsOf: entries)
    await first.close()
    var repository: EntryRepository?
    let ownOpen = try time { repository = try EntryRepository(directory: directory) }
    await repository?.close()

    // The snapshot as a newer build wrote it (without the checksum line of the files of earlier
    // releases, which opening reads too): every value has a field this build does not know.
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    let items = String(decoding: try encoder.encode(entries), as: UTF8.self)
        .replacingOccurrences(of: #"{"body":"#, with: #"{"aNewerField":"kept","body":"#)
    try Data(#"{"generation":0,"items":\#(items),"schemaVersion":1}"#.utf8)
        .write(to: directory.appendingPathComponent(EntryRepository.snapshotFileName))
    try? FileManager.default.removeItem(
        at: directory.appendingPathComponent(EntryRepository.journalFileName))

    let firstOpen = try time { repository = try EntryRepository(directory: directory) }
    await repository?.close()
    let nextOpen = try time { repository = try EntryRepository(directory: directory) }
    let compact = try await timeOnMain { try await repository?.compact() }
    await repository?.close()
    let written = try String(
        decoding: Data(
            contentsOf: directory.appendingPathComponent(EntryRepository.snapshotFileName)),
        as: UTF8.self)
    let kept = written.components(separatedBy: #""aNewerField":"kept""#).count - 1
    guard kept == size else {
        throw BenchError("the newer build's field is in \(kept) of \(size) values written")
    }
    print(ownOpen, firstOpen, nextOpen, compact, peakMemoryMiB())
}

/// Prints the older-build table for `size` values.
func runOlderBuild(size: Int) throws {
    let numbers = try runChildProcess(store: "older-build", size: size, saves: 0, expecting: 5)
    print("")
    print(
        "An older build's journal store at \(size) values, every value holding a newer build's "
            + "field (times in ms, memory in MiB):")
    print(
        "| own values: cold open | newer build's: first open (written again) | next open "
            + "| compact() keeping it | peak memory |")
    print("|---:|---:|---:|---:|---:|")
    print(
        "| \(milliseconds(numbers[0])) | \(milliseconds(numbers[1])) | "
            + "\(milliseconds(numbers[2])) | \(milliseconds(numbers[3])) | "
            + "\(String(format: "%.0f", numbers[4])) |")
}
