/// What the user asked for: one model type and its stored fields, checked and normalized.
public struct ModelSpec: Equatable, Sendable {
    /// The model's type name, for example `Question`.
    public var typeName: String
    /// The fields in the order given; exactly one is named `id`.
    public var fields: [Field]
    /// The plural variable name from `--plural`, when the English rules get it wrong.
    public var plural: String?

    public init(typeName: String, fields: [Field], plural: String? = nil) {
        self.typeName = typeName
        self.fields = fields
        self.plural = plural
    }

    /// The `id` field that makes the model `Identifiable`.
    public var idField: Field? { fields.first { $0.name == "id" } }
}

/// One stored property of a model.
public struct Field: Equatable, Sendable {
    /// The property name and JSON key, as given (`default`, not `` `default` ``).
    public var name: String
    public var type: FieldType
    /// The value a missing JSON key and a missing init argument take.
    public var defaultValue: DefaultValue?
    /// The name the field had before `--rename`: stored values under that JSON key are read
    /// into this field.
    public var formerName: String?
    /// The model whose id the field holds (`folder:references(Folder,cascade)`), and what
    /// deleting one of its values does to this model's: the field is `folderID`, of the type
    /// of `Folder`'s id.
    public var reference: Reference?
    /// `:unique` or `:index`: the sqlite table keeps an index on the field.
    public var index: FieldIndex?

    public init(
        name: String, type: FieldType, defaultValue: DefaultValue? = nil, formerName: String? = nil,
        reference: Reference? = nil, index: FieldIndex? = nil
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.formerName = formerName
        self.reference = reference
        self.index = index
    }

    /// After `--rename`, the JSON key a stored value holds beside both keys of the field when
    /// the model wrote it under both (`title>headline`): where they differ beside it, a build
    /// from before the rename changed the former one since. Nil for a reference, written under
    /// its new key only: an older build's delete rules follow the new key, and would not see
    /// such a change.
    public var renameMark: String? {
        guard reference == nil else { return nil }
        return formerName.map { "\($0)>\(name)" }
    }

    /// The type in the model's Swift: a reference is spelled as the id of the model it refers
    /// to (`Folder.ID`, `Folder.ID?`).
    public var swiftType: String {
        guard let reference else { return type.swiftSpelling }
        return reference.model + ".ID" + (type.isOptional ? "?" : "")
    }

    /// ``swiftType`` without its outer `?`.
    var unwrappedSwiftType: String {
        let type = swiftType
        return type.hasSuffix("?") ? String(type.dropLast()) : type
    }

    /// Whether the sqlite table keeps an index on the field: a reference, `:index` or `:unique`.
    public var isIndexed: Bool { reference != nil || index != nil }
}

/// A field that holds the id of a value of another model of the same module.
public struct Reference: Equatable, Sendable {
    /// The model referred to, such as `Folder`.
    public var model: String
    public var rule: DeleteRule

    public init(model: String, rule: DeleteRule = .restrict) {
        self.model = model
        self.rule = rule
    }
}

/// What deleting a value does to the values that refer to it.
public enum DeleteRule: String, CaseIterable, Sendable {
    /// They are deleted too, in the same transaction.
    case cascade
    /// Their reference becomes nil (the field must be optional).
    case nullify
    /// The delete throws while any value refers to it: the default.
    case restrict
}

/// An index a field asks for with a modifier.
public enum FieldIndex: String, CaseIterable, Sendable {
    /// `:index`: lookups and sorts on the field read an index.
    case index
    /// `:unique`: an index, and no two values may hold the same value (nil apart).
    case unique
}

/// The type of a field.
public indirect enum FieldType: Equatable, Sendable {
    case base(BaseType)
    case optional(FieldType)
    case array(FieldType)
    /// A dictionary with `String` keys.
    case dictionary(FieldType)
    /// A nested `String`-backed enum, named after its field (`status` → `Status`).
    case enumeration(name: String, cases: [String])

    /// Whether a value may be missing (`nil`).
    public var isOptional: Bool {
        if case .optional = self { return true }
        return false
    }

    /// How the type is written in Swift inside the model, for example `[String: Int]?`.
    public var swiftSpelling: String {
        spelling(enumPrefix: "")
    }

    /// How the type is written with nested enums qualified, for example `Question.Status`.
    func spelling(enumPrefix: String) -> String {
        switch self {
        case .base(let base): base.rawValue
        case .optional(let wrapped): wrapped.spelling(enumPrefix: enumPrefix) + "?"
        case .array(let element): "[\(element.spelling(enumPrefix: enumPrefix))]"
        case .dictionary(let value): "[String: \(value.spelling(enumPrefix: enumPrefix))]"
        case .enumeration(let name, _): enumPrefix + name
        }
    }

    /// Whether this is a nested enum.
    var isEnumeration: Bool {
        if case .enumeration = self { return true }
        return false
    }

    /// The same type with its nested enum named `name`.
    /// The cases, when this is an enum.
    var enumCases: [String] {
        if case .enumeration(_, let cases) = self { return cases }
        return []
    }

    func renamingEnum(to name: String) -> FieldType {
        switch self {
        case .base: self
        case .enumeration(_, let cases): .enumeration(name: name, cases: cases)
        case .optional(let inner): .optional(inner.renamingEnum(to: name))
        case .array(let inner): .array(inner.renamingEnum(to: name))
        case .dictionary(let inner): .dictionary(inner.renamingEnum(to: name))
        }
    }

    /// Whether it is a dictionary, or an optional one.
    var isDictionary: Bool {
        switch self {
        case .dictionary: true
        case .optional(let wrapped): wrapped.isDictionary
        default: false
        }
    }

    /// Every type this one is made of, itself included.
    var allTypes: [FieldType] {
        switch self {
        case .base, .enumeration: [self]
        case .optional(let inner), .array(let inner), .dictionary(let inner):
            [self] + inner.allTypes
        }
    }
}

/// A field's default, checked against its type when parsed.
public enum DefaultValue: Equatable, Sendable {
    case none  // `nil`
    case bool(Bool)
    /// A whole or decimal number, in a spelling Swift accepts.
    case number(String)
    case string(String)
    case emptyCollection
    case enumCase(String)
    /// A UUID, URL or base64 `Data`, checked when parsed.
    case parsed(String)
}
