import BookV1
import BookV2
import Foundation
import RecipeStore
import Testing

extension SlowSuites {
    /// Stored data written by one version of a model and opened by the next, through the
    /// generated code of the goldens evolution-v1 and -v2 and of Examples/4-ModelChange.
    @Suite struct StoredDataAcrossModelVersionsTests {
        /// BookV1 (`title`, `rating:Int?`) and BookV2 (`title` renamed to `headline`, `rating`
        /// removed, `pages:Int?` and `status=draft` added) are the goldens evolution-v1 and -v2,
        /// compiled into this package too: a store BookV1 wrote opens with BookV2, values carried over.
        @Test func aStoreWrittenByTheFirstVersionOpensWithTheNextAndKeepsItsValues() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let ids = (0..<5).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
            let first = try BookV1.BookRepository(directory: folder)
            // A batch goes to the snapshot, single saves to the journal: both are read back.
            try await first.save(
                contentsOf: ids.prefix(3).map { BookV1.Book(id: $0, title: "t\($0)", rating: 4) })
            for id in ids.dropFirst(3) {
                try await first.save(BookV1.Book(id: id, title: "t\(id)", rating: nil))
            }
            await first.close()

            let next = try BookV2.BookRepository(directory: folder)

            let expected = ids.map {
                BookV2.Book(id: $0, headline: "t\($0)", pages: nil, status: .draft)
            }
            #expect(await next.loadAll() == expected)
            // Written back under the new names, the values survive a compaction and a reopen.
            try await next.compact()
            await next.close()
            let again = try BookV2.BookRepository(directory: folder)
            #expect(await again.loadAll() == expected)
        }

        /// BookV2 writes `headline` under `title` too, with their mark: BookV1, an older build
        /// of the app still sharing the folder (an extension not updated yet), reads every
        /// value, and its edit of the title, which it writes under `title` and keeps BookV2's
        /// keys beside, is what BookV2 reads next, after BookV1's compaction too.
        @Test func anOlderBuildReadsARenamedFieldAndItsEditReachesTheNewerBuild() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let ids = (0..<3).map { UUID(uuidString: "00000000-0000-4000-8000-00000000000\($0)")! }
            let newer = try BookV2.BookRepository(directory: folder)
            try await newer.save(
                contentsOf: ids.map {
                    BookV2.Book(id: $0, headline: "h\($0)", pages: 7, status: .done)
                })
            await newer.close()

            let older = try BookV1.BookRepository(directory: folder)
            #expect(await older.loadAll().map(\.title) == ids.map { "h\($0)" })
            try await older.save(BookV1.Book(id: ids[1], title: "edited", rating: nil))
            try await older.compact()
            await older.close()

            let again = try BookV2.BookRepository(directory: folder)
            #expect(
                await again.loadAll()
                    == ids.map {
                        BookV2.Book(
                            id: $0, headline: $0 == ids[1] ? "edited" : "h\($0)", pages: 7,
                            status: .done)
                    })
            await again.close()
        }

        @Test func aStoreThatDoesNotFitTheModelIsIncompatibleNotDamaged() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let snapshot = folder.appendingPathComponent(BookV2.BookRepository.snapshotFileName)
            // Intact JSON, with its checksum line, that lacks the required `headline` (and `title`).
            let json = Data(
                #"{"items":[{"id":"00000000-0000-4000-8000-000000000001"}],"schemaVersion":1}"#.utf8
            )
            let first = try BookV1.BookRepository(directory: folder)
            await first.close()
            try json.write(to: snapshot)

            #expect {
                try BookV2.BookRepository(directory: folder)
            } throws: { error in
                guard case .incompatible(let file, _) = error as? BookV2.BookRepositoryError else {
                    return false
                }
                return file.lastPathComponent == snapshot.lastPathComponent
                    && !"\(error)".contains("damaged")
                    && "\(error)".contains("Do not delete the file")
            }
            #expect(try Data(contentsOf: snapshot) == json)
        }

        /// Examples/4-ModelChange is at schema version 3. A journal record that version 1 wrote
        /// after the snapshot (generation 1) still replays when the store opens: it says its
        /// version, so its values go through both migrations.
        @Test func aJournalRecordWrittenByAnEarlierVersionIsMigratedWhenReplayed() async throws {
            let folder = try TestPaths.makeTemporaryFolder()
            defer { TestPaths.removeTemporaryFolder(folder) }
            let current = Recipe(
                id: UUID(uuidString: "00000000-0000-4000-8000-000000000001")!, name: "Bread",
                servings: 4, minutes: 90, level: .hard)
            let store = try RecipeRepository(directory: folder)
            try await store.save(contentsOf: [current])
            await store.close()
            let old = Recipe.V1(
                id: UUID(uuidString: "00000000-0000-4000-8000-000000000002")!, title: "Soup",
                servings: nil, level: .hard)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let payload =
                Data(#"{"generation":1,"save":["#.utf8) + (try encoder.encode(old))
                + Data(#"],"version":1}"#.utf8)
            let line = payload + Data(" \(Self.crc32Hex(payload))\n".utf8)
            let journal = folder.appendingPathComponent(RecipeRepository.journalFileName)
            try (try Data(contentsOf: journal) + line).write(to: journal)

            let reopened = try RecipeRepository(directory: folder)

            // The migrations in Examples/4-ModelChange: unknown servings are 2, a hard recipe 60 min.
            let expected = Recipe(id: old.id, name: "Soup", servings: 2, minutes: 60, level: .hard)
            #expect(await reopened.loadAll() == [current, expected])
        }

        /// The journal's checksum: CRC-32 as zip computes it, in eight lower-case hex digits.
        static func crc32Hex(_ bytes: Data) -> String {
            var crc = ~UInt32(0)
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
            }
            let digits = String(~crc, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }
    }
}
