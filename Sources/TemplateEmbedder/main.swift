// Turns the templates into a Swift source file, so that the built `scaffold-repo` executable
// carries them and works when copied alone to another folder: every file of Templates/, and
// the store's engine, whose Swift files (Sources/StoreEngine, Sources/StoreEngineTestSupport)
// the package compiles and tests as they are and the generator writes as they are, each under
// the template name `<file>.tmpl`.
//
// Usage: TemplateEmbedder <output.swift> <file>...
//   A file in a folder named Templates is embedded under its own name; any other (an engine's
//   Swift file) under `<name>.tmpl`.

import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: TemplateEmbedder <output.swift> <file>...\n".utf8))
    exit(2)
}
let outputFile = URL(fileURLWithPath: arguments[1])
let templates = arguments.dropFirst(2).map { path -> (name: String, url: URL) in
    let url = URL(fileURLWithPath: path)
    let isTemplate = url.deletingLastPathComponent().lastPathComponent == "Templates"
    return (url.lastPathComponent + (isTemplate ? "" : ".tmpl"), url)
}
.sorted { $0.name < $1.name }

var source = """
    // Generated at build time from Templates/ and the engine's sources by the EmbedTemplates
    // plugin. Do not edit.

    extension BuiltInTemplates {
        /// The text of every template, keyed by its name.
        static let embedded: [String: String] = [

    """
for (name, url) in templates {
    let text = try String(contentsOf: url, encoding: .utf8)
    // A raw string with enough `#` signs that no sequence in the template can end it.
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    source += "        \(name.debugDescription): \(hashes)\"\"\"\n"
    source += text.split(separator: "\n", omittingEmptySubsequences: false)
        .map { $0.isEmpty ? "" : "        " + $0 }
        .joined(separator: "\n")
    source += "\n        \"\"\"\(hashes),\n"
}
source += "    ]\n}\n"
try Data(source.utf8).write(to: outputFile, options: .atomic)
