import Foundation
import Testing

@testable import ScaffoldRepoCore

/// The store's engine is Swift that this package compiles and tests (Sources/StoreEngine,
/// Sources/StoreEngineTestSupport, and Sources/CSQLite's module map), embedded as the templates the
/// generator writes as they are.
@Suite struct EngineTemplatesTests {
    static let engine: [(template: String, source: String)] = [
        ("StoreFiles.swift.tmpl", "Sources/StoreEngine/StoreFiles.swift"),
        ("StoredValues.swift.tmpl", "Sources/StoreEngine/StoredValues.swift"),
        ("JournalStore.swift.tmpl", "Sources/StoreEngine/JournalStore.swift"),
        ("SnapshotStore.swift.tmpl", "Sources/StoreEngine/SnapshotStore.swift"),
        ("LiveList.swift.tmpl", "Sources/StoreEngine/LiveList.swift"),
        ("SQLiteStore.swift.tmpl", "Sources/StoreEngine/SQLiteStore.swift"),
        ("StoreQuery.swift.tmpl", "Sources/StoreEngine/StoreQuery.swift"),
        ("SQLiteRelations.swift.tmpl", "Sources/StoreEngine/SQLiteRelations.swift"),
        ("SampleData.swift.tmpl", "Sources/StoreEngineTestSupport/SampleData.swift"),
        ("StoredRows.swift.tmpl", "Sources/StoreEngineTestSupport/StoredRows.swift"),
        ("module.modulemap.tmpl", "Sources/CSQLite/module.modulemap"),
        ("shim.h.tmpl", "Sources/CSQLite/shim.h"),
    ]

    @Test func eachEngineTemplateIsItsSourceFileAsItIsWithoutATag() {
        for (template, source) in Self.engine {
            let text = TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent(source))
            #expect(text != nil && BuiltInTemplates.embedded[template] == text, "\(template)")
            #expect(text?.contains("{{") == false, "\(source) holds a tag")
        }
    }

    @Test func everyTypeTheEngineDeclaresIsAModelNameThatIsRefused() {
        for (template, _) in Self.engine {
            for declaration in ClashCheck.declarations(
                in: BuiltInTemplates.embedded[template] ?? "")
            {
                #expect(
                    Identifier.reservedTypeNames.contains(declaration.name),
                    "\(template) declares \(declaration.name): add it to Identifier.reservedTypeNames"
                )
            }
        }
    }

    @Test func theSharedFilesAreTheEngine() {
        #expect(
            Set(Names.sharedFiles.map { $0 + ".tmpl" })
                == Set(Self.engine.map(\.template)))
    }
}
