import Foundation

/// One Task, as the app keeps it in memory and on disk.
///
/// A value type that is `Codable` (stored as JSON), `Identifiable` (the repository finds it by
/// `id`), `Sendable` (it can cross into and out of the repository actor) and `Hashable`.
public nonisolated struct Task: Codable, Identifiable, Sendable, Hashable {
    /// The values of ``status``, stored as their names.
    public nonisolated enum Status: String, Codable, Sendable, Hashable, CaseIterable {
        case todo
        case done
    }

    public var id: Int
    public var title: String
    public var status: Status
    public var result: String?

    public init(
        id: Int,
        title: String,
        status: Status = .todo,
        result: String? = nil
    ) {
        self.id = id
        self.title = title
        self.status = status
        self.result = result
    }

    /// Decodes JSON written by earlier versions of the model: a missing key takes the field's
    /// default, and a renamed field reads its former key, so such changes never break stored
    /// data.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.id = try container.decode(Int.self, forKey: .id)
        self.title = try container.decode(String.self, forKey: .title)
        self.status =
            try container.contains(.status)
            ? container.decode(Status.self, forKey: .status)
            : .todo
        self.result = try container.decodeIfPresent(String.self, forKey: .result)
    }
}
