public import Foundation

/// One Card, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Card: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var title: String
    public var done: Bool
    public var due: Date?

    public init(
        id: UUID,
        title: String,
        done: Bool,
        due: Date? = nil
    ) {
        self.id = id
        self.title = title
        self.done = done
        self.due = due
    }
}
