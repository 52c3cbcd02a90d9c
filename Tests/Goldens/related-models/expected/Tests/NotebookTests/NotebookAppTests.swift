import Foundation
import Notebook
import Testing

/// An app's own code over the generated repositories (written by hand, not generated): a
/// transaction across models, as the README shows it, and a cascade that reaches another
/// repository's observers and view-model.
@Suite struct NotebookAppTests {
    let directory: URL

    init() throws {
        directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("NotebookAppTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func inbox() -> Folder { Folder(id: UUID(), name: "Inbox") }

    @Test func aTransactionMovesANoteAndRenamesItsFolderTogether() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let folders = try FolderRepository(directory: directory)
        let notes = try NoteRepository(directory: directory)
        let (inbox, archive) = (inbox(), Folder(id: UUID(), name: "Archive"))
        try await folders.save(contentsOf: [inbox, archive])
        let noteID = UUID()
        try await notes.save(Note(id: noteID, folderID: inbox.id, title: "Groceries", body: ""))
        let heard = await folders.changes()

        try await notes.transaction { transaction in
            guard var note = try transaction.find(Note.self, id: noteID) else { return }
            note.folderID = archive.id
            try transaction.save(note)
            try transaction.save(Folder(id: archive.id, name: "Archive 2026"))
        }

        #expect(try await notes.find(by: noteID)?.folderID == archive.id)
        #expect(try await folders.find(byName: "Archive 2026")?.id == archive.id)
        #expect(try await notes.notes(inFolder: inbox.id).isEmpty)
        // The folder repository hears of the folder the transaction saved.
        var iterator = heard.makeAsyncIterator()
        guard case .saved(let saved)? = await iterator.next() else {
            Issue.record("the folder repository heard nothing")
            return
        }
        #expect(saved.map(\.name) == ["Archive 2026"])
    }

    @Test func aTransactionThatThrowsWritesNothing() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let folders = try FolderRepository(directory: directory)
        let notes = try NoteRepository(directory: directory)
        let inbox = inbox()
        try await folders.save(inbox)

        await #expect(throws: NoteRepositoryError.self) {
            try await folders.transaction { transaction in
                try transaction.save(Folder(id: UUID(), name: "Work"))
                try transaction.save(
                    Note(id: UUID(), folderID: UUID(), title: "Lost", body: ""))
            }
        }
        await #expect(throws: FolderRepositoryError.notUnique(field: "name", value: "Inbox")) {
            try await notes.transaction { transaction in
                try transaction.save(Note(id: UUID(), folderID: inbox.id, title: "Kept", body: ""))
                try transaction.save(Folder(id: UUID(), name: "Inbox"))
            }
        }

        #expect(try await folders.count == 1)
        #expect(try await notes.count == 0)
    }

    @Test func aWriteThatThrowsInATransactionUndoesItselfWhenTheClosureGoesOn() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let folders = try FolderRepository(directory: directory)
        let notes = try NoteRepository(directory: directory)
        let inbox = inbox()
        try await folders.save(inbox)
        let note = Note(id: UUID(), folderID: inbox.id, title: "Trip", body: "")
        try await notes.save(note)
        let attachments = try AttachmentRepository(directory: directory)
        try await attachments.save(Attachment(id: UUID(), noteID: note.id, fileName: "a", size: 1))
        let reminders = try ReminderRepository(directory: directory)
        try await reminders.save(Reminder(id: "r", noteID: note.id, due: Date()))

        try await notes.transaction { transaction in
            // The attachments go by cascade before the reminder's restrict throws: undone.
            try? transaction.delete(Note.self, id: note.id)
            try? transaction.save(Note(id: UUID(), folderID: UUID(), title: "Lost", body: ""))
            try transaction.save(Note(id: UUID(), folderID: inbox.id, title: "Kept", body: ""))
        }

        #expect(try await notes.count == 2)
        #expect(try await attachments.count == 1)
        #expect(try await notes.danglingReferences().isEmpty)
    }

    @MainActor
    @Test func aFolderDeletedByItsRepositoryLeavesTheNotesViewModel() async throws {
        defer { try? FileManager.default.removeItem(at: directory) }
        let folders = try FolderRepository(directory: directory)
        let notes = try NoteRepository(directory: directory)
        let (inbox, work) = (inbox(), Folder(id: UUID(), name: "Work"))
        try await folders.save(contentsOf: [inbox, work])
        try await notes.save(
            contentsOf: (0..<5).map {
                Note(id: UUID(), folderID: $0 < 3 ? inbox.id : work.id, title: "\($0)", body: "")
            })
        let tags = try TagRepository(directory: directory)
        let kept = try #require(try await notes.notes(inFolder: work.id).first)
        try await tags.save(Tag(id: 1, noteID: kept.id, label: "todo"))
        let viewModel = NoteListViewModel(repository: notes)
        await viewModel.load()
        #expect(viewModel.notes.count == 5)

        try await folders.delete(inbox.id)
        try await folders.delete(work.id)

        for _ in 0..<2000 where !viewModel.notes.isEmpty {
            try await Task.sleep(nanoseconds: 1_000_000)
        }
        #expect(viewModel.notes.isEmpty)
        // Two levels down, a nullify: the tag stays, naming no note.
        #expect(try await tags.find(by: 1)?.noteID == nil)
    }
}
