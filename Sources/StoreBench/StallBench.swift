// The journal store's worst moments, which its medians hide (`--stall-sizes`, default
// 200000,1000000; UUID ids): a compaction while other tasks go on calling `find(by:)` and
// `save`, the compaction's memory against the store's steady memory, and how long the
// view-model's `load()` and `filter(by:)` hold the main actor.
//
// Each size runs two children: `stall-import` writes the store, and `stall-use` opens it (so the
// import's memory is not counted) and measures. Memory is read from Linux's /proc: the resident
// memory after opening (freed memory given back first) is the steady figure, and the peak is
// reset before the compaction, so it is the compaction's own.

import BenchJournalUUID
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stall-use` prints, in seconds and MiB.
struct StallFigures {
    var compaction = 0.0
    var calls = 0.0
    var longestFind = 0.0
    var longestSave = 0.0
    var medianSave = 0.0
    var steadyMemory = 0.0
    var compactionPeak = 0.0
    var loadGap = 0.0
    var filterGap = 0.0
    var load = 0.0

    init() {}

    init(_ numbers: [Double]) {
        (compaction, calls, longestFind) = (numbers[0], numbers[1], numbers[2])
        longestSave = numbers[3]
        (medianSave, steadyMemory, compactionPeak) = (numbers[4], numbers[5], numbers[6])
        (loadGap, filterGap, load) = (numbers[7], numbers[8], numbers[9])
    }

    var numbers: [Double] {
        [
            compaction, calls, longestFind, longestSave, medianSave, steadyMemory, compactionPeak,
            loadGap, filterGap, load,
        ]
    }
}

/// Whether a compaction has ended, for the tasks that call the repository meanwhile.
actor CompactionState {
    private(set) var hasEnded = false

    func end() {
        hasEnded = true
    }
}

/// Resident memory now, in MiB, after giving freed memory back to the system where that can be
/// asked for; 0 where /proc is missing.
func residentMemoryMiB() -> Double {
    #if canImport(Glibc)
        // glibc keeps freed memory for later; `malloc_trim` gives it back. Looked up, since
        // Swift's Glibc module does not export it.
        typealias Trim = @convention(c) (Int) -> Int32
        if let trim = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(trim, to: Trim.self)(0)
        }
    #endif
    return procStatusMiB("VmRSS:")
}

/// The peak resident memory since ``resetPeakMemory()``, in MiB; 0 where /proc is missing.
func peakMemorySinceResetMiB() -> Double {
    procStatusMiB("VmHWM:")
}

/// Resets the peak that ``peakMemorySinceResetMiB()`` reads (Linux: `clear_refs` 5).
func resetPeakMemory() {
    try? Data("5".utf8).write(to: URL(fileURLWithPath: "/proc/self/clear_refs"))
}

private func procStatusMiB(_ field: String) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) }),
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Double($0) })
    else { return 0 }
    return kilobytes / 1024
}

/// The longest time the main actor went without running a 1 ms tick, while `work` ran: how
/// long `work` held it at a stretch (a frame at 60 Hz is 16.7 ms).
@MainActor
func longestMainActorGap(during work: () async -> Void) async -> Double {
    final class Ticks {
        var last = ContinuousClock.now
        var longest = Duration.zero
        var isRunning = true
    }
    let ticks = Ticks()
    let ticker = Task { @MainActor in
        while ticks.isRunning {
            let now = ContinuousClock.now
            ticks.longest = max(ticks.longest, now - ticks.last)
            ticks.last = now
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    await Task.yield()
    ticks.last = ContinuousClock.now
    await work()
    let now = ContinuousClock.now
    ticks.longest = max(ticks.longest, now - ticks.last)
    ticks.isRunning = false
    await ticker.value
    return seconds(ticks.longest)
}

/// `stall-import`: writes `size` values to the store in `STORE_BENCH_DIR`.
func runStallImport(size: Int) async throws {
    let directory = try benchDirectory()
    let repository = try BenchJournalUUID.EntryRepository(directory: directory)
    try await repository.save(contentsOf: withUUIDs(sampleEntries(0..<size), salt: 0))
    await repository.close()
    print(0)
}

/// `stall-use`: opens the store, then compacts it while other tasks call `find(by:)` and
/// `save`, then times the view-model; prints ``StallFigures``.
@MainActor
func runStallUse(size: Int, saves: Int) async throws {
    let directory = try benchDirectory()
    let repository = try BenchJournalUUID.EntryRepository(directory: directory)
    var figures = StallFigures()
    figures.steadyMemory = residentMemoryMiB()
    let ids = withUUIDs(sampleEntries(0..<size), salt: 0).map(\.id)
    let newValues = withUUIDs(spreadEntries(100_000, among: size), salt: 3)

    resetPeakMemory()
    let start = ContinuousClock.now
    let state = CompactionState()
    let compaction = Task.detached {
        defer { Task { await state.end() } }
        try await repository.compact()
    }
    let finds = Task.detached { () -> (Int, Double) in
        var (calls, longest, index) = (0, 0.0, 0)
        while await !state.hasEnded {
            let id = ids[(index &* 7919) % ids.count]
            let elapsed = await timeAsync { _ = await repository.find(by: id) }
            (calls, longest, index) = (calls + 1, max(longest, elapsed), index + 1)
        }
        return (calls, longest)
    }
    let writes = Task.detached { () -> (Int, Double, Double) in
        var times: [Double] = []
        for value in newValues {
            guard await !state.hasEnded else { break }
            times.append(try await timeAsync { try await repository.save(value) })
        }
        return (times.count, times.max() ?? 0, median(times))
    }
    try await compaction.value
    figures.compaction = seconds(ContinuousClock.now - start)
    figures.compactionPeak = peakMemorySinceResetMiB()
    let (findCalls, longestFind) = await finds.value
    let (saveCalls, longestSave, medianSave) = try await writes.value
    figures.calls = Double(findCalls + saveCalls)
    (figures.longestFind, figures.longestSave, figures.medianSave) =
        (longestFind, longestSave, medianSave)

    let viewModel = BenchJournalUUID.EntryListViewModel(
        repository: repository, order: .by(\.title))
    let loadStart = ContinuousClock.now
    figures.loadGap = await longestMainActorGap { await viewModel.load() }
    figures.load = seconds(ContinuousClock.now - loadStart)
    figures.filterGap = await longestMainActorGap {
        await viewModel.filter(by: { $0.score >= 1_000 })
    }
    await repository.close()
    print(figures.numbers.map { String($0) }.joined(separator: " "))
}

/// Runs the two children per size and prints the table and the targets.
func runStalls(sizes: [Int], saves: Int) throws {
    guard !sizes.isEmpty else { return }
    print("")
    print("The journal store's worst moments (UUID ids; times in ms, memory in MiB):")
    print(
        "| values | compact() | calls during it | longest find(by:) | longest save "
            + "| median save | steady memory | compaction peak | viewModel.load() "
            + "| longest main-actor hold: load() | filter(by:) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    var targets: [(String, Double, Double)] = []
    for size in sizes {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-bench-stall-\(size)-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let environment = ["STORE_BENCH_DIR": directory.path]
        _ = try runChildProcess(
            store: "stall-import", size: size, saves: saves, expecting: 1,
            environment: environment)
        let figures = StallFigures(
            try runChildProcess(
                store: "stall-use", size: size, saves: saves, expecting: 10,
                environment: environment))
        let cells = [
            milliseconds(figures.compaction), String(Int(figures.calls)),
            milliseconds(figures.longestFind), milliseconds(figures.longestSave),
            milliseconds(figures.medianSave), String(format: "%.0f", figures.steadyMemory),
            String(format: "%.0f", figures.compactionPeak), milliseconds(figures.load),
            milliseconds(figures.loadGap), milliseconds(figures.filterGap),
        ]
        print("| \(size) | " + cells.joined(separator: " | ") + " |")
        targets += [
            ("\(size): longest find(by:) during compact(), ms", figures.longestFind * 1000, 20),
            (
                "\(size): longest save during compact() less the median save (its fsync), ms",
                (figures.longestSave - figures.medianSave) * 1000, 20
            ),
            (
                "\(size): compaction peak / steady memory",
                figures.steadyMemory > 0 ? figures.compactionPeak / figures.steadyMemory : 0, 1.5
            ),
            ("\(size): main actor held by viewModel.load(), ms", figures.loadGap * 1000, 16),
            ("\(size): main actor held by filter(by:), ms", figures.filterGap * 1000, 16),
        ]
    }
    print("")
    print("Stall targets (in brackets):")
    for (name, value, target) in targets {
        let met = value <= target ? "met" : "NOT met"
        print("- \(name): \(String(format: "%.2f", value)) [≤ \(target)] \(met)")
    }
}
