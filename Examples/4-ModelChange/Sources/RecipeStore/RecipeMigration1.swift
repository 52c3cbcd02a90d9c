import Foundation

// Workshop: a migration is a plain function from the old value to the new one. Opening a store
// that version 1 wrote runs it on every stored value (and the later migrations
// after it), then writes the store in the current version, so it runs once per install.

nonisolated extension Recipe.V1 {
    /// This value as schema version 2 of ``Recipe`` has it.
    ///
    /// scaffold-repo wrote this file once, when `--migrate` made version 2, and never
    /// changes it: it is yours. It copies every field that still fits and converts each one
    /// whose conversion loses nothing. A `Decide:` comment marks each value you must choose:
    /// its `undecided` call throws, so a store written by version 1 does not open
    /// (and is left as it is) until you replace the call with the value. The generated tests
    /// open a store written by version 1 and check that every value it kept is there.
    public func migrated() throws -> Recipe.V2 {
        Recipe.V2(
            id: self.id,
            title: self.title,
            // Edited: a recipe saved without servings was for two.
            servings: self.servings ?? 2,
            level: try lossless(Recipe.V2.Level(rawValue: self.level.rawValue), "level")
        )
    }
}
