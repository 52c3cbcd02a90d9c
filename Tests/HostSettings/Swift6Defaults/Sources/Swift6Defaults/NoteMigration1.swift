internal import Foundation

nonisolated extension Note.V1 {
    /// This value as schema version 2 of ``Note`` has it.
    ///
    /// scaffold-repo wrote this file once, when `--migrate` made version 2, and never
    /// changes it: it is yours. It starts with every field that still fits; a `Decide:` comment
    /// marks each value you have to choose. The generated tests open a store written by version
    /// 1 and check that the values come out as this function makes them.
    public func migrated() -> Note.V2 {
        Note.V2(
            id: self.id,
            title: self.title,
            body: self.body,
            status: Note.V2.Status(rawValue: self.status.rawValue) ?? .draft,
            tags: self.tags,
            createdAt: self.createdAt,
            // Decide: words is new and has no default.
            words: 0
        )
    }
}
