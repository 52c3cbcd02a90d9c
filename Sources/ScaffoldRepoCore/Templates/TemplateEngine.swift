/// A small logic-less template language, so that generated text lives in `Templates/` only.
///
/// - `{{ name }}` or `{{ id.name }}` inserts a text value; a missing name is an error.
/// - `{{#each fields}} … {{/each}}` repeats its body for each object in a list; inside, the item's
///   names come first, then `isFirst` and `isLast`, then the outer names.
/// - `{{#if flag}} … {{else}} … {{/if}}` and `{{#unless flag}} … {{/unless}}` choose text.
/// - `{{! note }}` is a comment and renders nothing.
/// - `{{> name}}` renders the partial `name` (the file `name.partial.tmpl`) in place, with the
///   same names in scope, so text that two templates share is written once.
///
/// A line that holds nothing but one block tag (`#`, `/`, `else`, `!`, `>`) and white space
/// renders as nothing at all, newline included, so templates can put each tag on its own line;
/// a partial's own lines then stand in for it.
public struct Template: Sendable {
    /// The name used in error messages, usually the template's file name.
    public let name: String
    private let nodes: [Node]

    /// Parses `text`, throwing a `TemplateError` that names the line of any malformed tag.
    public init(name: String, text: String) throws {
        self.name = name
        var parser = Parser(templateName: name, tokens: try Self.tokenize(text, templateName: name))
        self.nodes = try parser.parseAll()
    }

    /// The file name that holds the partial `name`.
    public static func partialFileName(_ name: String) -> String { name + ".partial.tmpl" }

    /// Renders the template with `context` as the outermost scope; `partials` finds the template
    /// for a `{{> name}}` tag, returning nil for a name it does not have.
    public func render(
        _ context: [String: TemplateValue],
        partials: (String) throws -> Template? = { _ in nil }
    ) throws -> String {
        var output = ""
        try render(nodes, scopes: [context], partials: partials, depth: 0, into: &output)
        return output
    }

    // MARK: - Syntax tree

    private enum Node: Sendable {
        case text(String)
        case variable(path: String, line: Int)
        case section(Section)
        case partial(name: String, line: Int)
    }

    private struct Section: Sendable {
        var kind: SectionKind
        var path: String
        var line: Int
        var body: [Node]
        var otherwise: [Node]
    }

    private enum SectionKind: String, Sendable {
        case each, `if`, unless
    }

    private enum Token: Equatable {
        case text(String)
        case variable(String, line: Int)
        case partial(String, line: Int)
        case open(kind: SectionKind, path: String, line: Int)
        case otherwise(line: Int)
        case close(kind: String, line: Int)
    }

    // MARK: - Tokenizing

    private static func tokenize(_ text: String, templateName: String) throws -> [Token] {
        var tokens: [Token] = []
        var pendingText = ""
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            let lineNumber = index + 1
            let isLastLine = index == lines.count - 1
            let trimmed = line.trimmingWhiteSpace()
            if let tag = standaloneTag(trimmed) {
                if let token = try classify(tag, line: lineNumber, templateName: templateName) {
                    flush(&pendingText, into: &tokens)
                    tokens.append(token)
                }
                continue
            }
            var rest = Substring(line)
            while let start = rest.range(of: "{{") {
                pendingText += rest[..<start.lowerBound]
                guard let end = rest[start.upperBound...].range(of: "}}") else {
                    throw TemplateError(
                        template: templateName, line: lineNumber,
                        message: "'{{' is never closed by '}}'")
                }
                let tag = String(rest[start.upperBound..<end.lowerBound])
                if let token = try classify(tag, line: lineNumber, templateName: templateName) {
                    flush(&pendingText, into: &tokens)
                    tokens.append(token)
                }
                rest = rest[end.upperBound...]
            }
            pendingText += rest
            if !isLastLine { pendingText += "\n" }
        }
        flush(&pendingText, into: &tokens)
        return tokens
    }

    /// The inside of a block tag that stands alone on its line, or nil.
    private static func standaloneTag(_ trimmedLine: Substring) -> String? {
        guard trimmedLine.hasPrefix("{{"), trimmedLine.hasSuffix("}}"), trimmedLine.count >= 4
        else { return nil }
        let inside = trimmedLine.dropFirst(2).dropLast(2)
        guard !inside.contains("{{"), !inside.contains("}}") else { return nil }
        let word = inside.trimmingWhiteSpace()
        let isBlock =
            word.hasPrefix("#") || word.hasPrefix("/") || word.hasPrefix("!") || word.hasPrefix(">")
            || word == "else"
        return isBlock ? String(inside) : nil
    }

    private static func flush(_ text: inout String, into tokens: inout [Token]) {
        if !text.isEmpty { tokens.append(.text(text)) }
        text = ""
    }

    /// Turns the inside of `{{ … }}` into a token; comments give nil.
    private static func classify(_ tag: String, line: Int, templateName: String) throws -> Token? {
        let word = tag.trimmingWhiteSpace()
        let fail = { (message: String) in
            TemplateError(template: templateName, line: line, message: message)
        }
        if word.hasPrefix("!") { return nil }
        if word == "else" { return .otherwise(line: line) }
        if word.hasPrefix(">") {
            let partial = word.dropFirst().trimmingWhiteSpace()
            guard !partial.isEmpty, partial.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
            else {
                throw fail(
                    "'{{\(word)}}' must be '{{> name}}', a partial's name in letters and digits")
            }
            return .partial(String(partial), line: line)
        }
        if word.hasPrefix("#") {
            let parts = word.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count == 2, let kind = SectionKind(rawValue: String(parts[0])) else {
                throw fail(
                    "'{{\(word)}}' must be '{{#each name}}', '{{#if name}}' or '{{#unless name}}'")
            }
            return .open(kind: kind, path: String(parts[1]), line: line)
        }
        if word.hasPrefix("/") {
            return .close(kind: String(word.dropFirst().trimmingWhiteSpace()), line: line)
        }
        guard !word.isEmpty,
            word.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
        else {
            throw fail("'{{\(tag)}}' is not a name; names are letters, digits, '_' and '.'")
        }
        return .variable(String(word), line: line)
    }

    // MARK: - Parsing

    private struct Parser {
        let templateName: String
        let tokens: [Token]
        var position = 0

        init(templateName: String, tokens: [Token]) {
            self.templateName = templateName
            self.tokens = tokens
        }

        mutating func parseAll() throws -> [Node] {
            let (nodes, end) = try parseNodes(until: nil)
            if case .otherwise(let line) = end {
                throw TemplateError(
                    template: templateName, line: line, message: "'{{else}}' outside '{{#if}}'")
            }
            return nodes
        }

        /// Parses nodes up to the closing tag of `open` (or the end of the template when nil),
        /// returning the terminating token.
        private mutating func parseNodes(until open: (kind: String, line: Int)?) throws -> (
            [Node], Token?
        ) {
            var nodes: [Node] = []
            while position < tokens.count {
                let token = tokens[position]
                position += 1
                switch token {
                case .text(let text):
                    nodes.append(.text(text))
                case .variable(let path, let line):
                    nodes.append(.variable(path: path, line: line))
                case .partial(let name, let line):
                    nodes.append(.partial(name: name, line: line))
                case .open(let kind, let path, let line):
                    nodes.append(.section(try parseSection(kind: kind, path: path, line: line)))
                case .otherwise:
                    return (nodes, token)
                case .close(let kind, let line):
                    guard let open else {
                        throw TemplateError(
                            template: templateName, line: line,
                            message: "'{{/\(kind)}}' closes nothing")
                    }
                    guard open.kind == kind else {
                        throw TemplateError(
                            template: templateName, line: line,
                            message:
                                "'{{/\(kind)}}' closes '{{#\(open.kind)}}' from line \(open.line)")
                    }
                    return (nodes, token)
                }
            }
            if let open {
                throw TemplateError(
                    template: templateName, line: open.line,
                    message: "'{{#\(open.kind)}}' is never closed; add '{{/\(open.kind)}}'")
            }
            return (nodes, nil)
        }

        private mutating func parseSection(
            kind sectionKind: SectionKind, path: String, line: Int
        ) throws -> Section {
            let kind = sectionKind.rawValue
            let (body, end) = try parseNodes(until: (kind, line))
            var otherwise: [Node] = []
            if case .otherwise(let elseLine) = end {
                guard sectionKind != .each else {
                    throw TemplateError(
                        template: templateName, line: elseLine,
                        message: "'{{else}}' is not allowed inside '{{#each}}'")
                }
                let (elseBody, elseEnd) = try parseNodes(until: (kind, line))
                if case .otherwise(let secondElse) = elseEnd {
                    throw TemplateError(
                        template: templateName, line: secondElse, message: "a second '{{else}}'")
                }
                otherwise = elseBody
            }
            return Section(
                kind: sectionKind, path: path, line: line, body: body, otherwise: otherwise)
        }
    }

    // MARK: - Rendering

    /// More nested partials than this means that partials include each other.
    private static let maximumPartialDepth = 16

    private func render(
        _ nodes: [Node], scopes: [[String: TemplateValue]], partials: (String) throws -> Template?,
        depth: Int,
        into output: inout String
    ) throws {
        for node in nodes {
            switch node {
            case .text(let text):
                output += text
            case .variable(let path, let line):
                switch try lookup(path, in: scopes, line: line) {
                case .text(let text):
                    output += text
                default:
                    throw TemplateError(
                        template: name, line: line,
                        message: "'\(path)' is not text and cannot be inserted")
                }
            case .section(let section):
                try render(section, scopes: scopes, partials: partials, depth: depth, into: &output)
            case .partial(let partialName, let line):
                guard let partial = try partials(partialName) else {
                    throw TemplateError(
                        template: name, line: line,
                        message:
                            "no partial '\(partialName)'; add \(Self.partialFileName(partialName))")
                }
                guard depth < Self.maximumPartialDepth else {
                    throw TemplateError(
                        template: name, line: line,
                        message: "partial '\(partialName)' includes itself, directly or not")
                }
                try partial.render(
                    partial.nodes, scopes: scopes, partials: partials, depth: depth + 1,
                    into: &output)
            }
        }
    }

    private func render(
        _ section: Section, scopes: [[String: TemplateValue]],
        partials: (String) throws -> Template?,
        depth: Int,
        into output: inout String
    ) throws {
        let value = try lookup(section.path, in: scopes, line: section.line)
        switch section.kind {
        case .if:
            try render(
                value.isTruthy ? section.body : section.otherwise, scopes: scopes,
                partials: partials, depth: depth, into: &output)
        case .unless:
            try render(
                value.isTruthy ? section.otherwise : section.body, scopes: scopes,
                partials: partials, depth: depth, into: &output)
        case .each:
            guard case .list(let items) = value else {
                throw TemplateError(
                    template: name, line: section.line,
                    message: "'{{#each \(section.path)}}' needs a list")
            }
            for (index, item) in items.enumerated() {
                var scope: [String: TemplateValue] = [
                    "isFirst": .flag(index == 0), "isLast": .flag(index == items.count - 1),
                ]
                if case .object(let names) = item {
                    scope.merge(names) { _, itemValue in itemValue }
                }
                try render(
                    section.body, scopes: scopes + [scope], partials: partials, depth: depth,
                    into: &output)
            }
        }
    }

    private func lookup(_ path: String, in scopes: [[String: TemplateValue]], line: Int) throws
        -> TemplateValue
    {
        let parts = path.split(separator: ".").map(String.init)
        guard let first = parts.first,
            var value = scopes.reversed().lazy.compactMap({ $0[first] }).first
        else {
            throw TemplateError(template: name, line: line, message: "unknown name '\(path)'")
        }
        for part in parts.dropFirst() {
            guard case .object(let names) = value, let next = names[part] else {
                throw TemplateError(template: name, line: line, message: "unknown name '\(path)'")
            }
            value = next
        }
        return value
    }
}

/// A malformed template, or one that asks for a name its context lacks.
public struct TemplateError: Error, Equatable, CustomStringConvertible {
    public let template: String
    public let line: Int
    /// What is wrong at that line.
    public let problem: String

    init(template: String, line: Int, message: String) {
        self.template = template
        self.line = line
        self.problem = message
    }

    public var description: String { "\(template):\(line): \(problem)" }
}

extension TemplateError: BadInput {
    public var message: String {
        "template \(template):\(line): \(self.problem); fix the template, or remove it to use the "
            + "built-in one"
    }
}

extension String {
    /// The text's lines, split at each `\n` byte (a `\r` before it stays in its line): as
    /// `split(separator: "\n", omittingEmptySubsequences: false)` for text with LF line ends,
    /// without reading it Character by Character.
    var lineSlices: [Substring] {
        utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map {
            Substring($0)
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    func trimmingWhiteSpace() -> SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isBlank($0) }),
            let end = lastIndex(where: { !isBlank($0) })
        else { return self[endIndex...] }
        return self[start...end]
    }
}
