/// Bad input on the command line: an unknown option, a missing operand, a destination that
/// cannot be used.
public struct UsageError: BadInput, Equatable {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }
}
