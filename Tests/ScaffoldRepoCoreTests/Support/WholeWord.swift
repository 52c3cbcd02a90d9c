/// Finding a name in text as a whole word, not as part of a longer identifier.
enum WholeWord {
    /// Whether `text` holds `word` with no letter, digit or `_` on either side; with
    /// `asMember: false`, not right after a `.` either (`x.Tag` is another `Tag`).
    static func occurs(_ word: String, in text: Substring, asMember: Bool = true) -> Bool {
        let isWordPart = { (character: Character?) in
            character.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false
        }
        var rest = text
        while let found = rest.range(of: word) {
            let before =
                found.lowerBound == text.startIndex
                ? nil : text[text.index(before: found.lowerBound)]
            let after = found.upperBound == text.endIndex ? nil : text[found.upperBound]
            if !isWordPart(before), !isWordPart(after), asMember || before != "." {
                return true
            }
            rest = text[found.upperBound...]
        }
        return false
    }
}
