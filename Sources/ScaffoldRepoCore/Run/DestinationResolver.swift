import Foundation

/// The folder the generated paths are relative to, and what to tell the user about it.
struct ResolvedDestination {
    let root: URL
    /// The root as the user would write it, prefixed to each printed path.
    let displayRoot: String
    /// What to print after a successful run: what Package.swift still needs, and the next step.
    let notes: [Diagnostic]
}

/// Checks the destination options against the disk before anything is rendered or written.
enum DestinationResolver {
    /// The folders under `root`'s `Sources` that can hold Swift files: not hidden, and not a C
    /// or system library (such as the sqlite storage's `CSQLite`), sorted.
    static func swiftTargets(in root: URL) -> [String] {
        let sources = root.appendingPathComponent("Sources")
        return ((try? FileManager.default.contentsOfDirectory(atPath: sources.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !isCLibrary(sources.appendingPathComponent($0)) }
            .sorted()
    }

    /// A new package in a target's folder of another package (`Sources/<target>/…`,
    /// `Tests/<target>/…`) would be compiled into that target, and its build stop (two files of
    /// one name): the run is refused, naming how to add the model to that target instead.
    private static func refuseAPackageInsideATarget(
        at root: URL, model: String, from currentDirectory: URL
    ) throws {
        var parts: [String] = []
        // Where the files would really go: through links (`--output` by a linked folder).
        var folder = resolvingLinks(root)
        let targetFolder = folder
        while folder.pathComponents.count > 1 {
            parts.insert(folder.lastPathComponent, at: 0)
            folder.deleteLastPathComponent()
            guard
                FileManager.default.fileExists(
                    atPath: folder.appendingPathComponent("Package.swift").path)
            else { continue }
            guard parts.count > 1, ["Sources", "Tests"].contains(parts[0]) else { return }
            // A new or empty folder in `Sources` is no target's until the manifest names it;
            // one that holds files is a target's (`--output .` in it).
            let holdsFiles =
                ((try? FileManager.default.contentsOfDirectory(atPath: targetFolder.path)) ?? [])
                .contains { !$0.hasPrefix(".") }
            guard parts.count > 2 || holdsFiles else { return }
            let sourceTargets = swiftTargets(in: folder)
            let testedTarget = parts[1].hasSuffix("Tests") ? String(parts[1].dropLast(5)) : ""
            let target =
                parts[0] == "Sources"
                ? parts[1]
                : sourceTargets.contains(testedTarget)
                    ? testedTarget : (sourceTargets.first ?? "NAME")
            let package = relativePath(
                of: folder, from: resolvingLinks(currentDirectory))
            throw UsageError(
                "\(parts.joined(separator: "/")) is inside the package at \(package): a package "
                    + "made there would be compiled into its target \(parts[1]), and its build "
                    + "would stop; to add \(model) to target \(target), give --into "
                    + "\(DiskPaths.forShell(package)) --target \(target); to make a package of "
                    + "its own, give --output with a folder outside that package's Sources and "
                    + "Tests")
        }
    }

    /// `url` with every link on its way resolved; the part that does not exist yet as given.
    private static func resolvingLinks(_ url: URL) -> URL {
        var existing = URL(fileURLWithPath: url.path).standardizedFileURL
        var rest: [String] = []
        while existing.pathComponents.count > 1, DiskPaths.entry(at: existing) == nil {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        return rest.reduce(existing.resolvingSymlinksInPath()) { $0.appendingPathComponent($1) }
    }

    /// `folder` as a path from `currentDirectory` (`..`, `../..`; `.` for itself), or absolute
    /// when they share only the root.
    private static func relativePath(of folder: URL, from currentDirectory: URL) -> String {
        let top = { (url: URL) in
            URL(fileURLWithPath: url.path).standardizedFileURL.pathComponents.dropFirst().first
        }
        guard top(folder) == top(currentDirectory) else {
            return URL(fileURLWithPath: folder.path).standardizedFileURL.path
        }
        return DiskPaths.relativePath(of: folder, from: currentDirectory)
    }

    /// Whether `folder` is a C or system library target: it has a module map.
    private static func isCLibrary(_ folder: URL) -> Bool {
        ["module.modulemap", "include/module.modulemap"].contains {
            FileManager.default.fileExists(atPath: folder.appendingPathComponent($0).path)
        }
    }

    /// A new package is written over a folder only if it holds no package, or the package
    /// that scaffold-repo generated for this same model. Anything else needs `--into` and a
    /// target: its Package.swift would not name the new files, so they would never compile.
    private static func refuseOtherPackage(at root: URL, path: String, model: String) throws {
        guard
            FileManager.default.fileExists(
                atPath: root.appendingPathComponent("Package.swift").path)
        else { return }
        // A manifest that cannot be read says so, rather than "did not create".
        let models = try Manifest.load(root: root)?.models ?? []
        let generatedFor = models.filter { $0.target == nil }.map(\.name)
        guard !generatedFor.contains(model) else { return }
        let targets = swiftTargets(in: root)
        let target = targets.first ?? "NAME"
        let known = targets.isEmpty ? "" : " (its targets: \(targets.joined(separator: ", ")))"
        let whose =
            generatedFor.isEmpty
            ? "an existing package that scaffold-repo did not create"
            : "the package scaffold-repo generated for \(generatedFor.joined(separator: ", "))"
        throw UsageError(
            "--output '\(path)' is \(whose); its Package.swift would not build a second "
                + "package's files. To add \(model) to one of its targets, use --into \(path) "
                + "--target \(target)\(known)")
    }

    static func resolve(
        _ destination: Destination, spec: ModelSpec, storage: Storage = .journal,
        currentDirectory: URL
    ) throws -> ResolvedDestination {
        switch destination {
        case .standalone(let output):
            let path = output ?? Names(spec).storePackage
            let root = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
            if DiskPaths.entry(at: root) == .file {
                throw UsageError(
                    "--output '\(path)' is a file; give a folder (it is created if missing)")
            }
            var ancestor = root
            while DiskPaths.entry(at: ancestor) == nil { ancestor.deleteLastPathComponent() }
            if case .brokenLink(let target) = DiskPaths.entry(at: ancestor) {
                throw UsageError(
                    "--output '\(path)': \(ancestor.path) is a link to \(target), which does not "
                        + "exist; give another folder, or create the folder the link names")
            }
            guard DiskPaths.entry(at: ancestor) == .folder else {
                throw UsageError(
                    "--output '\(path)' is inside \(ancestor.path), which is a file; give a folder")
            }
            try refuseOtherPackage(at: root, path: path, model: spec.typeName)
            try refuseAPackageInsideATarget(at: root, model: spec.typeName, from: currentDirectory)
            let display = display(path)
            let next =
                display.isEmpty ? "swift test" : "cd \(DiskPaths.forShell(display)) && swift test"
            return ResolvedDestination(
                root: root, displayRoot: display, notes: [Diagnostic(.next, next)])
        case .into(let packagePath, let target):
            let root = try existingFolder(
                packagePath, option: "--into", currentDirectory: currentDirectory)
            let manifest = root.appendingPathComponent("Package.swift")
            guard let manifestFile = try? String(contentsOf: manifest, encoding: .utf8) else {
                throw UsageError(
                    "--into '\(packagePath)' has no Package.swift; give the folder of a Swift package"
                )
            }
            // What SwiftPM reads: a comment declares nothing (the tools version, which is one,
            // is read from the file itself).
            let manifestText = ClashCheck.codeLines(manifestFile, keepingStrings: true)
                .joined(separator: "\n")
            let sources = try? existingFolder(
                "Sources/\(target)", option: "--target", currentDirectory: root)
            let folders = swiftTargets(in: root)
            let known = folders.isEmpty ? "" : " (it has: \(folders.joined(separator: ", ")))"
            // The files go to Sources/<target>: a target that builds another folder would not
            // build them (found by a trial: a stray Sources/App was written to, and the
            // package did not build).
            if let path = customPath(ofTarget: target, in: manifestText),
                path.split(separator: "/").filter({ $0 != "." }) != ["Sources", Substring(target)]
            {
                throw UsageError(
                    "--target '\(target)': Package.swift gives \(target) the path \(path), and "
                        + "scaffold-repo writes a target's files to Sources/\(target), which it would "
                        + "not build; generate into a target under Sources/, or into a package of "
                        + "its own (--output) that \(target) depends on")
            }
            // A `sources:` list that does not hold the target's folder itself leaves the
            // generated files, at its top, out of the build.
            if let listed = declarations(ofTarget: target, in: manifestText).lazy.compactMap({
                $0.firstMatch(of: /\bsources:\s*\[([^\]]*)\]/)
            }).first,
                !listed.output.1.split(separator: ",").contains(where: {
                    ["\".\"", "\"./\""].contains($0.trimmingCharacters(in: .whitespacesAndNewlines))
                })
            {
                throw UsageError(
                    "--target '\(target)': Package.swift gives \(target) the sources "
                        + "[\(listed.output.1)], which would leave out the files scaffold-repo "
                        + "writes to Sources/\(target); add \".\" to that list, or generate into "
                        + "another target")
            }
            guard let sources else {
                throw UsageError(
                    "--target '\(target)': there is no Sources/\(target) in '\(packagePath)'\(known); "
                        + "give the name of one of its targets")
            }
            guard !isCLibrary(sources) else {
                throw UsageError(
                    "--target '\(target)': Sources/\(target) in '\(packagePath)' is a C or system "
                        + "library (it has a module.modulemap), which cannot hold Swift files; "
                        + "give a Swift target\(known)")
            }
            // The engine calls C through pointers without `unsafe`: such a target gets
            // thousands of warnings (documented as not supported).
            if let checked = [target, target + "Tests"].first(where: {
                declaration(ofTarget: $0, in: manifestText, mentions: ".strictMemorySafety(")
                    == true
            }) {
                throw UsageError(
                    "--target '\(target)': Package.swift gives \(checked) .strictMemorySafety(), "
                        + "which the generated code does not support (its store calls C through "
                        + "pointers without marking them unsafe: thousands of warnings). Generate "
                        + "into a target without it, or into a package of its own (--output) "
                        + "that the app depends on")
            }
            var notes: [Diagnostic] = []
            // What Package.swift lacks for the package to build and run the generated tests:
            // the next step names it before `swift test`.
            var missing: [String] = []
            let minimum = RenderContext.minimumToolsVersion
            if let tools = toolsVersion(of: manifestFile), tools < minimum {
                notes.append(
                    Diagnostic(
                        .advice,
                        "the generated code needs Swift \(minimum.major).\(minimum.minor) or later "
                            + "(it marks types nonisolated); Package.swift says "
                            + "\(tools.major).\(tools.minor), so raise its first line to:\n"
                            + "    // swift-tools-version: \(minimum.major).\(minimum.minor)"))
                missing.append("the swift-tools-version line")
            }
            if !manifestText.contains(".macOS(") || !manifestText.contains(".iOS(") {
                notes.append(
                    Diagnostic(
                        .advice,
                        "@Observable needs macOS 14, iOS 17, tvOS 17, watchOS 10 or visionOS 1; "
                            + "if Package.swift does not say so yet, add (the platforms you build "
                            + "for):\n    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), "
                            + ".watchOS(.v10), .visionOS(.v1)],"))
                // Without macOS 14, `swift test` on a Mac stops at `@Observable`.
                if !manifestText.contains(".macOS(") { missing.append("the platforms line") }
            }
            // What a test target for the generated tests depends on.
            let testDependencies =
                storage == .sqlite ? "\"\(target)\", \(sqliteDependencyLine)" : "\"\(target)\""
            if storage == .sqlite, !namesTheSQLiteLibrary(manifestText) {
                notes.append(sqliteLines(for: target))
                missing.append(sqliteLinesName)
            } else if storage == .sqlite {
                // Declared for another target: each target that imports it needs it.
                let lacking = [target, target + "Tests"].filter {
                    dependsOnTheSQLiteLibrary(target: $0, in: manifestText) == false
                }
                if !lacking.isEmpty {
                    notes.append(
                        Diagnostic(
                            .advice,
                            "Package.swift declares \(Names.sqliteLibraryTarget), but "
                                + lacking.joined(separator: " and ")
                                + " do\(lacking.count == 1 ? "es" : "") not depend on it; add to "
                                + "\(lacking.count == 1 ? "its" : "their") dependencies:\n    "
                                + sqliteDependencyLine))
                    missing.append("the \(Names.sqliteLibraryTarget) dependency")
                }
            }
            if !manifestText.contains("\"\(target)Tests\"") {
                notes.append(
                    Diagnostic(
                        .advice,
                        "declare the test target in Package.swift if it is not there yet:\n"
                            + "    .testTarget(name: \"\(target)Tests\", dependencies: [\(testDependencies)])"
                    ))
                missing.append("the test target")
            } else if let path = customPath(ofTarget: target + "Tests", in: manifestText),
                // A path that holds Tests/<target>Tests (`Tests`, `./Tests/AppTests`) builds
                // the generated tests too.
                !["Tests", "\(target)Tests"].starts(
                    with: path.split(separator: "/").filter { $0 != "." }),
                !manifestText.contains("\"Tests/\(target)Tests\"")
            {
                // `swift test` runs the files at that path, not the generated tests.
                notes.append(
                    Diagnostic(
                        .advice,
                        "Package.swift gives \(target)Tests the path \(path), so swift test would "
                            + "not run the generated tests in Tests/\(target)Tests; declare a test "
                            + "target for them:\n    .testTarget(name: \"\(target)StoreTests\", "
                            + "dependencies: [\(testDependencies)], path: \"Tests/\(target)Tests\")"
                    ))
                missing.append("the test target")
            }
            let display = display(packagePath)
            let test =
                display.isEmpty ? "swift test" : "cd \(DiskPaths.forShell(display)) && swift test"
            // Without them the package does not build (the tools version, the system library on
            // Linux), or `swift test` does not run the generated tests (the test target).
            let lines =
                missing.count < 3
                ? missing.joined(separator: " and ")
                : missing.dropLast().joined(separator: ", ") + " and " + (missing.last ?? "")
            notes.append(
                Diagnostic(
                    .next,
                    missing.isEmpty ? test : "add \(lines) above to Package.swift, then \(test)"))
            return ResolvedDestination(root: root, displayRoot: display, notes: notes)
        }
    }

    /// Whether the package manifest `text` declares the sqlite storage's system library.
    static func namesTheSQLiteLibrary(_ text: String) -> Bool {
        text.contains("\"\(Names.sqliteLibraryTarget)\"")
    }

    /// The dependency on the sqlite storage's system library, on Linux only.
    static let sqliteDependencyLine =
        ".target(name: \"\(Names.sqliteLibraryTarget)\", condition: .when(platforms: [.linux]))"

    /// Whether the declaration of `target` in the package manifest `text` names the sqlite
    /// storage's system library, or a variable whose line does (`let sqlite: Target.Dependency =
    /// .target(name: "CSQLite", …)`); nil when the declaration is not found as
    /// `.target(name: "…"` (the manifest builds it some other way).
    static func dependsOnTheSQLiteLibrary(target: String, in text: String) -> Bool? {
        declaration(ofTarget: target, in: text, mentions: "\"\(Names.sqliteLibraryTarget)\"")
    }

    /// Whether the declaration of `target` in a package manifest's `text` (without its comments,
    /// which would count) says `word`, itself or through a variable it names; nil when the
    /// manifest does not declare the target.
    static func declaration(ofTarget target: String, in text: String, mentions word: String)
        -> Bool?
    {
        // Variables whose statement (up to the next line that starts with `let` or `var`, as
        // inside `#if os(Linux)`) names it, on one line or several, but the package's own
        // declaration.
        var names: [String] = []
        var statements: [(name: String, text: String)] = []
        for line in text.split(separator: "\n") {
            if let match = line.firstMatch(of: /^\s*(?:let|var)\s+([A-Za-z_][A-Za-z0-9_]*)/) {
                statements.append((String(match.output.1), ""))
            }
            if !statements.isEmpty { statements[statements.count - 1].text += line + "\n" }
        }
        for statement in statements
        where statement.text.contains(word) && !statement.text.contains("Package(") {
            names.append(statement.name)
        }
        // The declaration, or a dependency on the target (`.target(name: "Sync")`): any of
        // them naming the library will do.
        let found = declarations(ofTarget: target, in: text)
        for declaration in found {
            if declaration.contains(word) { return true }
            // The variables it names; not an argument's label (`swiftSettings: [...]` beside a
            // variable called swiftSettings).
            let words = Set(
                declaration.matches(of: /([(,]\s*)?([A-Za-z_][A-Za-z0-9_]*)(\s*:)?/)
                    .filter { $0.output.1 == nil || $0.output.3 == nil }
                    .map { String($0.output.2) })
            if names.contains(where: words.contains) { return true }
        }
        return found.isEmpty ? nil : false
    }

    /// Each `.target(name: "…"` (or `.executableTarget`, `.testTarget`) of `target` in a package
    /// manifest's `text`, up to its closing parenthesis: its declaration, and any dependency on
    /// it written that way.
    static func declarations(ofTarget target: String, in text: String) -> [Substring] {
        let opening = /\.(?:target|executableTarget|testTarget)\(\s*name:\s*"([^"]*)"/
        return text.matches(of: opening).filter { $0.output.1 == target }.map { match in
            var depth = 0
            var end = match.range.lowerBound
            // Parentheses inside a string (`exclude: ["notes(draft).txt"]`) do not count.
            var isInString = false
            var isEscaped = false
            for index in text[match.range.lowerBound...].indices {
                let character = text[index]
                end = index
                if isInString {
                    if isEscaped {
                        isEscaped = false
                    } else if character == "\\" {
                        isEscaped = true
                    } else if character == "\"" {
                        isInString = false
                    }
                    continue
                }
                if character == "\"" { isInString = true }
                if character == "(" { depth += 1 }
                if character == ")" { depth -= 1 }
                if depth == 0, character == ")" { break }
            }
            return text[match.range.lowerBound...end]
        }
    }

    /// The `path:` that the declaration of `target` in a package manifest's `text` gives, or nil:
    /// the string, or the expression as written when it is not a plain string (a variable).
    static func customPath(ofTarget target: String, in text: String) -> String? {
        for declaration in declarations(ofTarget: target, in: text) {
            if let match = declaration.firstMatch(of: /\bpath:\s*"([^"]*)"/) {
                return String(match.output.1)
            }
            if let match = declaration.firstMatch(of: /\bpath:\s*([^,)\s][^,)]*)/) {
                return String(match.output.1).trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }

    /// How the next step names what ``sqliteLines(for:)`` gives.
    static let sqliteLinesName = "the CSQLite lines"

    /// The lines a Package.swift needs for the sqlite storage of `target` and its tests.
    static func sqliteLines(for target: String) -> Diagnostic {
        let library = Names.sqliteLibraryTarget
        let dependency = sqliteDependencyLine
        return Diagnostic(
            .advice,
            "the sqlite storage links SQLite: Apple platforms have it as SQLite3, Linux through "
                + "Sources/\(library) (this run writes its module map; Debian and Ubuntu need "
                + "libsqlite3-dev). Add to Package.swift's targets:\n"
                + "    .systemLibrary(name: \"\(library)\", path: \"Sources/\(library)\"),\n"
                + "and to the dependencies of \(target) and \(target)Tests:\n"
                + "    \(dependency)")
    }

    /// The `// swift-tools-version: X.Y` that a package manifest starts with, or nil.
    static func toolsVersion(of manifest: String) -> (major: Int, minor: Int)? {
        guard let first = manifest.split(separator: "\n", maxSplits: 1).first,
            let colon = first.firstIndex(of: ":"),
            first.lowercased().hasPrefix("// swift-tools-version")
        else { return nil }
        let numbers = first[first.index(after: colon)...].drop { $0 == " " }
            .prefix { $0.isNumber || $0 == "." }
            .split(separator: ".").compactMap { Int($0) }
        guard numbers.count >= 2 else { return nil }
        let (major, minor) = (numbers[0], numbers[1])
        return (major, minor)
    }

    /// `path` resolved against `currentDirectory`; it must be an existing folder.
    static func existingFolder(_ path: String, option: String, currentDirectory: URL) throws -> URL
    {
        let url = URL(fileURLWithPath: path, relativeTo: currentDirectory).standardizedFileURL
        guard DiskPaths.entry(at: url) == .folder else {
            throw UsageError("\(option) '\(path)' is not an existing folder; check the path")
        }
        return url
    }

    /// `./QuestionStore/` → `QuestionStore`; `.` → `` (paths are then printed as they are).
    static func display(_ path: String) -> String {
        // `.` and `a/..` taken out as the run takes them out (a standardized URL): `cd a/../b`
        // fails in a shell where `a` does not exist.
        var parts: [Substring] = []
        for part in path.split(separator: "/") where part != "." {
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
            } else {
                parts.append(part)
            }
        }
        let display = (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
        return display == "." ? "" : display
    }
}
