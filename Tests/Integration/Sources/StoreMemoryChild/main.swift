// The child process of the in-memory test: uses each storage's `inMemory` repository as a
// SwiftUI preview or an app's test would, and prints what it saw, one line per storage. The
// test runs it with HOME, XDG_DATA_HOME and TMPDIR set to empty folders, in an empty working
// folder, and checks that they stay empty.
//
// Usage: StoreMemoryChild
//   Prints `journal: …`, `snapshot: …` and `sqlite: …`: `follows` when a view-model over the repository
//   showed every save and delete, in order, and the repository's `changes()` brought each one;
//   otherwise what was shown instead.

import BenchJournal
import BenchSQLite
import BenchSnapshot
import Foundation

func journalEntry(_ number: Int) -> BenchJournal.Entry {
    BenchJournal.Entry(
        id: "entry-\(number)", title: "Entry \(number)", body: "", score: Double(number),
        createdAt: Date(timeIntervalSince1970: Double(number)))
}

func snapshotEntry(_ number: Int) -> BenchSnapshot.Entry {
    BenchSnapshot.Entry(
        id: "entry-\(number)", title: "Entry \(number)", body: "", score: Double(number),
        createdAt: Date(timeIntervalSince1970: Double(number)))
}

/// The sqlite store's ids are UUIDs: the number in their last digits.
func sqliteEntry(_ number: Int) -> BenchSQLite.Entry {
    BenchSQLite.Entry(
        id: UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", number)) ?? UUID(),
        title: "Entry \(number)", body: "", score: Double(number),
        createdAt: Date(timeIntervalSince1970: Double(number)))
}

/// Waits up to two seconds for `condition`.
@MainActor func eventually(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2000 where !condition() {
        try? await Task.sleep(nanoseconds: 1_000_000)
    }
    return condition()
}

/// Saves entry 3 and deletes entry 1 in a repository that starts with entries 1 and 2, while a
/// view-model and a `changes()` stream follow it; `shown` reads the view-model's ids.
@MainActor func follow(
    storage: String, load: () async -> Void, shown: () -> [String],
    changes: () async -> Int, saveAndDelete: () async throws -> Void
) async -> String {
    await load()
    do {
        try await saveAndDelete()
    } catch {
        return "\(storage): error: \(error)"
    }
    let expected = ["entry-2", "entry-3"]
    guard await eventually({ shown() == expected }) else {
        return "\(storage): shows \(shown())"
    }
    let received = await changes()
    return received == 2 ? "\(storage): follows" : "\(storage): \(received) changes"
}

@MainActor func main() async {
    let journal = BenchJournal.EntryRepository.inMemory([journalEntry(2), journalEntry(1)])
    let journalView = BenchJournal.EntryListViewModel(repository: journal)
    let journalChanges = await journal.changes()
    let journalCount = Task { () async -> Int in
        var count = 0
        for await _ in journalChanges.prefix(2) { count += 1 }
        return count
    }
    print(
        await follow(
            storage: "journal", load: { await journalView.load() },
            shown: { journalView.entries.map(\.id) }, changes: { await journalCount.value },
            saveAndDelete: {
                try await journal.save(journalEntry(3))
                try await journal.delete("entry-1")
            }))

    let snapshot = BenchSnapshot.EntryRepository.inMemory([snapshotEntry(2), snapshotEntry(1)])
    let snapshotView = BenchSnapshot.EntryListViewModel(repository: snapshot)
    let snapshotChanges = await snapshot.changes()
    let snapshotCount = Task { () async -> Int in
        var count = 0
        for await _ in snapshotChanges.prefix(2) { count += 1 }
        return count
    }
    print(
        await follow(
            storage: "snapshot", load: { await snapshotView.load() },
            shown: { snapshotView.entries.map(\.id) }, changes: { await snapshotCount.value },
            saveAndDelete: {
                try await snapshot.save(snapshotEntry(3))
                try await snapshot.delete("entry-1")
            }))

    let sqlite = BenchSQLite.EntryRepository.inMemory([sqliteEntry(2), sqliteEntry(1)])
    let sqliteView = BenchSQLite.EntryListViewModel(repository: sqlite)
    let sqliteChanges = await sqlite.changes()
    let sqliteCount = Task { () async -> Int in
        var count = 0
        for await _ in sqliteChanges.prefix(2) { count += 1 }
        return count
    }
    print(
        await follow(
            storage: "sqlite", load: { await sqliteView.load() },
            shown: { sqliteView.entries.map { "entry-\(Int($0.id.uuidString.suffix(12)) ?? -1)" } },
            changes: { await sqliteCount.value },
            saveAndDelete: {
                try await sqlite.save(sqliteEntry(3))
                try await sqlite.delete(sqliteEntry(1).id)
            }))
}

await main()
