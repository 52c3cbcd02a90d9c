/// Every spelling of a model's name that generated code and file paths use, from one place.
public struct Names: Equatable, Sendable {
    /// The model type, `Question`.
    public let type: String
    /// A variable holding one model, `question`.
    public let variable: String
    /// A variable holding many, `questions`.
    public let pluralVariable: String

    public init(typeName: String) {
        type = typeName
        variable = Self.lowerCamelCase(typeName)
        pluralVariable = Self.plural(of: variable)
    }

    /// The repository actor, `QuestionRepository`.
    public var repository: String { type + "Repository" }
    /// The repository's error type, `QuestionRepositoryError`.
    public var repositoryError: String { type + "RepositoryError" }
    /// The list view-model, `QuestionListViewModel`.
    public var listViewModel: String { type + "ListViewModel" }
    /// The standalone package and its library module, `QuestionStore`.
    public var storePackage: String { type + "Store" }
    /// The namespace of the test helpers, `QuestionTestSupport`.
    public var testSupport: String { type + "TestSupport" }
    /// The JSON file of the snapshot store, `questions.json`.
    public var storeFileName: String { pluralVariable + ".json" }
    /// The journal store's snapshot, `questions.snapshot.json`.
    public var snapshotFileName: String { pluralVariable + ".snapshot.json" }
    /// The journal store's journal, `questions.journal`.
    public var journalFileName: String { pluralVariable + ".journal" }
    /// The journal store's lock file, `questions.lock`.
    public var lockFileName: String { pluralVariable + ".lock" }

    /// `Question` → `question`, `URLLink` → `urlLink`, `ID` → `id`.
    static func lowerCamelCase(_ name: String) -> String {
        let characters = Array(name)
        let upperRun = characters.prefix { $0.isUppercase }.count
        switch upperRun {
        case 0:
            return name
        case characters.count, 1:
            return name.prefix(upperRun).lowercased() + name.dropFirst(upperRun)
        default:
            // Keep the last capital of an acronym run: it starts the next word.
            let lowered = upperRun - 1
            return name.prefix(lowered).lowercased() + name.dropFirst(lowered)
        }
    }

    /// A plain English plural of the last word: `category` → `categories`, `box` → `boxes`.
    static func plural(of word: String) -> String {
        let lower = word.lowercased()
        let vowels: Set<Character> = ["a", "e", "i", "o", "u"]
        if lower.hasSuffix("y"), let beforeY = lower.dropLast().last, !vowels.contains(beforeY) {
            return word.dropLast() + "ies"
        }
        if ["s", "x", "z", "ch", "sh"].contains(where: { lower.hasSuffix($0) }) {
            return word + "es"
        }
        return word + "s"
    }
}
