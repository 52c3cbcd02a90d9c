import Foundation

/// One Question, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Question: Codable, Identifiable, Sendable, Hashable {
    public var id: String
    public var text: String

    public init(
        id: String,
        text: String
    ) {
        self.id = id
        self.text = text
    }
}
