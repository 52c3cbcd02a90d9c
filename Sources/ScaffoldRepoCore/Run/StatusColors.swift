/// Thor-style colours for the status word at the start of a status line, for a terminal.
/// Status lines are coloured where they are made (``PlanReport/line(_:_:coloured:)``), into
/// ``RunResult/colouredStandardOutput``; the executable prints that only when stdout is a
/// terminal and `NO_COLOR` is unset, so piped output, CI logs and goldens stay byte for byte the
/// same.
public enum StatusColors {
    /// ANSI colour codes by status: green adds, blue leaves alone, yellow keeps or warns, red
    /// removes or refuses.
    static let codes: [String: String] = [
        "create": "32", "update": "32", "force": "33", "identical": "34", "owned": "34",
        "modified": "33", "review": "33", "skip": "33", "conflict": "31", "delete": "31",
        "missing": "33",
        "drifted": "33", "unused": "33", "edited": "32", "unedited": "34", "shared": "34",
    ]

    /// `status` in its colour, or as it is when it has none.
    static func coloured(_ status: String) -> String {
        guard let code = codes[status] else { return status }
        return "\u{1B}[\(code)m\(status)\u{1B}[0m"
    }

    /// Whether to colour: stdout is a terminal, `NO_COLOR` is unset or empty, and the output
    /// is not JSON (``RunResult/isJSON``).
    public static func isWanted(
        isTerminal: Bool, environment: [String: String], isJSON: Bool
    ) -> Bool {
        isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && !isJSON
    }
}
