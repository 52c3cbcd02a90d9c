/// Bad input from the user: reported on stderr with exit code 2, and nothing is written.
public struct UsageError: Error, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
