/// What the user asked for: one model type and its stored fields, checked and normalized.
public struct ModelSpec: Equatable, Sendable {
    /// The model's type name, for example `Question`.
    public var typeName: String
    /// The fields in the order given; exactly one is named `id`.
    public var fields: [Field]

    public init(typeName: String, fields: [Field]) {
        self.typeName = typeName
        self.fields = fields
    }

    /// The `id` field that makes the model `Identifiable`.
    public var idField: Field? { fields.first { $0.name == "id" } }
}

/// One stored property of a model.
public struct Field: Equatable, Sendable {
    public var name: String
    public var type: FieldType

    public init(name: String, type: FieldType) {
        self.name = name
        self.type = type
    }
}

/// The type of a field: a supported base type, or an optional of one.
public indirect enum FieldType: Equatable, Sendable {
    case base(BaseType)
    case optional(FieldType)

    /// Whether a value may be missing (`nil`).
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// How the type is written in Swift, for example `String?`.
    public var swiftSpelling: String {
        switch self {
        case .base(let base): base.rawValue
        case .optional(let wrapped): wrapped.swiftSpelling + "?"
        }
    }
}

/// The field types the generator knows how to store and test.
public enum BaseType: String, CaseIterable, Sendable {
    case string = "String"
    case int = "Int"
    case double = "Double"
    case bool = "Bool"
    case date = "Date"
    case uuid = "UUID"
    case url = "URL"

    /// The types an `id` field may have: they are `Hashable`, and their values sort and print.
    public static let idTypes: [BaseType] = [.string, .uuid, .int]
}
