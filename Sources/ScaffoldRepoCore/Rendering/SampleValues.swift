/// Swift expressions for test data, so generated tests can build distinct, repeatable models.
///
/// Each expression reads the `Int` parameters `number` (which item) and `revision` (which
/// version of it); `id` expressions read only `number`, so revisions keep the same id.
enum SampleValues {
    static func expression(for type: FieldType, fieldName: String, isID: Bool) -> String {
        let seed = isID ? "number" : "number * 1_000 + revision"
        switch type {
        case .optional(let wrapped):
            return expression(for: wrapped, fieldName: fieldName, isID: isID)
        case .base(let base):
            switch base {
            case .string:
                return isID
                    ? #""\#(fieldName)-\(number)""# : #""\#(fieldName)-\(number)-\(revision)""#
            case .int: return seed
            case .double: return "Double(\(seed)) + 0.5"
            case .bool: return "(\(seed)) % 2 == 0"
            case .date: return "Date(timeIntervalSince1970: Double(\(seed)))"
            case .uuid: return "sampleUUID(\(seed))"
            case .url: return #"URL(fileURLWithPath: "/\#(fieldName)/\(number)/\(revision)")"#
            }
        }
    }
}
