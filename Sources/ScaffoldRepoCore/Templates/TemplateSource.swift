import Foundation

/// The built-in templates, embedded into the binary at build time from `Templates/`.
public enum BuiltInTemplates {
    /// The built-in template names, sorted.
    public static var names: [String] { embedded.keys.sorted() }

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

    public init(overrideDirectories: [URL] = []) {
        self.overrideDirectories = overrideDirectories
    }

    /// The parsed template called `name` (for example `Model.swift.tmpl`).
    public func template(named name: String) throws -> Template {
        if let file = overrideFile(named: name) {
            guard let data = FileManager.default.contents(atPath: file.path),
                let text = String(data: data, encoding: .utf8)
            else {
                throw TemplateError(
                    template: file.path, line: 0, message: "cannot be read as UTF-8 text")
            }
            return try Template(name: file.path, text: text)
        }
        guard let text = BuiltInTemplates.embedded[name] else {
            throw TemplateError(
                template: name, line: 0, message: "no built-in template of that name")
        }
        return try Template(name: "Templates/" + name, text: text)
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
            Diagnostic.warning(
                "template file '\(name)' matches no template and was not used; the names are "
                    + BuiltInTemplates.names.joined(separator: ", "))
        }
        let drifted = BuiltInTemplates.names.filter(isDrifted).map { name in
            Diagnostic.warning(
                "\(overrideFile(named: name)?.path ?? name) was ejected from an older built-in "
                    + "\(name); compare it with 'scaffold-repo templates eject <new folder>'")
        }
        return unused + drifted
    }
}
