/// Something a run tells the person besides its plan: a warning, a note, advice, or the next
/// step. Each is rendered in one place (``rendered``), and `--json` carries them all.
public struct Diagnostic: Equatable, Sendable, Encodable {
    /// What it is, which decides where it goes and how it starts.
    public enum Severity: String, Equatable, Sendable, Encodable {
        /// Why the run failed (exit 1): stderr, `error: …`.
        case error
        /// Something that may be wrong, or lose data: stderr, `warning: …`.
        case warning
        /// Something worth knowing about the run: stderr, `note: …`.
        case note
        /// A change to make by hand for the package or the app to build (Package.swift's lines,
        /// the API a storage change changes): stdout, after the plan, `note: …`; a preview
        /// (`--dry-run`) shows it too, `--check` does not.
        case advice
        /// The command to run next: stdout, last, `Next: …`; left out when the package may not
        /// build (a file to review) and from a preview.
        case next
    }

    public let severity: Severity
    /// The text without its `warning: ` prefix; it may span lines, and has no final newline.
    public let message: String

    public init(_ severity: Severity, _ message: String) {
        self.severity = severity
        self.message = message
    }

    /// A warning: `warning: message` on stderr.
    public static func warning(_ message: String) -> Diagnostic { Diagnostic(.warning, message) }
    /// A note: `note: message` on stderr.
    public static func note(_ message: String) -> Diagnostic { Diagnostic(.note, message) }

    /// Whether it is printed on stderr; the others are on stdout, after the plan.
    public var isForStandardError: Bool { [.error, .warning, .note].contains(severity) }

    /// As printed: its prefix, the message, and a newline.
    public var rendered: String {
        (severity == .next ? "Next: " : "\(severity == .advice ? "note" : severity.rawValue): ")
            + message + "\n"
    }
}
