// The child process of the crash tests: opens the journal store (or, with `sqlite`, the sqlite
// store) in DIRECTORY and saves values numbered from START on, forever, printing each id on
// stdout once its save has returned. The test kills it with SIGKILL at a random moment and
// checks that every printed save is still there.
//
// With `cascade`, it works on the related models of Tests/Goldens/related-models instead:
// forever, it creates a folder with 20 notes and 40 attachments in one transaction, printing
// `created <id>`, then deletes the first stored folder (its notes and attachments by cascade),
// printing `deleting <id>` before and `deleted <id>` after.
//
// With `compacting`, it works on the journal store as without, but first stores 20,000 values
// when the store is empty, and compacts over and over in a task of its own while it saves: the
// kills land in the middle of compactions that run beside the saves. After each save it also
// saves the value `counter` with the save's number as its score, printing `counter N`, and
// every tenth save it deletes a value saved before, printing `deleting ID` before and
// `deleted ID` after: a value that changes, and one that goes, must not come back older.
//
// With STORE_CHILD_PAUSE_MS set, it pauses that long after each save: a writer at an app's
// pace rather than as fast as the disk allows (the sharing tests).
//
// With `move`, it opens the sqlite store in a folder that holds a journal store of the same model
// (Tests/Goldens/bench-sqlite was a journal model first): the open imports the journal's values.
// It prints `moved` once the open has returned, and exits.
//
// Usage: StoreCrashChild DIRECTORY START [sqlite|compacting], or StoreCrashChild DIRECTORY
// cascade|move

import BenchJournal
import BenchSQLite
import Foundation
import Notebook

let arguments = CommandLine.arguments
if arguments.count == 3, arguments[2] == "cascade" {
    let folders = try FolderRepository(directory: URL(fileURLWithPath: arguments[1]))
    while true {
        let folder = Folder(id: UUID(), name: UUID().uuidString)
        let notes = (0..<20).map { number in
            Note(id: UUID(), folderID: folder.id, title: "Note \(number)", body: "")
        }
        let attachments = notes.flatMap { note in
            (0..<2).map { number in
                Attachment(id: UUID(), noteID: note.id, fileName: "file-\(number)", size: number)
            }
        }
        try await folders.transaction { transaction in
            try transaction.save(folder)
            try transaction.save(contentsOf: notes)
            try transaction.save(contentsOf: attachments)
        }
        FileHandle.standardOutput.write(Data("created \(folder.id.uuidString)\n".utf8))
        if let first = try await folders.loadAll(FolderRepository.Query().limit(1)).first {
            // Named before: a kill may land after the delete commits and before it is printed.
            FileHandle.standardOutput.write(Data("deleting \(first.id.uuidString)\n".utf8))
            try await folders.delete(first.id)
            FileHandle.standardOutput.write(Data("deleted \(first.id.uuidString)\n".utf8))
        }
    }
}
if arguments.count == 3, arguments[2] == "move" {
    let repository = try BenchSQLite.EntryRepository(directory: URL(fileURLWithPath: arguments[1]))
    FileHandle.standardOutput.write(Data("moved\n".utf8))
    await repository.close()
    exit(0)
}
guard (3...4).contains(arguments.count), let start = Int(arguments[2]) else {
    FileHandle.standardError.write(
        Data(
            "usage: StoreCrashChild DIRECTORY START [sqlite|compacting] | DIRECTORY cascade|move\n"
                .utf8))
    exit(2)
}
let directory = URL(fileURLWithPath: arguments[1])
let pause = ProcessInfo.processInfo.environment["STORE_CHILD_PAUSE_MS"].flatMap { UInt64($0) }

/// Waits STORE_CHILD_PAUSE_MS after a save, when it is set.
func pauseAfterSave() async throws {
    if let pause { try await Task.sleep(nanoseconds: pause * 1_000_000) }
}
// Long values make the journal outgrow its floor every hundred saves or so, so kills also land
// in the middle of compactions.
let body = String(repeating: "durable ", count: 60)

/// The id of value `number` in the sqlite store, whose ids are UUIDs.
func sqliteID(_ number: Int) -> UUID {
    UUID(uuidString: String(format: "00000000-0000-4000-8000-%012X", number)) ?? UUID()
}

if arguments.count == 4, arguments[3] == "sqlite" {
    let repository = try BenchSQLite.EntryRepository(directory: directory)
    var number = start
    while true {
        let count = number % 97 == 0 ? 5 : 1  // Now and then a batch of five, one transaction.
        let values = (number..<(number + count)).map {
            BenchSQLite.Entry(
                id: sqliteID($0), title: count == 1 ? "single" : "batch", body: body,
                score: Double($0), createdAt: Date(timeIntervalSince1970: Double($0)))
        }
        try await repository.save(contentsOf: values)
        // Unbuffered: the ids are out of this process as soon as the save has returned.
        FileHandle.standardOutput.write(Data(values.map { "\($0.id.uuidString)\n" }.joined().utf8))
        number += count
        try await pauseAfterSave()
    }
}

let repository = try BenchJournal.EntryRepository(directory: directory)
let isCompacting = arguments.count == 4 && arguments[3] == "compacting"
if isCompacting {
    if await repository.count == 0 {
        try await repository.save(
            contentsOf: (0..<20_000).map {
                BenchJournal.Entry(
                    id: String(format: "base-%05d", $0), title: "base", body: body, score: 0,
                    createdAt: Date(timeIntervalSince1970: 0))
            })
    }
    Task.detached {
        while true { try? await repository.compact() }
    }
}
var number = start
while true {
    if number % 97 == 0 {
        // Now and then a batch of five, one durable write.
        let batch = (number..<(number + 5)).map {
            BenchJournal.Entry(
                id: "entry-\($0)", title: "batch", body: body, score: 1,
                createdAt: Date(timeIntervalSince1970: 0))
        }
        try await repository.save(contentsOf: batch)
        number += 4
        FileHandle.standardOutput.write(Data(batch.dropLast().map { "\($0.id)\n" }.joined().utf8))
    } else {
        let entry = BenchJournal.Entry(
            id: "entry-\(number)", title: "single", body: body, score: Double(number),
            createdAt: Date(timeIntervalSince1970: Double(number)))
        try await repository.save(entry)
    }
    // Unbuffered: the id is out of this process as soon as the save has returned.
    FileHandle.standardOutput.write(Data("entry-\(number)\n".utf8))
    if isCompacting {
        try await repository.save(
            BenchJournal.Entry(
                id: "counter", title: "counter", body: "", score: Double(number),
                createdAt: Date(timeIntervalSince1970: 0)))
        FileHandle.standardOutput.write(Data("counter \(number)\n".utf8))
        if number % 10 == 9 {
            let id = "entry-\(number - 5)"
            FileHandle.standardOutput.write(Data("deleting \(id)\n".utf8))
            try await repository.delete(id)
            FileHandle.standardOutput.write(Data("deleted \(id)\n".utf8))
        }
    }
    number += 1
    try await pauseAfterSave()
}
