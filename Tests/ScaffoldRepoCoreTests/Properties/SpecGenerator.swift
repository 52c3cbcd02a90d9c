@testable import ScaffoldRepoCore

/// Random command lines for property tests: valid ones, and ones broken in exactly one way.
struct SpecGenerator {
    var random: SplitMix64

    static let modelWords = [
        "Question", "Task", "Person", "Category", "Box", "Status", "Index", "Value", "Record",
        "Cache", "File", "Order", "Message", "Photo", "URLLink", "UserID", "Leaf", "Child",
        "blog_post", "invoiceLine", "In", "Func", "Entry", "Sheep", "Quiz", "Analysis",
        "Repository", "Update", "Result",
    ]
    static let fieldWords = [
        "name", "title", "count", "value", "data", "default", "class", "in", "Type", "error",
        "number", "revision", "repository", "createdAt", "isDone", "tags", "score", "url",
        "status", "kind", "notes", "operator", "items", "owner",
    ]

    mutating func pick<T>(_ values: [T]) -> T {
        values[Int(random.next() % UInt64(values.count))]
    }

    mutating func chance(_ percent: UInt64) -> Bool {
        random.next() % 100 < percent
    }

    /// A random type spelling for field `name`, and a valid default for it (or nil).
    mutating func type(depth: Int = 0) -> (spelling: String, defaultValue: String?) {
        // Every type, so a new one is generated too (with the default its messages suggest,
        // until it gets one here).
        let defaults: [BaseType: String] = [
            .string: "hello", .int: "7", .int64: "-9", .double: "1.5", .float: "0.25",
            .bool: "true", .date: "0", .uuid: "6BA7B810-9DAD-11D1-80B4-00C04FD430C8",
            .url: "https://example.com/x", .decimal: "2.25", .data: "aGk=",
        ]
        let bases: [(String, String)] =
            BaseType.allCases.map { base in
                (base.rawValue, defaults[base] ?? ModelEvolution.exampleDefault(.base(base)))
            } + [("string", "x")]
        switch random.next() % (depth < 2 ? 10 : 6) {
        case 6:
            return ("[\(type(depth: depth + 1).spelling)]", "[]")
        case 7:
            return ("[String:\(type(depth: depth + 1).spelling)]", "[:]")
        case 8:
            return ("enum(alpha,beta,default)", pick(["alpha", "beta", "default"]))
        case 9:
            let wrapped = type(depth: depth + 1)
            if wrapped.spelling.hasSuffix("?") { return wrapped }
            return (wrapped.spelling + "?", chance(50) ? "nil" : wrapped.defaultValue)
        default:
            let base = pick(bases)
            return (base.0, base.1)
        }
    }

    /// A valid argument list (without any destination option).
    mutating func validArguments(modelName: String? = nil) -> [String] {
        var arguments = [modelName ?? pick(Self.modelWords)]
        arguments.append("id:" + pick(["String", "UUID", "Int"]))
        var used: Set<String> = ["id"]
        for _ in 0..<(random.next() % 7) {
            let name = pick(Self.fieldWords)
            guard used.insert(name).inserted else { continue }
            let (spelling, defaultValue) = type()
            var token = chance(15) && spelling == "String" ? name : "\(name):\(spelling)"
            if let defaultValue, chance(40) { token += "=\(defaultValue)" }
            arguments.append(token)
        }
        if chance(30) { arguments += ["--storage", "snapshot"] }
        return arguments
    }

    /// A valid argument list with exactly one thing made wrong.
    mutating func badArguments() -> [String] {
        var arguments = validArguments()
        let fieldIndex = arguments.firstIndex { $0.hasPrefix("id:") } ?? 1
        switch random.next() % 16 {
        case 0: arguments[0] = pick(["9Lives", "a-b", "../x", "", "Data", "self", "my model", "é"])
        case 1:
            arguments[fieldIndex] = pick(["id:Strng", "id:Double", "id:", "id:String?", "id:[Int]"])
        case 2: arguments.remove(at: fieldIndex)
        case 3: arguments.append(arguments[fieldIndex])
        case 4:
            arguments.append(pick(["2x:Int", "a-b:Int", ":Int", "hashValue:Int", "self", "x y"]))
        case 5:
            arguments.append(
                pick(["t:[", "t:[]", "t:]", "t:[Int:String]", "t:Int??", "t:enum(", "t:enum()"]))
        case 6:
            arguments.append(
                pick(["n:Int=abc", "b:Bool=maybe", "t:[String]=[x]", "d:Double=1e5.5", "u:UUID=x"]))
        case 7: arguments.append(pick(["--frobnicate", "-x", "--force=1", "--help=yes"]))
        case 8:
            arguments.append(pick(["--output", "--templates", "--into", "--target", "--storage"]))
        case 9: arguments += ["--storage", pick(["jornal", "sql", ""])]
        case 10: arguments += ["--into", "."]
        case 11: arguments += ["--target", "App"]
        case 12: arguments += ["--output", "a", "--output", "b"]
        case 13: arguments += ["--plural", pick(["in", "repository", "9s", "a-b", ""])]
        case 14: arguments.append("e:enum(a,a)")
        default:
            // Printable junk behind a digit, so its name is never an identifier.
            let junk = String(
                decoding: (0..<8).map { _ in UInt8(random.next() % 94 + 33) }, as: UTF8.self)
            arguments.append("9" + junk)
        }
        return arguments
    }
}
