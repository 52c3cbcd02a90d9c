import Foundation

/// How a plan is shown: status lines (with diffs when nothing is written), or JSON.
enum PlanReport {
    /// One line per file, status first, padded so the paths line up; with `coloured`, each
    /// status word in its colour.
    static func statusLines(_ changes: [PlannedChange], coloured: Bool = false) -> String {
        changes.map { change in
            line(
                change.status.rawValue,
                change.displayPath + (change.reason.map { " (\($0))" } ?? ""), coloured: coloured)
        }
        .joined()
    }

    /// `status`, padded to 10 columns, then `path`.
    static func line(_ status: String, _ path: String, coloured: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(10, status.count + 1) - status.count)
        return (coloured ? StatusColors.coloured(status) : status) + padding + path + "\n"
    }

    /// The unified diff from the disk to the generated file, for each file that differs.
    static func diffs(_ changes: [PlannedChange]) -> String {
        changes.filter(\.showsADiff).map { change in
            let old = change.previous ?? ""
            let oldName = change.status == .create ? "/dev/null" : "a/\(change.displayPath)"
            let newName = change.status == .delete ? "/dev/null" : "b/\(change.displayPath)"
            return UnifiedDiff.make(
                old: old, new: change.file.contents, oldName: oldName, newName: newName)
        }
        .joined()
    }

    /// The plan as JSON: `{"diagnostics": [{"message", "severity"}], "exitCode": N,
    /// "files": [{"diff", "path", "reason", "status"}]}`, keys sorted; `diff` only for a file
    /// that differs (``PlannedChange/showsADiff``), `reason` only for a kept one or a forced delete; `diagnostics` what the run tells besides
    /// (warnings, notes, advice, the next step), as stderr and stdout would show them.
    static func json(
        _ changes: [PlannedChange], exitCode: Int32, diagnostics: [Diagnostic] = []
    ) -> String {
        struct File: Encodable {
            let path: String
            let status: String
            let diff: String?
            let reason: String?
        }
        struct Report: Encodable {
            let diagnostics: [Diagnostic]
            let exitCode: Int32
            let files: [File]
        }
        let files = changes.map { change in
            File(
                path: change.displayPath, status: change.status.rawValue,
                diff: change.showsADiff ? diffs([change]) : nil, reason: change.reason)
        }
        let report = Report(diagnostics: diagnostics, exitCode: exitCode, files: files)
        return (try? StableJSON.text(report)) ?? "{}\n"
    }

    /// A failed run as JSON, for `--json`: `{"error": "...", "exitCode": N}`, keys sorted.
    static func errorJSON(message: String, exitCode: Int32) -> String {
        struct Failure: Encodable {
            let error: String
            let exitCode: Int32
        }
        return (try? StableJSON.text(Failure(error: message, exitCode: exitCode))) ?? "{}\n"
    }
}
