import Foundation
import Testing

/// The README stays one short page and Documentation/ holds the rest: README.md has at most 300
/// lines and links every page of Documentation/, and every relative link in README.md, in
/// Documentation/*.md and in each README.md under Examples/ reaches a file or folder that exists,
/// and, when it names an `#anchor`, a heading of its page that GitHub gives that anchor.
@Suite struct DocumentationTests {
    /// README.md, each page of Documentation/ and each README.md under Examples/ (outside hidden
    /// folders such as `.build`), relative to the repository's root.
    static let pages: [String] = {
        let root = TestPaths.repositoryRoot
        let documentation =
            (try? TestPaths.files(below: root.appendingPathComponent("Documentation"))) ?? []
        let examples = (try? TestPaths.files(below: root.appendingPathComponent("Examples"))) ?? []
        return ["README.md"]
            + documentation.filter { !$0.contains("/") && $0.hasSuffix(".md") }
            .map { "Documentation/\($0)" }
            + examples.filter { path in
                let components = path.split(separator: "/")
                return components.last == "README.md"
                    && !components.contains { $0.hasPrefix(".") }
            }
            .map { "Examples/\($0)" }
    }()

    @Test func theReadmeHasAtMost300Lines() throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("README.md")))
        let lines = readme.utf8.filter { $0 == UInt8(ascii: "\n") }.count

        #expect(lines <= 300, "README.md has \(lines) lines: move a section to Documentation/")
    }

    @Test func theDocumentationFolderHasItsPagesAndTheReadmeLinksEach() throws {
        let readme = try #require(
            TestPaths.text(TestPaths.repositoryRoot.appendingPathComponent("README.md")))
        let documentation = Self.pages.filter { $0.hasPrefix("Documentation/") }

        #expect(documentation.count >= 4, "Documentation/ has \(documentation.count) pages")
        for page in documentation {
            #expect(readme.contains("](\(page))"), "README.md does not link \(page)")
        }
    }

    @Test(arguments: pages)
    func everyRelativeLinkOfAPageResolves(page: String) throws {
        let url = TestPaths.repositoryRoot.appendingPathComponent(page)
        let text = try #require(TestPaths.text(url), "\(page) cannot be read")
        let prose = Self.withoutCodeSpans(Self.withoutFencedCode(text))
        let folder = url.deletingLastPathComponent()

        for match in prose.matches(of: /\[[^\[\]]*\]\(([^()\s]+)(?:\s+"[^"]*")?\)/) {
            let target = String(match.output.1)
            let lowercased = target.lowercased()
            if ["http:", "https:", "mailto:"].contains(where: { lowercased.hasPrefix($0) }) {
                continue
            }
            let line = prose[..<match.range.lowerBound].filter { $0 == "\n" }.count + 1
            let link = "\(page):\(line) links to \(target)"
            let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            let path = String(parts[0]).removingPercentEncoding ?? String(parts[0])
            let anchor = parts.count > 1 ? String(parts[1]) : ""
            let destination =
                path.isEmpty ? url : folder.appendingPathComponent(path).standardizedFileURL
            var isFolder: ObjCBool = false
            let exists = FileManager.default.fileExists(
                atPath: destination.path, isDirectory: &isFolder)

            #expect(exists, "\(link): no such file or folder")
            guard exists, !anchor.isEmpty else { continue }
            let anchors =
                isFolder.boolValue ? [] : Self.anchors(of: TestPaths.text(destination) ?? "")
            #expect(
                anchors.contains(anchor),
                "\(link): no heading of \(destination.lastPathComponent) has the anchor #\(anchor)")
        }
    }

    @Test func anAnchorIsTheHeadingAsGitHubSpellsIt() {
        #expect(
            Self.slug("Running it again: the manifest, `--dry-run`, `--check`, `regen`, `destroy`")
                == "running-it-again-the-manifest---dry-run---check-regen-destroy")
        #expect(Self.slug("How fast, measured") == "how-fast-measured")
        #expect(Self.anchors(of: "# A\n```\n# B\n```\n## A\n") == ["a", "a-1"])
    }

    /// GitHub's anchor for a heading: lowercased, every character but letters, digits, `-`, `_`
    /// and spaces dropped (backticks and colons too), and each space a `-`.
    static func slug(_ heading: String) -> String {
        String(
            heading.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                let kept =
                    character.isLetter || character.isNumber || character == "-"
                    || character == "_"
                return kept ? character : nil
            })
    }

    /// The anchors of a page's headings (`#` to `######`, outside fenced code), a repeated one
    /// with `-1`, `-2`, … after it, as GitHub numbers them.
    static func anchors(of text: String) -> Set<String> {
        var anchors: Set<String> = []
        var seen: [String: Int] = [:]
        for line in withoutFencedCode(text).split(separator: "\n") {
            let level = line.prefix { $0 == "#" }.count
            guard (1...6).contains(level), line.dropFirst(level).first == " " else { continue }
            let anchor = slug(String(line.dropFirst(level)).trimmingCharacters(in: .whitespaces))
            let repeats = seen[anchor, default: 0]
            anchors.insert(repeats == 0 ? anchor : "\(anchor)-\(repeats)")
            seen[anchor] = repeats + 1
        }
        return anchors
    }

    /// `text` with each fenced code block (``` or ~~~, indented or not) replaced by empty lines,
    /// so that its lines keep their numbers.
    static func withoutFencedCode(_ text: String) -> String {
        var fence: (marker: Character, length: Int)?
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            let marker = trimmed.first.flatMap { $0 == "`" || $0 == "~" ? $0 : nil }
            let length = marker.map { marker in trimmed.prefix { $0 == marker }.count } ?? 0
            if let open = fence {
                // A closing fence: the opening's character, at least as many, nothing after.
                if marker == open.marker, length >= open.length,
                    trimmed.dropFirst(length).allSatisfy(\.isWhitespace)
                {
                    fence = nil
                }
                lines.append("")
            } else if let marker, length >= 3 {
                fence = (marker, length)
                lines.append("")
            } else {
                lines.append(line)
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `text` with the contents of each code span (`` `…` ``, closed by a run of as many
    /// backticks) blanked out, so that brackets written in code are not read as a link; line
    /// breaks stay.
    static func withoutCodeSpans(_ text: String) -> String {
        var characters = Array(text)
        var index = 0
        while index < characters.count {
            guard characters[index] == "`" else {
                index += 1
                continue
            }
            let run = characters[index...].prefix { $0 == "`" }.count
            let start = index + run
            var closing: Int?
            var search = start
            while search < characters.count, closing == nil {
                let length = characters[search...].prefix { $0 == "`" }.count
                if length == run { closing = search }
                search += max(length, 1)
            }
            guard let end = closing else {
                index = start
                continue
            }
            for position in start..<end where characters[position] != "\n" {
                characters[position] = " "
            }
            index = end + run
        }
        return String(characters)
    }
}
