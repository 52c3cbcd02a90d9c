import Foundation

/// The built-in templates, embedded into the binary at build time from `Templates/`.
public enum BuiltInTemplates {
    /// The built-in template names, sorted.
    public static var names: [String] { embedded.keys.sorted() }

    /// The template that a file called `name` was likely meant to be: the name without its
    /// `.tmpl` (the likeliest slip), or one a typo away.
    static func likelyName(for name: String) -> String? {
        names.first { $0 == name + ".tmpl" } ?? Suggestion.closest(to: name, among: names)
    }

    /// The first line of an ejected copy of the built-in `name`: a template comment (so it
    /// renders as nothing) that records which built-in text the copy started from.
    public static func ejectHeader(for name: String) -> String {
        ejectHeaderPrefix(for: name) + "(fnv1a64 \(ContentHash.of(embedded[name] ?? ""))) }}"
    }

    /// How the first line of an ejected copy of `name` starts, whichever built-in text it was.
    static func ejectHeaderPrefix(for name: String) -> String {
        "{{! ejected from scaffold-repo's built-in \(name) "
    }
}

/// Finds template text: the first override folder that has the file, else the built-in.
public struct TemplateSource: Sendable {
    /// Folders whose files override built-in templates of the same name, first match wins.
    public let overrideDirectories: [URL]
    /// The folder that the run's paths are relative to: messages name an override file from
    /// it, the same on every machine, as the run's other paths are.
    public let currentDirectory: URL?

    public init(overrideDirectories: [URL] = [], currentDirectory: URL? = nil) {
        self.overrideDirectories = overrideDirectories
        self.currentDirectory = currentDirectory
    }

    /// `file` as messages name it: relative to ``currentDirectory`` when it is below it.
    public func shown(_ file: URL) -> String {
        let path = file.standardizedFileURL.path
        guard let base = currentDirectory?.standardizedFileURL.path,
            path.hasPrefix(base.hasSuffix("/") ? base : base + "/")
        else { return path }
        return String(path.dropFirst(base.hasSuffix("/") ? base.count : base.count + 1))
    }

    /// The parsed template called `name` (for example `Model.swift.tmpl`).
    public func template(named name: String) throws -> Template {
        if let file = overrideFile(named: name) {
            guard let data = FileManager.default.contents(atPath: file.path),
                let text = String(data: data, encoding: .utf8)
            else {
                throw TemplateError(
                    template: shown(file), line: 0, message: "cannot be read as UTF-8 text")
            }
            return try Template(name: shown(file), text: text)
        }
        if let parsed = Self.parsedBuiltIns[name] { return parsed }
        guard let text = BuiltInTemplates.embedded[name] else {
            throw TemplateError(
                template: name, line: 0, message: "no built-in template of that name")
        }
        return try Template(name: "Templates/" + name, text: text)
    }

    /// Every built-in template that parses, parsed once per process (a test run renders
    /// thousands of files); one that does not is parsed again when asked for, to throw.
    private static let parsedBuiltIns: [String: Template] = BuiltInTemplates.embedded.reduce(
        into: [:]
    ) { parsed, entry in
        parsed[entry.key] = try? Template(name: "Templates/" + entry.key, text: entry.value)
    }

    /// The template called `name` rendered with `context`, its `{{> partial}}` tags read from
    /// this source too.
    public func render(_ name: String, _ context: [String: TemplateValue]) throws -> String {
        try template(named: name).render(context) { partial in
            let file = Template.partialFileName(partial)
            let exists = overrideFile(named: file) != nil || BuiltInTemplates.embedded[file] != nil
            return exists ? try template(named: file) : nil
        }
    }

    /// The override file used for `name`, if any.
    public func overrideFile(named name: String) -> URL? {
        overrideDirectories.lazy.map { $0.appendingPathComponent(name) }
            .first { FileManager.default.fileExists(atPath: $0.path) }
    }

    /// Whether the override for `name` was ejected from a built-in text that has changed since.
    public func isDrifted(_ name: String) -> Bool {
        guard let file = overrideFile(named: name),
            let data = FileManager.default.contents(atPath: file.path)
        else { return false }
        let firstLine = String(decoding: data.prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return firstLine.hasPrefix(BuiltInTemplates.ejectHeaderPrefix(for: name))
            && firstLine != BuiltInTemplates.ejectHeader(for: name)
    }

    /// Whether the override for `name` holds the built-in text unchanged (an ejected copy not
    /// yet edited), so that it changes nothing.
    public func isUneditedCopy(_ name: String) -> Bool {
        guard let file = overrideFile(named: name),
            let data = FileManager.default.contents(atPath: file.path),
            let builtIn = BuiltInTemplates.embedded[name]
        else { return false }
        let text = String(decoding: data, as: UTF8.self)
        let header = BuiltInTemplates.ejectHeader(for: name) + "\n"
        return (text.hasPrefix(header) ? String(text.dropFirst(header.count)) : text) == builtIn
    }

    /// Files in the override folders that match no built-in template, so are never used.
    public func unusedOverrides() -> [String] {
        overrideDirectories.flatMap { directory in
            let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
            // A partial of the person's own is used by the templates that include it.
            return names.filter { name in
                !name.hasPrefix(".") && BuiltInTemplates.embedded[name] == nil
                    && !name.hasSuffix(Template.partialFileName(""))
            }
            .sorted()
        }
    }

    /// What a run should tell the user about its templates, one line each.
    public func warnings() -> [Diagnostic] {
        let unused = unusedOverrides().map { name in
            let guess = BuiltInTemplates.likelyName(for: name)
            return Diagnostic.warning(
                "template file '\(name)' matches no template and was not used; "
                    + (guess.map { "did you mean \($0)? " } ?? "") + "the names are "
                    + BuiltInTemplates.names.joined(separator: ", "))
        }
        let drifted = BuiltInTemplates.names.filter(isDrifted).map { name in
            Diagnostic.warning(
                "\(overrideFile(named: name).map(shown) ?? name) was ejected from an older built-in "
                    + "\(name); compare it with 'scaffold-repo templates eject <new folder>'")
        }
        return unused + drifted
    }
}
