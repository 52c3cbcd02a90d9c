// store-bench's related-models part: the generated models of Tests/Goldens/related-models
// (folders and their notes, UUID ids, `folder:references(Folder,cascade)`, `title:String:index`,
// `name:String:unique`) at each of `--sqlite-sizes` notes, 20 to a folder. A child imports them
// in transactions of 10,000 and times the lookups an app's screens make, and a folder's delete
// with its notes by cascade.

import Foundation
import Notebook

/// Imports `size` notes into `size / 20` folders, then prints the import's time, and the median
/// of 101 of each: `notes(inFolder:)` (20 notes), `notes(withTitle:)` (1 note),
/// `find(byName:)` (1 folder), the median and worst of 31 cascade deletes of a folder,
/// `danglingReferences()` of the notes (none), and `recover(directory:)` of the notes with one
/// row damaged.
@MainActor
func relationsFigures(directory: URL, size: Int, saves: Int) async throws -> String {
    let folders = try FolderRepository(directory: directory)
    let notes = try NoteRepository(directory: directory)
    let folderCount = max(1, size / 20)
    let folderIDs = (0..<folderCount).map { benchUUID($0, salt: 7) }
    let importTime = try await timeOnMain {
        for start in stride(from: 0, to: folderCount, by: 500) {
            let batch = start..<min(folderCount, start + 500)
            let newFolders = batch.map { Folder(id: folderIDs[$0], name: "Folder \($0)") }
            let newNotes = batch.flatMap { folder in
                (0..<20).map { number in
                    let index = folder * 20 + number
                    return Note(
                        id: benchUUID(index, salt: 8), folderID: folderIDs[folder],
                        title: "Note \(index)", body: "A note of folder \(folder).")
                }
            }
            try await folders.transaction { transaction in
                try transaction.save(contentsOf: newFolders)
                try transaction.save(contentsOf: newNotes)
            }
        }
    }
    guard try await notes.count == folderCount * 20 else {
        throw BenchError("imported \(try await notes.count) notes of \(folderCount * 20)")
    }
    var inFolder: [Double] = []
    var withTitle: [Double] = []
    var byName: [Double] = []
    for sample in 0..<101 {
        let folder = (sample &* 7919) % folderCount
        inFolder.append(
            try await timeOnMain {
                let found = try await notes.notes(inFolder: folderIDs[folder])
                if found.count != 20 { throw BenchError("\(found.count) notes in a folder") }
            })
        let note = (sample &* 104_729) % (folderCount * 20)
        withTitle.append(
            try await timeOnMain {
                _ = try await notes.notes(withTitle: "Note \(note)")
            })
        byName.append(
            try await timeOnMain {
                _ = try await folders.find(byName: "Folder \(folder)")
            })
    }
    var deletes: [Double] = []
    for sample in 0..<min(saves, folderCount) {
        let folder = folderIDs[(sample &* 31) % folderCount]
        deletes.append(try await timeOnMain { try await folders.delete(folder) })
    }
    // danglingReferences() reads every note's reference, as after a field was made one.
    var dangling: [UUID] = []
    let danglingTime = try await timeOnMain { dangling = try await notes.danglingReferences() }
    guard dangling.isEmpty else { throw BenchError("\(dangling.count) dangling notes") }
    // recover(directory:) of the notes, whose table has two indexes (the reference's and the
    // title's), with the row in the middle damaged and both repositories open.
    let stored = try await notes.count
    try damageRow(
        at: stored / 2, of: NoteRepository.tableName,
        in: directory.appendingPathComponent(NoteRepository.databaseFileName))
    var recovery: StoreRecovery?
    let recoverTime = try await timeOnMain {
        recovery = try NoteRepository.recover(directory: directory)
    }
    guard recovery?.setAside.count == 1, recovery?.valuesKept == stored - 1 else {
        throw BenchError("recover kept \(String(describing: recovery))")
    }
    await folders.close()
    await notes.close()
    return [
        importTime, median(inFolder), median(withTitle), median(byName), median(deletes),
        deletes.max() ?? 0, danglingTime, recoverTime,
    ].map { String($0) }.joined(separator: " ")
}

/// A UUID made from a number and a salt, the same on every run.
func benchUUID(_ number: Int, salt: Int) -> UUID {
    UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", salt, number)) ?? UUID()
}

/// Runs the child per size and prints the lookups' table and the target's ratio.
func runRelations(sizes: [Int], saves: Int) throws {
    guard !sizes.isEmpty else { return }
    print("")
    print(
        "Related models (Tests/Goldens/related-models): notes 20 to a folder, looked up by their "
            + "indexes; median of 101, times in ms:")
    print(
        "| notes | import (transactions of 500 folders) | notes(inFolder:), 20 | "
            + "notes(withTitle:), 1 | find(byName:) (unique) | delete a folder + 20 notes "
            + "(median / worst) | danglingReferences() of the notes | "
            + "recover the notes, one row damaged |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    var lookups: [Int: Double] = [:]
    for size in sizes {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-bench-relations-\(size)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let figures = try runChildProcess(
            store: "sqlite-relations", size: size, saves: saves, expecting: 8,
            environment: ["STORE_BENCH_DIR": directory.path])
        lookups[size] = figures[1]
        let cells =
            [String(size)] + figures.prefix(4).map(milliseconds)
            + [
                "\(milliseconds(figures[4])) / \(milliseconds(figures[5]))",
                milliseconds(figures[6]), milliseconds(figures[7]),
            ]
        print("| " + cells.joined(separator: " | ") + " |")
    }
    guard let small = sizes.min(), let large = sizes.max(), let first = lookups[small],
        let last = lookups[large]
    else { return }
    let ratio = last / first
    print(
        "- notes(inFolder:) at \(large) / at \(small): \(String(format: "%.2f", ratio)) [≤ 3] "
            + (ratio <= 3 ? "met" : "NOT met"))
}
