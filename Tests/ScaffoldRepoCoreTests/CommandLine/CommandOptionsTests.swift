import Foundation
import Testing

@testable import ScaffoldRepoCore

/// Each option is declared once, in `CommandOption.all`: what the parser takes for a command is
/// what its help, the usage and the completions show.
@Suite struct CommandOptionsTests {
    /// A command line that reaches the option check for `command`.
    private func arguments(for command: CommandName) -> [String] {
        switch command {
        case .generate: ["Question", "id:String"]
        case .destroy: ["destroy", "Question"]
        case .own: ["own", "Sources/File.swift"]
        case .completions: ["completions", "bash"]
        default: command.rawValue.split(separator: " ").map(String.init)
        }
    }

    /// `option` as a command line gives it: a flag alone, a value option with its example.
    private func spelled(_ option: CommandOption) -> [String] {
        option.value == nil ? [option.name] : [option.name, option.example ?? "x"]
    }

    @Test(arguments: CommandName.allCases)
    func theParserTakesExactlyTheOptionsACommandsHelpShows(command: CommandName) throws {
        // Unwrapped: a long list of options is broken across lines.
        let help = CommandHelp.text(for: command.helpTopic).replacingOccurrences(
            of: "\n", with: " ")
        let usage = InvocationParser.usage

        for option in CommandOption.all where !option.commands.isEmpty {
            let takes = option.commands.contains(command)
            var thrown: (any Error)?
            do {
                _ = try InvocationParser.parse(arguments(for: command) + spelled(option))
            } catch {
                thrown = error
            }
            let refused = thrown.map { "\($0)".contains("does not apply to") } ?? false
            #expect(
                refused == !takes,
                "\(command.rawValue) \(option.name): \(String(describing: thrown))")
            if takes {
                #expect(help.contains(option.synopsis), "help \(command.rawValue): \(option.name)")
                #expect(usage.contains(option.name), "usage: \(option.name)")
            }
        }
    }

    @Test func theUsageListsEveryOptionAndEveryCommandsLine() {
        let usage = InvocationParser.usage

        for option in CommandOption.all {
            #expect(usage.contains("\n  \(option.help[0])"), "\(option.name)")
        }
        for command in CommandName.allCases where command != .generate {
            #expect(usage.contains("\n  \(command.usage)\n"), "\(command.rawValue)")
        }
    }

    @Test(arguments: Completions.shells)
    func everyCompletionScriptOffersEveryOption(shell: String) {
        let script = Completions.script(for: shell)

        for spelling in CommandOption.spellings where spelling.hasPrefix("--") {
            let word = shell == "fish" ? "-l \(spelling.dropFirst(2))" : spelling
            #expect(script.contains(word), "\(shell): \(spelling)")
        }
    }

    @Test func theCommandsPageGivesEveryCommandsUsageLine() throws {
        let page = try #require(
            TestPaths.text(
                TestPaths.repositoryRoot.appendingPathComponent("Documentation/commands.md")))

        for command in CommandName.allCases where command != .generate {
            #expect(page.contains("\n\(command.usage)\n"), "\(command.rawValue)")
        }
    }
}
