import Foundation

/// The last step every command that changes files shares: report the plan (status lines and
/// diffs, or JSON), and in `.apply` mode write it, with one policy for exit codes.
enum Outcome {
    /// Reports the plan and, in `.apply` mode, writes it, then runs `afterApply`. With
    /// `keepingBlocks`, a kept file (conflict or modified) stops every write; without, the other
    /// files are still written, and `keptNote` tells how many were kept. `preface` lines come
    /// before the statuses (on stderr with `--json`). Each diagnostic goes where its severity
    /// says; with `--json`, the report carries them all. With `--check`, the error names a fix
    /// for each kind of difference; `keptFix` is the one for kept files, where the usual one
    /// (`own`, or moving the file away) does not apply.
    static func of(
        _ changes: [PlannedChange], _ options: RunOptions, keepingBlocks: Bool,
        diagnostics: [Diagnostic] = [], preface: [String] = [],
        keptNote: (Int) -> Diagnostic = { count in
            .note("\(count) edited file(s) kept as they are; --force overwrites them.")
        },
        keptFix: String? = nil,
        afterApply: () throws -> Void = {}
    ) throws -> RunResult {
        let kept = changes.filter(\.status.isKept)
        // Owned files whose generated version changed: the package may not build until the
        // person applies the change, so the run shows it and gives no "Next:" step.
        let reviews = changes.filter { $0.status == .review }
        let differing = changes.filter(\.status.differs)
        var told = diagnostics.filter(\.isForStandardError)
        for review in reviews {
            // A migration needs no `own`: it stays to review until its arguments fit the model.
            let done =
                review.file.isWrittenOnce
                ? "" : "; then 'scaffold-repo own \(review.displayPath)' records it as done"
            told.append(
                .warning(
                    "\(review.displayPath) is yours (owned), and what scaffold-repo generates "
                        + "for it changed (the diff on stdout); the other generated files may rely "
                        + "on that change, so the package may not build until you make it in your "
                        + "file" + done))
        }
        var exitCode: Int32 = 0
        // What a real run would do: with kept files blocking, nothing is written.
        let blocks = keepingBlocks && !kept.isEmpty
        let shown = blocks ? Planner.blocked(changes) : changes
        switch options.mode {
        case .dryRun, .check:
            if options.mode == .check, !differing.isEmpty {
                exitCode = 1
                let toReview = differing.filter { $0.status == .review }.count
                let stale = differing.count - kept.count - toReview
                let reviewed = toReview == 0 ? "" : ", \(toReview) of yours to review (review)"
                // What to do about each kind: the files kept first (while one is, a run without
                // --check writes nothing).
                var fixes: [String] = []
                let edited = kept.filter { $0.status == .modified }.count
                if let keptFix, !kept.isEmpty {
                    fixes.append(keptFix)
                } else if edited > 0 {
                    fixes.append(
                        "keep an edited file as yours with 'scaffold-repo own PATH', move the "
                            + "edit into a template (templates eject), or overwrite it with "
                            + "--force (modified)")
                }
                if keptFix == nil, kept.count > edited {
                    fixes.append(
                        "move a file that scaffold-repo did not write out of the way, or "
                            + "overwrite it with --force (conflict)")
                }
                if stale > 0 {
                    fixes.append(
                        "run it without --check and commit what it writes (update, create)")
                }
                if toReview > 0 {
                    fixes.append(
                        "make the change the diff shows in your file, and for a file taken with own, "
                            + "run 'scaffold-repo own PATH' again (review)"
                    )
                }
                told.append(
                    Diagnostic(
                        .error,
                        "\(differing.count) file(s) differ from what would be generated: \(stale) "
                            + "to create or update, \(kept.count) edited or unknown "
                            + "(modified/conflict)\(reviewed). To fix: "
                            + fixes.joined(separator: "; ") + "."))
            }
        case .apply:
            if blocks {
                exitCode = 1
                // `own` takes a file that scaffold-repo generated (modified), not a stranger's.
                let own =
                    kept.contains { $0.status == .modified }
                    ? ", or keep an edited one as yours with 'scaffold-repo own PATH'" : ""
                // --force also overwrites an edited Package.swift or .gitignore, which a run
                // without it keeps: named here, so that no edit is lost unseen.
                let alsoForced = changes.filter(\.isOverwrittenByForce).map(\.displayPath)
                let also =
                    alsoForced.isEmpty
                    ? ""
                    : " (--force also overwrites your edited "
                        + alsoForced.joined(separator: " and ") + ")"
                // A file scaffold-repo did not write is replaced whole by --force, whatever code
                // of the person's it holds: said, so that --force is not taken for harmless (an
                // app trial's Money.swift held its Priority and Item).
                let strangers = kept.filter { $0.status == .conflict }.map(\.displayPath)
                let warning =
                    strangers.isEmpty
                    ? ""
                    : "scaffold-repo did not write " + strangers.joined(separator: ", ")
                        + ": --force would replace \(strangers.count == 1 ? "it" : "each") with the "
                        + "generated file, any code of yours in it included; move such code to a "
                        + "file of another name first.\n"
                let fix =
                    warning + "Re-run with --force to overwrite them\(also), or move them away "
                    + "first\(own)."
                told.append(
                    Diagnostic(
                        .error,
                        "\(kept.count) existing file(s) differ from the generated ones; nothing "
                            + "was written.\n" + fix))
            } else {
                try Writer.apply(changes)
                try afterApply()
                if !kept.isEmpty { told.append(keptNote(kept.count)) }
            }
        }
        // After the plan, on stdout: the advice a real run gives (what Package.swift still
        // needs), also in a preview; and the next step, only after a run that wrote everything
        // and left nothing to review.
        let shownNext = options.mode == .apply && exitCode == 0 && reviews.isEmpty
        let after = diagnostics.filter { diagnostic in
            switch diagnostic.severity {
            case .advice: options.mode != .check && exitCode == 0
            case .next: shownNext
            default: false
            }
        }
        let standardError = told.map(\.rendered).joined()
        if options.json {
            return RunResult(
                exitCode: exitCode,
                standardOutput: PlanReport.json(
                    shown, exitCode: exitCode, diagnostics: told + after),
                standardError: preface.map { $0 + "\n" }.joined() + standardError)
        }
        let diffs =
            options.mode != .apply
            ? PlanReport.diffs(changes) : exitCode == 0 ? PlanReport.diffs(reviews) : ""
        let output = { (coloured: Bool) in
            preface.map { $0 + "\n" }.joined()
                + PlanReport.statusLines(shown, coloured: coloured) + diffs
                + after.map(\.rendered).joined()
        }
        return RunResult(
            exitCode: exitCode, standardOutput: output(false), standardError: standardError,
            colouredStandardOutput: output(true))
    }
}
