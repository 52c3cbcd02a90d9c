/// The Swift expressions of a model's `samples` (debug builds only, for previews and an app's
/// own tests): values a person can read, made from a sample's number (1 to 5), the same on
/// every run.
enum PreviewSamples {
    /// The name of the sample's number in the expressions: `number`, unless a field has it.
    static func numberName(for spec: ModelSpec) -> String {
        ["number", "position", "sampleNumber", "sampleIndex"].first { name in
            !spec.fields.contains { $0.name == name }
        } ?? "n"
    }

    /// The expression for `field` of a `model` sample; `isFirstText` marks the first `String`
    /// field that is not the id, which reads as the model's name and number ("Question 1").
    static func expression(
        for field: Field, model: String, variable: String, isFirstText: Bool, number: String
    ) -> String {
        // The id of one of the referred model's own samples, which previews show beside these.
        if let reference = field.reference {
            return
                "\(reference.model).samples[(\(number) - 1) % \(reference.model).samples.count].id"
        }
        if field.name == "id" {
            switch field.type {
            case .base(.string): return "\"\(variable)-\\(\(number))\""
            default: break
            }
        }
        let words = isFirstText ? model : words(field.name)
        return value(field.type, words: words, model: model, number: number)
    }

    private static func value(
        _ type: FieldType, words: String, model: String, number: String
    ) -> String {
        let inner = { (type: FieldType) in value(type, words: words, model: model, number: number) }
        switch type {
        case .optional(let wrapped): return inner(wrapped)
        case .array(let element): return "[\(inner(element))]"
        case .dictionary(let element):
            return "[\"\(words) \\(\(number))\": \(inner(element))]"
        case .enumeration(let name, _):
            return "\(name).allCases[(\(number) - 1) % \(name).allCases.count]"
        case .base(let base): return base.row.sample(words, number)
        }
    }

    /// `createdAt` as `Created at`.
    private static func words(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty {
                result += " " + character.lowercased()
            } else {
                result.append(result.isEmpty ? Character(character.uppercased()) : character)
            }
        }
        return result
    }
}
