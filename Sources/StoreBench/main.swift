// store-bench: measures the generated stores against the pattern they improve on.
//
//   swift run -c release store-bench [--sizes 100,10000,100000] [--saves 31]
//
// For each store and size it runs a child process (`store-bench --child STORE SIZE SAVES`) that
// imports SIZE values in one batch, reopens the store (a cold load), then times SAVES single
// durable saves; the child's peak resident memory is read from getrusage. The parent prints a
// table and the ratios that the store's targets are stated in.

import BenchJournal
import BenchSnapshot
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

typealias Entry = BenchJournal.Entry

/// The values every store imports: the same for every run and store.
func sampleEntries(_ range: Range<Int>) -> [Entry] {
    range.map { number in
        Entry(
            id: String(format: "entry-%08d", number),
            title: "Title \(number)",
            body: String(repeating: "lorem ipsum ", count: 6) + String(number),
            score: Double(number) / 7,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)))
    }
}

func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

func time(_ work: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try work()
    return seconds(ContinuousClock.now - start)
}

func timeAsync(_ work: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await work()
    return seconds(ContinuousClock.now - start)
}

func peakMemoryMiB() -> Double {
    var usage = rusage()
    #if canImport(Darwin)
        getrusage(RUSAGE_SELF, &usage)
    #else
        getrusage(RUSAGE_SELF.rawValue, &usage)
    #endif
    #if canImport(Darwin)
        return Double(usage.ru_maxrss) / 1_048_576  // bytes
    #else
        return Double(usage.ru_maxrss) / 1024  // KiB
    #endif
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

/// The pattern this project starts from, written out here as the baseline: a cache and one
/// JSON file that every save rewrites (atomically, without syncing).
actor WholeFileRewriteStore {
    private var cache: [String: Entry] = [:]
    private let file: URL

    init(directory: URL) {
        file = directory.appendingPathComponent("entries.json")
        if let data = try? Data(contentsOf: file),
            let values = try? JSONDecoder().decode([Entry].self, from: data)
        {
            cache = Dictionary(values.map { ($0.id, $0) }, uniquingKeysWith: { _, last in last })
        }
    }

    func save(_ entry: Entry) throws {
        cache[entry.id] = entry
        try persist()
    }

    func importAll(_ entries: [Entry]) throws {
        for entry in entries { cache[entry.id] = entry }
        try persist()
    }

    private func persist() throws {
        try JSONEncoder().encode(Array(cache.values)).write(to: file, options: .atomic)
    }
}

/// One child run: prints `import load save memory` in seconds and MiB.
func runChild(store: String, size: Int, saves: Int) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("store-bench-\(store)-\(size)-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let entries = sampleEntries(0..<size)
    let extra = sampleEntries(size..<(size + saves))
    var importTime = 0.0
    var loadTime = 0.0
    var saveTimes: [Double] = []
    switch store {
    case "journal":
        let first = try BenchJournal.EntryRepository(directory: directory)
        importTime = try await timeAsync { try await first.save(contentsOf: entries) }
        await first.close()
        var repository: BenchJournal.EntryRepository?
        loadTime = try time { repository = try BenchJournal.EntryRepository(directory: directory) }
        for entry in extra {
            saveTimes.append(try await timeAsync { try await repository?.save(entry) })
        }
    case "snapshot":
        let snapshotEntries = entries.map(BenchSnapshot.Entry.init)
        let first = try BenchSnapshot.EntryRepository(directory: directory)
        importTime = try await timeAsync { try await first.save(contentsOf: snapshotEntries) }
        var repository: BenchSnapshot.EntryRepository?
        loadTime = try time { repository = try BenchSnapshot.EntryRepository(directory: directory) }
        for entry in extra.map(BenchSnapshot.Entry.init) {
            saveTimes.append(try await timeAsync { try await repository?.save(entry) })
        }
    case "baseline":
        let first = WholeFileRewriteStore(directory: directory)
        importTime = try await timeAsync { try await first.importAll(entries) }
        var repository: WholeFileRewriteStore?
        loadTime = time { repository = WholeFileRewriteStore(directory: directory) }
        for entry in extra {
            saveTimes.append(try await timeAsync { try await repository?.save(entry) })
        }
    case "reference":
        // Encoding the values once and writing them durably; decoding them from one JSON array.
        let file = directory.appendingPathComponent("array.json")
        var data = Data()
        importTime = try time {
            data = try JSONEncoder().encode(entries)
            try data.write(to: file)
            let handle = try FileHandle(forUpdating: file)
            try handle.synchronize()
            try handle.close()
        }
        loadTime = try time {
            _ = try JSONDecoder().decode([Entry].self, from: Data(contentsOf: file))
        }
    default:
        throw BenchError("unknown store \(store)")
    }
    print(importTime, loadTime, median(saveTimes), peakMemoryMiB())
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

extension BenchSnapshot.Entry {
    init(_ entry: BenchJournal.Entry) {
        self.init(
            id: entry.id, title: entry.title, body: entry.body, score: entry.score,
            createdAt: entry.createdAt)
    }
}

struct Figures {
    var importTime: Double
    var loadTime: Double
    var saveTime: Double
    var memory: Double
}

func measure(store: String, size: Int, saves: Int) throws -> Figures {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    process.arguments = ["--child", store, String(size), String(saves)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let numbers = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard process.terminationStatus == 0, numbers.count == 4 else {
        throw BenchError("child \(store) \(size) failed: \(String(decoding: data, as: UTF8.self))")
    }
    return Figures(
        importTime: numbers[0], loadTime: numbers[1], saveTime: numbers[2], memory: numbers[3])
}

func milliseconds(_ value: Double) -> String {
    String(format: value < 10 ? "%.3f" : "%.1f", value * 1000)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func runParent(arguments: [String]) throws {
    var sizes = [100, 10_000, 100_000]
    var saves = 31
    var index = 0
    while index < arguments.count {
        switch arguments[index] {
        case "--sizes":
            index += 1
            sizes = arguments[index].split(separator: ",").compactMap { Int($0) }
        case "--saves":
            index += 1
            saves = Int(arguments[index]) ?? saves
        default:
            throw BenchError(
                "unknown argument \(arguments[index]); use --sizes 100,10000,100000 --saves 31")
        }
        index += 1
    }
    let stores = ["journal", "snapshot", "baseline", "reference"]
    var figures: [String: [Int: Figures]] = [:]
    print("store-bench: \(saves) single saves per run; times in ms, memory in MiB (peak RSS)")
    print(
        "| store | values | batch import | cold load | one durable save (median) | peak memory |")
    print("|---|---:|---:|---:|---:|---:|")
    for size in sizes {
        for store in stores {
            let result = try measure(
                store: store, size: size, saves: store == "reference" ? 0 : saves)
            figures[store, default: [:]][size] = result
            let save = store == "reference" ? "–" : milliseconds(result.saveTime)
            let name = store == "reference" ? "reference: encode+write / decode one array" : store
            print(
                "| \(name) | \(size) | \(milliseconds(result.importTime)) | \(milliseconds(result.loadTime)) | \(save) | \(String(format: "%.0f", result.memory)) |"
            )
        }
    }
    guard let small = sizes.min(), let large = sizes.max(), let journal = figures["journal"],
        let baseline = figures["baseline"], let reference = figures["reference"],
        let journalSmall = journal[small], let journalLarge = journal[large],
        let baselineLarge = baseline[large], let referenceLarge = reference[large]
    else { return }
    print("")
    print("Ratios (targets in brackets):")
    let ratios: [(String, Double, String, Bool)] = [
        (
            "journal save at \(large) / at \(small)", journalLarge.saveTime / journalSmall.saveTime,
            "≤ 2", journalLarge.saveTime / journalSmall.saveTime <= 2
        ),
        (
            "baseline save / journal save at \(large)",
            baselineLarge.saveTime / journalLarge.saveTime,
            "≥ 100", baselineLarge.saveTime / journalLarge.saveTime >= 100
        ),
        (
            "journal batch import / encode+write once at \(large)",
            journalLarge.importTime / referenceLarge.importTime, "≤ 2",
            journalLarge.importTime / referenceLarge.importTime <= 2
        ),
        (
            "journal cold load / decode one array at \(large)",
            journalLarge.loadTime / referenceLarge.loadTime, "≤ 2",
            journalLarge.loadTime / referenceLarge.loadTime <= 2
        ),
    ]
    for (name, value, target, met) in ratios {
        print("- \(name): \(String(format: "%.2f", value)) [\(target)] \(met ? "met" : "NOT met")")
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child", arguments.count == 4, let size = Int(arguments[2]),
        let saves = Int(arguments[3])
    {
        try await runChild(store: arguments[1], size: size, saves: saves)
    } else {
        try runParent(arguments: arguments)
    }
} catch {
    FileHandle.standardError.write(Data("store-bench: \(error)\n".utf8))
    exit(1)
}
