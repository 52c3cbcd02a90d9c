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

#if DEBUG
    nonisolated extension Task {
        /// Five sample values, for SwiftUI previews and the app's own tests, in debug builds
        /// only: readable ("Task 1"), and the same on every run.
        public static let samples: [Task] = (1...5).map(sample)

        /// Sample `number`; each value is built on its own line, with its type, so
        /// that the compiler checks each alone.
        private static func sample(_ number: Int) -> Task {
            let id: Int = number
            let title: String = "Task \(number)"
            let status: Status = Status.allCases[(number - 1) % Status.allCases.count]
            let result: String? = "Result \(number)"
            return Task(
                id: id,
                title: title,
                status: status,
                result: result
            )
        }
    }
#endif
