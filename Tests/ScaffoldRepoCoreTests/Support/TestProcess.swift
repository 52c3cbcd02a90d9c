import Foundation

/// Runs a program and collects what it printed.
enum TestProcess {
    struct Outcome {
        let status: Int32
        let output: String
        let errors: String
    }

    /// Runs `command` (a path, or a name looked up on PATH) in `folder` and waits for it;
    /// stderr goes into `output` unless `mergeErrors` is false.
    static func run(
        _ command: String, _ arguments: [String], in folder: URL, mergeErrors: Bool = true
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [command] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        let errors = mergeErrors ? output : Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = mergeErrors ? Data() : errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            errors: String(decoding: errorData, as: UTF8.self))
    }

    /// The counts in the last "Executed N tests" line (XCTest's total over all suites) and the
    /// "Test run with N tests" line (Swift Testing) of `swift test` output.
    static func testCounts(in output: String) -> (xctest: Int, swiftTesting: Int) {
        func number(after marker: String) -> Int {
            guard let range = output.range(of: marker, options: .backwards) else { return 0 }
            return Int(output[range.upperBound...].prefix { $0.isNumber }) ?? 0
        }
        return (number(after: "Executed "), number(after: "Test run with "))
    }
}
