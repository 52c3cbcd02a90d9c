// Turns the files in Templates/ into a Swift source file, so that the built `scaffold-repo`
// executable carries its templates and works when copied alone to another folder.
//
// Usage: TemplateEmbedder <templates-dir> <output.swift>

import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(
        Data("usage: TemplateEmbedder <templates-dir> <output.swift>\n".utf8))
    exit(2)
}
let templatesDirectory = URL(fileURLWithPath: arguments[1], isDirectory: true)
let outputFile = URL(fileURLWithPath: arguments[2])

let names = try FileManager.default.contentsOfDirectory(atPath: templatesDirectory.path)
    .filter { !$0.hasPrefix(".") }
    .sorted()

var source = """
    // Generated at build time from Templates/ by the EmbedTemplates plugin. Do not edit.

    extension BuiltInTemplates {
        /// The text of every file in Templates/, keyed by file name.
        static let embedded: [String: String] = [

    """
for name in names {
    let text = try String(
        contentsOf: templatesDirectory.appendingPathComponent(name), encoding: .utf8)
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
