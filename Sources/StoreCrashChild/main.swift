// The child process of the crash test: opens the journal store in DIRECTORY and saves values
// numbered from START on, forever, printing each id on stdout once its save has returned.
// The test kills it with SIGKILL at a random moment and checks that every printed save is
// still there.
//
// Usage: StoreCrashChild DIRECTORY START

import BenchJournal
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let start = Int(arguments[2]) else {
    FileHandle.standardError.write(Data("usage: StoreCrashChild DIRECTORY START\n".utf8))
    exit(2)
}
let repository = try EntryRepository(directory: URL(fileURLWithPath: arguments[1]))
// Long values make the journal outgrow its floor every hundred saves or so, so kills also land
// in the middle of compactions.
let body = String(repeating: "durable ", count: 60)
var number = start
while true {
    if number % 97 == 0 {
        // Now and then a batch of five, one durable write.
        let batch = (number..<(number + 5)).map {
            Entry(
                id: "entry-\($0)", title: "batch", body: body, score: 1,
                createdAt: Date(timeIntervalSince1970: 0))
        }
        try await repository.save(contentsOf: batch)
        number += 4
        FileHandle.standardOutput.write(Data(batch.dropLast().map { "\($0.id)\n" }.joined().utf8))
    } else {
        let entry = Entry(
            id: "entry-\(number)", title: "single", body: body, score: Double(number),
            createdAt: Date(timeIntervalSince1970: Double(number)))
        try await repository.save(entry)
    }
    // Unbuffered: the id is out of this process as soon as the save has returned.
    FileHandle.standardOutput.write(Data("entry-\(number)\n".utf8))
    number += 1
}
