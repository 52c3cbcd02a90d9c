// store-bench: measures the generated stores against the pattern they improve on.
//
//   swift run -c release --package-path Tests/Integration store-bench [--sizes 100,10000,100000] [--saves 31]
//
// For each store and size it runs a child process (`store-bench --child STORE SIZE SAVES`) that
// imports SIZE values in one batch, reopens the store (a cold load), then times SAVES single
// durable saves; the child's peak resident memory is read from getrusage. The parent prints a
// table and the ratios that the store's targets are stated in.
//
// Then, at the largest size, for String and for UUID ids (`--child live-string|live-uuid SIZE
// SAVES`), what an app does with the journal store: loadAll(), a save right after it, the
// view-model's load and add, and compaction, each set against the work it cannot avoid; and
// an older build's store whose every value holds a newer build's field (OlderBuildBench.swift).
//
// Last, the sqlite store at `--sqlite-sizes` (default 10000,100000,1000000), UUID ids, beside
// raw SQLite: the same rows through the C API, without the generated layer (SQLiteBench.swift),
// related models at the same sizes: lookups by an index, a cascade (RelationsBench.swift), and
// the first open after a field was added with a default, which rewrites every row
// (LayoutBench.swift).
// Before it, the journal store's worst moments at `--stall-sizes` (StallBench.swift): calls made
// while a compaction runs, its memory, and how long the view-model holds the main actor.

import BenchJournal
import BenchJournalUUID
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
    range.map { sampleEntry(id: String(format: "entry-%08d", $0), number: $0) }
}

func sampleEntry(id: String, number: Int) -> Entry {
    Entry(
        id: id,
        title: "Title \(number)",
        body: String(repeating: "lorem ipsum ", count: 6) + String(number),
        score: Double(number) / 7,
        createdAt: Date(timeIntervalSince1970: 1_700_000_000 + Double(number)))
}

/// `count` values whose ids fall between the ids of `sampleEntries(0..<size)`, spread over
/// them, as new values in an app land anywhere in id order.
func spreadEntries(_ count: Int, among size: Int) -> [Entry] {
    (0..<count).map { index in
        let near = (index &* 7919) % max(size, 1)
        return sampleEntry(id: String(format: "entry-%08d-%d", near, index), number: size + index)
    }
}

/// The same values with UUID ids, spread over the id space as random UUIDs are, and the same
/// on every run.
func withUUIDs(_ entries: [Entry], salt: Int) -> [BenchJournalUUID.Entry] {
    entries.enumerated().map { index, entry in
        let number = index &+ salt &* 1_000_003
        let high = UInt32(truncatingIfNeeded: number &* 2_654_435_761)
        let id = UUID(
            uuidString: String(format: "%08X-0000-4000-8000-%012X", high, number & 0xFFFF_FFFF))
        return BenchJournalUUID.Entry(
            id: id ?? UUID(), title: entry.title, body: entry.body, score: entry.score,
            createdAt: entry.createdAt)
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

/// `timeAsync` for work on the main actor, where the view-model lives.
@MainActor
func timeOnMain(_ work: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await work()
    return seconds(ContinuousClock.now - start)
}

/// What the live figures need from one journal store and its view-model.
@MainActor
struct LiveStore<Value: Encodable & Sendable> {
    let importAll: ([Value]) async throws -> Void
    let loadAll: () async -> [Value]
    let save: (Value) async throws -> Void
    let loadViewModel: () async -> Void
    let add: (Value) async -> Void
    let compact: () async throws -> Void
}

/// The live figures, in seconds, in the order `LiveFigures` reads them.
@MainActor
func measureLive<Value: Encodable & Sendable>(
    _ store: LiveStore<Value>, values: [Value], saves: [Value], adds: [Value]
) async throws -> [Double] {
    try await store.importAll(values)
    var loadAllTimes: [Double] = []
    var copyTimes: [Double] = []
    for _ in 0..<5 {
        var loaded: [Value] = []
        loadAllTimes.append(await timeOnMain { loaded = await store.loadAll() })
        // The least a copy costs: the elements into a new buffer, in one go.
        copyTimes.append(
            time { withExtendedLifetime(loaded.withUnsafeBufferPointer(Array.init)) {} })
    }
    var saveTimes: [Double] = []
    for value in saves {
        saveTimes.append(try await timeOnMain { try await store.save(value) })
    }
    let viewModelLoad = await timeOnMain { await store.loadViewModel() }
    var addTimes: [Double] = []
    for value in adds {
        addTimes.append(await timeOnMain { await store.add(value) })
    }
    var compactTimes: [Double] = []
    for _ in 0..<3 {
        compactTimes.append(try await timeOnMain { try await store.compact() })
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]  // As the store encodes its snapshot.
    let all = await store.loadAll()
    var encodeTimes: [Double] = []
    for _ in 0..<3 {
        encodeTimes.append(try time { withExtendedLifetime(try encoder.encode(all)) {} })
    }
    return [
        median(loadAllTimes), median(copyTimes), median(saveTimes), viewModelLoad,
        median(addTimes), addTimes.max() ?? 0, median(compactTimes), median(encodeTimes),
    ]
}

/// A live child run over String ids (`uuid` false) or UUID ids: prints the live figures.
@MainActor
func runLiveChild(uuid: Bool, size: Int, saves: Int) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("store-bench-live-\(uuid)-\(size)-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let values = sampleEntries(0..<size)
    let later = spreadEntries(2 * saves, among: size)
    let (saved, added) = (Array(later.prefix(saves)), Array(later.dropFirst(saves)))
    let figures: [Double]
    if uuid {
        let repository = try BenchJournalUUID.EntryRepository(directory: directory)
        let viewModel = BenchJournalUUID.EntryListViewModel(repository: repository)
        figures = try await measureLive(
            LiveStore(
                importAll: { try await repository.save(contentsOf: $0) },
                loadAll: { await repository.loadAll() },
                save: { try await repository.save($0) },
                loadViewModel: { await viewModel.load() },
                add: { await viewModel.add($0) },
                compact: { try await repository.compact() }),
            values: withUUIDs(values, salt: 0), saves: withUUIDs(saved, salt: 1),
            adds: withUUIDs(added, salt: 2))
    } else {
        let repository = try BenchJournal.EntryRepository(directory: directory)
        let viewModel = BenchJournal.EntryListViewModel(repository: repository)
        figures = try await measureLive(
            LiveStore(
                importAll: { try await repository.save(contentsOf: $0) },
                loadAll: { await repository.loadAll() },
                save: { try await repository.save($0) },
                loadViewModel: { await viewModel.load() },
                add: { await viewModel.add($0) },
                compact: { try await repository.compact() }),
            values: values, saves: saved, adds: added)
    }
    print(figures.map { String($0) }.joined(separator: " "))
}

/// One child run: prints `import load save memory` in seconds and MiB.
func runChild(store: String, size: Int, saves: Int) async throws {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("store-bench-\(store)-\(size)-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let entries = sampleEntries(0..<size)
    // New ids that fall anywhere among the stored ones, as new values in an app do.
    let extra = spreadEntries(saves, among: size)
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
        await first.close()  // Its lock keeps the folder to one repository at a time.
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
    let numbers = try runChildProcess(store: store, size: size, saves: saves, expecting: 4)
    return Figures(
        importTime: numbers[0], loadTime: numbers[1], saveTime: numbers[2], memory: numbers[3])
}

/// Runs `store-bench --child STORE SIZE SAVES` in a process of its own and reads the numbers
/// it prints.
func runChildProcess(
    store: String, size: Int, saves: Int, expecting count: Int,
    environment: [String: String] = [:]
) throws -> [Double] {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    process.arguments = ["--child", store, String(size), String(saves)]
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let numbers = String(decoding: data, as: UTF8.self).split(separator: " ").compactMap {
        Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
    }
    guard process.terminationStatus == 0, numbers.count == count else {
        throw BenchError("child \(store) \(size) failed: \(String(decoding: data, as: UTF8.self))")
    }
    return numbers
}

/// What an app does with the journal store at one size, per id type (in seconds).
struct LiveFigures {
    let loadAll: Double
    let copy: Double
    let save: Double
    let viewModelLoad: Double
    let add: Double
    let worstAdd: Double
    let compact: Double
    let encode: Double

    init(_ numbers: [Double]) {
        (loadAll, copy, save, viewModelLoad) = (numbers[0], numbers[1], numbers[2], numbers[3])
        (add, worstAdd, compact, encode) = (numbers[4], numbers[5], numbers[6], numbers[7])
    }
}

/// Prints the live table and its ratios for `size` values.
func runLive(size: Int, saves: Int) throws {
    print("")
    print("Live use of the journal store at \(size) values (times in ms; medians, worst add too):")
    print(
        "| ids | loadAll() | copy the values | save | viewModel.load() "
            + "| viewModel.add (median / worst) | compact() | encode the values once |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    var ratios: [(String, Double, Double)] = []
    for (name, store) in [("String", "live-string"), ("UUID", "live-uuid")] {
        let live = LiveFigures(
            try runChildProcess(store: store, size: size, saves: saves, expecting: 8))
        let cells = [
            milliseconds(live.loadAll), milliseconds(live.copy), milliseconds(live.save),
            milliseconds(live.viewModelLoad),
            "\(milliseconds(live.add)) / \(milliseconds(live.worstAdd))",
            milliseconds(live.compact), milliseconds(live.encode),
        ]
        print("| \(name) | " + cells.joined(separator: " | ") + " |")
        ratios += [
            ("\(name) ids: loadAll() / copying the values", live.loadAll / live.copy, 2),
            ("\(name) ids: viewModel.add / one durable save", live.add / live.save, 3),
            ("\(name) ids: compact() / encoding the values once", live.compact / live.encode, 2),
        ]
    }
    print("")
    print("Ratios at \(size) values (targets in brackets):")
    for (name, value, target) in ratios {
        let met = value <= target ? "met" : "NOT met"
        print("- \(name): \(String(format: "%.2f", value)) [≤ \(Int(target))] \(met)")
    }
}

func milliseconds(_ value: Double) -> String {
    String(format: value < 10 ? "%.3f" : "%.1f", value * 1000)
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}

func runParent(arguments: [String]) throws {
    var sizes = [100, 10_000, 100_000]
    var sqliteSizes = [10_000, 100_000, 1_000_000]
    var stallSizes = [200_000, 1_000_000]
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
        case "--sqlite-sizes":
            index += 1
            sqliteSizes = arguments[index].split(separator: ",").compactMap { Int($0) }
        case "--stall-sizes":
            index += 1
            stallSizes = arguments[index].split(separator: ",").compactMap { Int($0) }
        default:
            throw BenchError(
                "unknown argument \(arguments[index]); use --sizes 100,10000,100000 --saves 31 "
                    + "--sqlite-sizes 10000,100000,1000000 --stall-sizes 200000,1000000")
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
    else {
        // `--sizes ""` skips the first tables.
        try runStalls(sizes: stallSizes, saves: saves)
        try runSQLite(sizes: sqliteSizes, saves: saves, journal: [:])
        try runRelations(sizes: sqliteSizes, saves: saves)
        try runLayout(sizes: sqliteSizes)
        try runMove(sizes: sqliteSizes)
        return
    }
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
    try runLive(size: large, saves: saves)
    try runOlderBuild(size: large)
    try runStalls(sizes: stallSizes, saves: saves)
    try runSQLite(sizes: sqliteSizes, saves: saves, journal: journal)
    try runRelations(sizes: sqliteSizes, saves: saves)
    try runLayout(sizes: sqliteSizes)
    try runMove(sizes: sqliteSizes)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    if arguments.first == "--child", arguments.count == 4, let size = Int(arguments[2]),
        let saves = Int(arguments[3])
    {
        if arguments[1].hasPrefix("sqlite-move-") {
            try await runMoveChild(arguments[1], size: size)
        } else if arguments[1].hasPrefix("sqlite-") || arguments[1].hasPrefix("raw-") {
            try await runSQLiteChild(arguments[1], size: size, saves: saves)
        } else if arguments[1] == "stall-import" {
            try await runStallImport(size: size)
        } else if arguments[1] == "stall-recover" {
            try await runStallRecover(size: size)
        } else if arguments[1] == "stall-use" {
            try await runStallUse(size: size, saves: saves)
        } else if arguments[1] == "older-build" {
            try await runOlderBuildChild(size: size)
        } else if arguments[1].hasPrefix("live-") {
            try await runLiveChild(uuid: arguments[1] == "live-uuid", size: size, saves: saves)
        } else {
            try await runChild(store: arguments[1], size: size, saves: saves)
        }
    } else {
        try runParent(arguments: arguments)
    }
} catch {
    FileHandle.standardError.write(Data("store-bench: \(error)\n".utf8))
    exit(1)
}
