/// A model that cannot be generated: a bad field, type, default or name, or a change to the
/// model that stored data would not follow.
public struct SpecError: BadInput, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
