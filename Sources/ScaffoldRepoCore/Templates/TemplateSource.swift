import Foundation

/// The built-in templates, embedded into the binary at build time from `Templates/`.
public enum BuiltInTemplates {
    /// The built-in template names, sorted.
    public static var names: [String] { embedded.keys.sorted() }
}

/// Finds template text: a file in the override folder when there is one, else the built-in.
public struct TemplateSource: Sendable {
    /// The `--templates` folder, if any.
    public let overrideDirectory: URL?

    public init(overrideDirectory: URL? = nil) {
        self.overrideDirectory = overrideDirectory
    }

    /// Files in the override folder that match no built-in template, so are never used.
    public func unusedOverrides() -> [String] {
        guard let overrideDirectory,
            let names = try? FileManager.default.contentsOfDirectory(atPath: overrideDirectory.path)
        else { return [] }
        return names.filter { !$0.hasPrefix(".") && BuiltInTemplates.embedded[$0] == nil }.sorted()
    }

    /// The parsed template called `name` (for example `Model.swift.tmpl`).
    public func template(named name: String) throws -> Template {
        if let overrideDirectory {
            let file = overrideDirectory.appendingPathComponent(name)
            if FileManager.default.fileExists(atPath: file.path) {
                guard let data = FileManager.default.contents(atPath: file.path),
                    let text = String(data: data, encoding: .utf8)
                else {
                    throw UsageError(
                        "cannot read template \(file.path) as UTF-8 text; fix or remove it")
                }
                return try Template(name: file.path, text: text)
            }
        }
        guard let text = BuiltInTemplates.embedded[name] else {
            throw TemplateError(
                template: name, line: 0, message: "no built-in template of that name")
        }
        return try Template(name: "Templates/" + name, text: text)
    }
}
