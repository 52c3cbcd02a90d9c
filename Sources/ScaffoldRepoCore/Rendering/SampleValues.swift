/// Swift expressions for test data, so generated tests can build distinct, repeatable models.
///
/// Each expression reads the `Int` parameters `number` (which value) and `revision` (which
/// version of it); `id` expressions read only `number`, so revisions keep the same id.
enum SampleValues {
    static func expression(for field: Field, model: String) -> String {
        expression(for: field.type, name: field.name, isID: field.name == "id", model: model)
    }

    private static func expression(
        for type: FieldType, name: String, isID: Bool, model: String
    ) -> String {
        let seed = isID ? "number" : "number * 1_000 + revision"
        switch type {
        case .optional(let wrapped):
            return expression(for: wrapped, name: name, isID: isID, model: model)
        case .array(let element):
            return "[\(expression(for: element, name: name, isID: isID, model: model))]"
        case .dictionary(let value):
            let key = #""\#(name)-\(number)""#
            return "[\(key): \(expression(for: value, name: name, isID: isID, model: model))]"
        case .enumeration(let enumName, let cases):
            return "\(model).\(enumName).allCases[(\(seed)) % \(cases.count)]"
        case .base(let base):
            switch base {
            case .string:
                return isID ? #""\#(name)-\(number)""# : #""\#(name)-\(number)-\(revision)""#
            case .int: return seed
            case .int64: return "Int64(\(seed))"
            case .double: return "Double(\(seed)) + 0.5"
            case .float: return "Float(\(seed)) + 0.5"
            case .decimal: return "Decimal(\(seed)) + Decimal(1) / Decimal(4)"
            case .bool: return "(\(seed)) % 2 == 0"
            case .date: return "Date(timeIntervalSince1970: Double(\(seed)))"
            case .uuid: return "sampleUUID(\(seed))"
            case .url: return #"URL(fileURLWithPath: "/\#(name)/\(number)/\(revision)")"#
            case .data: return #"Data("\#(name)-\(number)-\(revision)".utf8)"#
            }
        }
    }
}
