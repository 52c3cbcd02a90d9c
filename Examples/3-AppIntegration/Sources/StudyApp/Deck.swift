public import Foundation

// Workshop: a struct, not a class. Every copy is independent, so a value handed to the
// repository actor and one handed back share no mutable state; that is what `Sendable`
// promises, and the compiler checks it, because every stored property is `Sendable` too.

/// One Deck, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Deck: Codable, Identifiable, Sendable, Hashable {
    public var id: UUID
    public var name: String

    public init(
        id: UUID,
        name: String
    ) {
        self.id = id
        self.name = name
    }
}
