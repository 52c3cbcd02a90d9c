/// An error in what the user gave: reported on stderr as `error: <message>` with exit code 2,
/// and nothing is written. Each stage has its own type, so that where a message comes from is
/// plain; ``ScaffoldRepo`` maps them all to exit codes in one place.
public protocol BadInput: Error, CustomStringConvertible {
    /// What was wrong, naming the token and the fix.
    var message: String { get }
}

extension BadInput {
    public var description: String { message }
}
