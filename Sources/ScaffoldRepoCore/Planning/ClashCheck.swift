import Foundation

/// The app's own code beside the generated files. A type that the target's own files declare
/// and a generated file declares too, or a file of the target with the name of a generated
/// file, breaks the build after a run that reported success; this finds both before anything
/// is written. The files generated for the target's other models count as its code too: a
/// model named `NoteRepositoryError` beside `Note` would declare a type that Note's files do.
enum ClashCheck {
    /// Throws a `PlanError` naming each clash (file, line, the fix) between `files` and the
    /// Swift files already in their module folders under `root`. Files at `known` paths (the
    /// generated files of every model in the manifest, and `files` themselves) are not the
    /// person's and are not read, except those that `otherModels` maps to the model they were
    /// generated for: a model's own files, and the shared ones, are left out of it.
    static func refuse(
        _ files: [GeneratedFile], root: URL, displayRoot: String, known: Set<String>,
        otherModels: [String: (model: String, hash: String)] = [:]
    ) throws {
        let swiftFiles = files.filter { $0.path.hasSuffix(".swift") && !$0.isOwnedOnceEdited }
        let folders = Set(swiftFiles.compactMap { moduleFolder($0.path) }).sorted()
        let sources = swiftFiles.filter { $0.path.hasPrefix("Sources/") }
        let tests = swiftFiles.filter { $0.path.hasPrefix("Tests/") }
        // The generated tests import the module without @testable: only its public types are
        // seen there, and only a public type of the module is seen by its tests.
        // Each generated file is read once.
        var parsed: [String: [Declaration]] = [:]
        for file in swiftFiles { parsed[file.path] = declarations(in: file.contents) }
        let publicSourceNames = declaredNames(sources, parsed, publicOnly: true)
        let testNames = declaredNames(tests, parsed)
        var clashes: [String] = []
        // Two generated files whose paths differ only in letter case (a model `Storefiles` and
        // the engine's `StoreFiles.swift`) are one file on a case-insensitive disk.
        var byLowercasedPath: [String: String] = [:]
        for file in files {
            let key = file.path.lowercased()
            if let other = byLowercasedPath[key], other != file.path {
                clashes.append(
                    "\(DiskPaths.shown(file.path, under: displayRoot)) and the generated "
                        + "\(DiskPaths.shown(other, under: displayRoot)) are one file on a disk that "
                        + "ignores letter case (macOS's default): give the model another name")
            }
            byLowercasedPath[key] = byLowercasedPath[key] ?? file.path
        }
        let sharedPaths = Set(files.filter(\.isShared).map(\.path))
        // Paths compared in any letter case: on a case-insensitive disk (macOS's default),
        // `Noterepository.swift` is Note's `NoteRepository.swift`.
        let generatedPaths = Set(files.map { $0.path.lowercased() })
        var otherModelByPath: [String: String] = [:]
        for (path, other) in otherModels { otherModelByPath[path.lowercased()] = other.model }
        // Every other file a model records (shared ones too), by its path in lower case.
        var knownByLowercased: [String: String] = [:]
        for path in known.subtracting(files.map(\.path)).sorted() {
            knownByLowercased[path.lowercased()] = path
        }
        // The names of Swift, Foundation and the test frameworks that the generated code uses bare,
        // and a file that uses each: a type of the target's own with such a name hides it there.
        // A type the generated code declares at any depth (the repository's `Change`, the
        // view-model's `Ordering`, a model's `CodingKeys`) is found before one of the target's.
        var scanned: [String: (declared: Set<String>, bare: Set<String>)] = [:]
        for file in swiftFiles { scanned[file.path] = identifiers(in: file.contents) }
        let systemNames = Identifier.reservedTypeNames.union(["Task"])
            .subtracting(declaredNames(swiftFiles, parsed).keys)
            .subtracting(swiftFiles.flatMap { scanned[$0.path]?.declared ?? [] })
            .subtracting(["CodingKeys"])
        let used = { (files: [GeneratedFile]) in
            var users: [String: String] = [:]
            for file in files {
                for name in (scanned[file.path]?.bare ?? []).intersection(systemNames) {
                    users[name] = users[name] ?? file.path
                }
            }
            return users
        }
        let usedByTests = used(tests)
        for folder in folders {
            let generated = swiftFiles.filter { moduleFolder($0.path) == folder }
            let usedHere = used(generated)
            // A test module sees the generated sources' public types too: one of its own hides
            // them. The module's own public type would be hidden by a generated test type.
            var names = declaredNames(generated, parsed)
            let privateNames = Set(
                generated.flatMap { parsed[$0.path] ?? [] }.filter(\.isPrivate).map(\.name))
            if folder.hasPrefix("Tests/") { names.merge(publicSourceNames) { mine, _ in mine } }
            let hiddenByTests = folder.hasPrefix("Sources/") ? testNames : [:]
            let allCandidates = Array(names.keys) + Array(hiddenByTests.keys)
            let modelCandidates = (names.merging(hiddenByTests) { mine, _ in mine })
                .filter { !sharedPaths.contains($0.value) }.map(\.key)
            // By name in lower case: `notes.swift` and `Notes.swift` are one file on macOS.
            var generatedFileNames: [String: String] = [:]
            for file in generated {
                let name = URL(fileURLWithPath: file.path).lastPathComponent.lowercased()
                generatedFileNames[name] = generatedFileNames[name] ?? file.path
            }
            // What the generated files add to other types (the engine's `String.argument`): an
            // extension of the target's own that adds a property of that name declares it twice.
            var addedProperties: [String: String] = [:]
            for file in generated {
                for added in extensionProperties(in: file.contents) {
                    let key = "\(added.type) \(added.property)"
                    addedProperties[key] = addedProperties[key] ?? file.path
                }
            }
            let othersFiles = otherModels.keys.filter { path in
                moduleFolder(path) == folder && !generatedPaths.contains(path.lowercased())
            }.sorted()
            for file in generated {
                if let model = otherModelByPath[file.path.lowercased()], !file.isShared {
                    clashes.append(
                        "\(DiskPaths.shown(file.path, under: displayRoot)) is a file that "
                            + "scaffold-repo generated for the model \(model) already: give this "
                            + "model another name")
                } else if let other = knownByLowercased[file.path.lowercased()],
                    other != file.path
                {
                    // A model's own file and a shared one in another letter case
                    // (`Journalstore.swift` beside the engine's `JournalStore.swift`), whichever
                    // came first.
                    clashes.append(
                        "\(DiskPaths.shown(file.path, under: displayRoot)) and the generated "
                            + "\(DiskPaths.shown(other, under: displayRoot)) are one file on a disk "
                            + "that ignores letter case (macOS's default): give the model another "
                            + "name, or another storage")
                }
            }
            for path in personsFiles(in: folder, root: root, known: known) + othersFiles {
                let shown = DiskPaths.shown(path, under: displayRoot)
                let name = URL(fileURLWithPath: path).lastPathComponent.lowercased()
                if otherModels[path] == nil, let twin = generatedFileNames[name] {
                    clashes.append(
                        "\(shown) has the name of the generated "
                            + "\(DiskPaths.shown(twin, under: displayRoot)): a target cannot build "
                            + "two files of one name (\"multiple producers\"). Rename yours, or "
                            + "give the model another name")
                }
                guard
                    let text = try? String(
                        contentsOf: root.appendingPathComponent(path), encoding: .utf8)
                else { continue }
                // Another model's file as generated; once edited, it is the person's code.
                let model = otherModels[path].flatMap { other in
                    ContentHash.of(text) == other.hash ? other.model : nil
                }
                if model == nil, text.contains("extension") {
                    for added in extensionProperties(in: text) {
                        guard let theirs = addedProperties["\(added.type) \(added.property)"]
                        else { continue }
                        clashes.append(
                            "\(shown):\(added.line) adds \(added.property) to \(added.type), and so "
                                + "does the generated \(DiskPaths.shown(theirs, under: displayRoot)): "
                                + "the target would not compile (invalid redeclaration). Rename "
                                + "yours, or generate the model into another target (--target)")
                    }
                }
                // Another model's file as generated uses the shared engine's types but never
                // declares them: only this model's own names can clash there. A file that
                // declares none of the names it could clash on, at any depth, is not parsed line
                // by line (one pass over its bytes finds the names it declares).
                let candidates =
                    model == nil
                    ? allCandidates + Array(usedHere.keys) + Array(usedByTests.keys)
                    : modelCandidates
                guard !identifiers(in: text).declared.isDisjoint(with: candidates) else {
                    continue
                }
                // Two file-private types of one name in two files are no clash.
                for declaration in declarations(in: text)
                where !(declaration.isPrivate && privateNames.contains(declaration.name)) {
                    // A function named like a type (`func URL(_:)`) is an overload beside its
                    // initializers, which the generated code still finds; a constant hides it.
                    if model == nil, !declaration.isPrivate, declaration.kind != "func",
                        names[declaration.name] == nil,
                        let user = usedHere[declaration.name]
                            ?? (declaration.isPublic && folder.hasPrefix("Sources/")
                                ? usedByTests[declaration.name] : nil)
                    {
                        clashes.append(
                            "\(shown):\(declaration.line) declares \(declaration.kind) "
                                + "\(declaration.name), which hides the \(declaration.name) of Swift, "
                                + "Foundation or a test framework that the generated "
                                + "\(DiskPaths.shown(user, under: displayRoot)) uses: the target would "
                                + "not compile. Rename yours, or generate the model into another "
                                + "target (--target)")
                        continue
                    }
                    guard
                        let generatedPath = names[declaration.name]
                            ?? (declaration.isPublic ? hiddenByTests[declaration.name] : nil)
                    else { continue }
                    let shared = files.first { $0.path == generatedPath }?.isShared == true
                    let fix =
                        if model != nil {
                            "Give this model another name, or generate it into another target "
                                + "(--target)"
                        } else if shared {
                            "Rename yours: the generated one serves every model of the target"
                        } else {
                            "Rename yours, give the model another name, or generate it into "
                                + "another target (--target)"
                        }
                    let theirs = DiskPaths.shown(generatedPath, under: displayRoot)
                    let what = "\(declaration.kind) \(declaration.name)"
                    let whose = model.map { " (generated for the model \($0))" } ?? ""
                    clashes.append(
                        "\(shown):\(declaration.line)\(whose) declares \(what), and so does the "
                            + "generated \(theirs): the target would not compile "
                            + "('\(declaration.name)' is ambiguous or declared twice). \(fix)")
                }
            }
        }
        guard !clashes.isEmpty else { return }
        throw PlanError(
            "the generated code would clash with the code already in the target; nothing was "
                + "written:\n" + clashes.map { "  - " + $0 }.joined(separator: "\n"))
    }

    /// `Sources/<module>` or `Tests/<module>Tests`: the folder of the module `path` is in.
    static func moduleFolder(_ path: String) -> String? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count > 2, parts[0] == "Sources" || parts[0] == "Tests" else { return nil }
        return "\(parts[0])/\(parts[1])"
    }

    /// Each top-level type name that `files` declare (with `publicOnly`, as `public` or
    /// `open`), and the first file that declares it; `parsed` holds each file's declarations.
    private static func declaredNames(
        _ files: [GeneratedFile], _ parsed: [String: [Declaration]], publicOnly: Bool = false
    ) -> [String: String] {
        var names: [String: String] = [:]
        for file in files {
            for declaration in parsed[file.path] ?? []
            where names[declaration.name] == nil && (declaration.isPublic || !publicOnly) {
                names[declaration.name] = file.path
            }
        }
        return names
    }

    /// The Swift files below `folder` that are not at a `known` path, sorted.
    static func personsFiles(in folder: String, root: URL, known: Set<String>) -> [String] {
        let base = root.appendingPathComponent(folder)
        guard let enumerator = FileManager.default.enumerator(atPath: base.path) else { return [] }
        var paths: [String] = []
        while let relative = enumerator.nextObject() as? String {
            let path = "\(folder)/\(relative)"
            guard relative.hasSuffix(".swift"), !known.contains(path) else { continue }
            paths.append(path)
        }
        return paths.sorted()
    }

    /// A type declared at the top level of a Swift file: its kind (`struct`), name and line.
    struct Declaration: Equatable {
        let kind: String
        let name: String
        let line: Int
        /// Whether it is `public` or `open`.
        var isPublic = false
        /// Whether it is `private` or `fileprivate`: seen in its own file only.
        var isPrivate = false
    }

    /// The top-level declarations of Swift `text`: structs, classes, enums, actors,
    /// protocols and type aliases, and constants, variables and functions (a `let Fish`
    /// redeclares a model `Fish`), outside any braces, comments and string literals; each
    /// statement of a line that `;` separates, and a name in backticks, counted.
    static func declarations(in text: String) -> [Declaration] {
        let declaration =
            /^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|open|final|nonisolated|indirect|distributed)\s+)*)(struct|class|enum|actor|protocol|typealias|let|var|func)\s+`?([A-Za-z_][A-Za-z0-9_]*)/
        // A line that ends before the name (`struct` alone, `public final`) goes on in the next.
        let unfinished =
            /^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|open|final|nonisolated|indirect|distributed|struct|class|enum|actor|protocol|typealias|let|var|func)\s*)+$/
        var found: [Declaration] = []
        var depth = 0
        var carried: (text: String, line: Int)?
        for (index, code) in codeLines(text).enumerated() {
            for part in code.split(separator: ";", omittingEmptySubsequences: false) {
                var statement = part
                var line = index + 1
                if depth == 0, let start = carried {
                    if part.allSatisfy(\.isWhitespace) { continue }
                    statement = Substring(start.text + " " + part)
                    line = start.line
                    carried = nil
                }
                if depth == 0, !statement.isEmpty, statement.wholeMatch(of: unfinished) != nil {
                    carried = (String(statement), line)
                    continue
                }
                if depth == 0, !statement.isEmpty,
                    let match = statement.firstMatch(of: declaration)
                {
                    let modifiers = match.output.1.split(separator: " ")
                    found.append(
                        Declaration(
                            kind: String(match.output.2), name: String(match.output.3),
                            line: line,
                            isPublic: modifiers.contains("public") || modifiers.contains("open"),
                            isPrivate: modifiers.contains("private")
                                || modifiers.contains("fileprivate")))
                }
                for byte in statement.utf8 {
                    if byte == UInt8(ascii: "{") { depth += 1 }
                    if byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
                }
            }
        }
        return found
    }

    /// A property that an extension at the top level of a Swift file declares: the type it
    /// extends, as written but for a leading `Swift.` or `Foundation.` (`Order.Item` is not
    /// `Item`), the property (`var argument`, `static var columnType`) and its line. Unlike a
    /// function, a property has no overloads: two of one name on one type in one module are
    /// declared twice, whatever their types and access (a `private` one too).
    struct ExtensionProperty: Equatable {
        let type: String
        let property: String
        let line: Int
    }

    /// The properties of the extensions at the top level of Swift `text`, outside comments and
    /// string literals; an extension with a `where` clause or generic arguments (`Optional
    /// where Wrapped == Item`) is left out, since it may not reach the types another one does.
    static func extensionProperties(in text: String) -> [ExtensionProperty] {
        let opening =
            /^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|private|fileprivate|nonisolated)\s+)*extension\s+([A-Za-z_][\w.]*)(.*)$/
        let property =
            /^\s*(?:@[\w.]+(?:\([^)]*\))?\s+)*((?:(?:public|package|internal|private|fileprivate|open|final|nonisolated|static|class|override|dynamic|lazy|weak|unowned)\s+)*)(?:var|let)\s+`?([A-Za-z_]\w*)/
        var found: [ExtensionProperty] = []
        var depth = 0
        var extended: String?
        for (index, code) in codeLines(text).enumerated() {
            if depth == 0, let match = code.firstMatch(of: opening) {
                let rest = match.output.2
                let isConstrained =
                    rest.hasPrefix("<") || rest.contains(/(^|\s|,)where\s/)
                var name = Substring(match.output.1)
                for module in ["Swift.", "Foundation."] where name.hasPrefix(module) {
                    name = name.dropFirst(module.count)
                }
                extended = isConstrained ? nil : String(name)
            } else if depth == 1, let type = extended, let match = code.firstMatch(of: property) {
                let modifiers = match.output.1.split(separator: " ")
                let isStatic = modifiers.contains("static") || modifiers.contains("class")
                found.append(
                    ExtensionProperty(
                        type: type, property: (isStatic ? "static var " : "var ") + match.output.2,
                        line: index + 1))
            }
            for byte in code.utf8 {
                if byte == UInt8(ascii: "{") { depth += 1 }
                if byte == UInt8(ascii: "}") { depth = max(0, depth - 1) }
            }
            if depth == 0 { extended = nil }
        }
        return found
    }

    /// Each line of Swift `text` without its comments and the contents of its string literals
    /// (a string becomes `""`; a multi-line string and a block comment, nested ones included,
    /// leave their lines empty); `keepingStrings`, without its comments only. Bytes, not Characters: every generated file, and every file of
    /// the target that mentions a generated name, is read on every run.
    static func codeLines(_ text: String, keepingStrings: Bool = false) -> [String] {
        let bytes = Array(text.utf8)
        let (slash, star, quote, backslash) = (
            UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: "\""), UInt8(ascii: "\\")
        )
        let (newline, carriageReturn) = (UInt8(ascii: "\n"), UInt8(ascii: "\r"))
        func at(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
        func isLineEnd(_ position: Int) -> Bool {
            at(position) == newline || at(position) == carriageReturn
        }
        func isTripleQuote(_ position: Int) -> Bool {
            at(position) == quote && at(position + 1) == quote && at(position + 2) == quote
        }
        var lines: [String] = []
        var code: [UInt8] = []
        var commentDepth = 0
        var inMultilineString = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == newline || byte == carriageReturn {
                lines.append(String(decoding: code, as: UTF8.self))
                code.removeAll(keepingCapacity: true)
                // `\r\n` ends one line.
                index += byte == carriageReturn && at(index + 1) == newline ? 2 : 1
            } else if commentDepth > 0 {
                if byte == slash, at(index + 1) == star {
                    commentDepth += 1
                    index += 2
                } else if byte == star, at(index + 1) == slash {
                    commentDepth -= 1
                    index += 2
                } else {
                    index += 1
                }
            } else if inMultilineString {
                let length = min(
                    isTripleQuote(index) ? 3 : byte == backslash && !isLineEnd(index + 1) ? 2 : 1,
                    bytes.count - index)
                if keepingStrings { code += bytes[index..<index + length] }
                if length == 3 { inMultilineString = false }
                index += length
            } else if byte == slash, at(index + 1) == slash {
                while index < bytes.count, bytes[index] != newline, bytes[index] != carriageReturn {
                    index += 1
                }
            } else if byte == slash, at(index + 1) == star {
                commentDepth = 1
                index += 2
            } else if isTripleQuote(index) {
                inMultilineString = true
                if keepingStrings { code += [quote, quote, quote] }
                index += 3
            } else if byte == quote {
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != quote, !isLineEnd(index) {
                    index += min(
                        bytes[index] == backslash && !isLineEnd(index + 1) ? 2 : 1,
                        bytes.count - index)
                }
                if at(index) == quote { index += 1 }
                code += keepingStrings ? Array(bytes[start..<index]) : [quote, quote]
            } else {
                code.append(byte)
                index += 1
            }
        }
        lines.append(String(decoding: code, as: UTF8.self))
        return lines
    }

    /// The names starting with a capital letter that Swift `text` uses bare, outside comments
    /// and string literals: not after a `.` (a member, or a qualified name) or an `@` (an
    /// attribute or a macro, which a type does not hide).
    static func bareCapitalizedNames(in text: String) -> Set<String> {
        identifiers(in: text).bare
    }

    /// One pass over `text`'s bytes, outside comments and string literals (a string's
    /// interpolations are skipped too): the names after a declaring keyword, and the
    /// capitalized names used bare. Bytes, not Characters: every generated file is read on
    /// every run.
    private static func identifiers(in text: String) -> (declared: Set<String>, bare: Set<String>) {
        let bytes = Array(text.utf8)
        let keywords: Set<String> = [
            "struct", "class", "enum", "actor", "protocol", "typealias", "associatedtype", "let",
            "var", "func",
        ]
        var declared: Set<String> = []
        var bare: Set<String> = []
        var lastWord = ""
        var index = 0
        let (slash, star, quote) = (UInt8(ascii: "/"), UInt8(ascii: "*"), UInt8(ascii: "\""))
        func at(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
        func isTripleQuote(_ position: Int) -> Bool {
            at(position) == quote && at(position + 1) == quote && at(position + 2) == quote
        }
        func isWordByte(_ byte: UInt8) -> Bool {
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A)
                || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F || byte >= 0x80
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == slash, at(index + 1) == slash {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == slash, at(index + 1) == star {
                var depth = 0
                while index < bytes.count {
                    if bytes[index] == slash, at(index + 1) == star {
                        depth += 1
                        index += 2
                    } else if bytes[index] == star, at(index + 1) == slash {
                        depth -= 1
                        index += 2
                        if depth == 0 { break }
                    } else {
                        index += 1
                    }
                }
            } else if isTripleQuote(index) {
                index += 3
                while index < bytes.count, !isTripleQuote(index) {
                    index += bytes[index] == 0x5C ? 2 : 1
                }
                index += 3
            } else if byte == 0x22 {
                index += 1
                while index < bytes.count, bytes[index] != 0x22, bytes[index] != 0x0A {
                    index += bytes[index] == 0x5C ? 2 : 1
                }
                index += 1
            } else if isWordByte(byte), !(byte >= 0x30 && byte <= 0x39) {
                let start = index
                while index < bytes.count, isWordByte(bytes[index]) { index += 1 }
                let word = String(decoding: bytes[start..<index], as: UTF8.self)
                let before = start > 0 ? bytes[start - 1] : 0x20
                if keywords.contains(lastWord) { declared.insert(word) }
                // An attribute is no use of a type (`@Suite` is a macro), but for a global
                // actor's: a type of the target named `MainActor` breaks `@MainActor`.
                if byte >= 0x41, byte <= 0x5A, before != 0x2E, before != 0x40 || word == "MainActor"
                {
                    bare.insert(word)
                }
                lastWord = word
            } else {
                // A name in backticks is the word after its keyword too.
                if byte != 0x20, byte != 0x0A, byte != 0x09, byte != 0x60 { lastWord = "" }
                index += 1
            }
        }
        return (declared, bare)
    }
}
