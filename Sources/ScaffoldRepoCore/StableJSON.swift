import Foundation

/// The one JSON form the generator writes (the manifest, and the reports of `--json`): pretty,
/// keys sorted, slashes as they are; the same value gives the same bytes on every machine.
enum StableJSON {
    /// `value` as that JSON, with a final newline.
    static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }
}
