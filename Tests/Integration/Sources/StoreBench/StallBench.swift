// The journal store's worst moments, which its medians hide (`--stall-sizes`, default
// 200000,1000000; UUID ids): a compaction while other tasks go on calling `find(by:)` and
// `save`, the compaction's memory against the store's steady memory, and how long the
// view-model's `load()`, a change of 17 values it shows, and `filter(by:)` hold the main actor.
//
// Each size runs two children: `stall-import` writes the store, and `stall-use` opens it (so the
// import's memory is not counted) and measures. Memory is read from Linux's /proc: the store's
// steady memory is what opening it adds to the process (freed memory given back first), and
// its peak during the compaction is the process's peak, reset just before, less what the
// process held before opening the store.

import BenchJournalUUID
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What `stall-use` prints, in seconds and MiB.
struct StallFigures {
    /// `compact()` with no other call, and while other tasks call `find(by:)` and `save`.
    var compactionAlone = 0.0
    var compaction = 0.0
    var calls = 0.0
    var longestFind = 0.0
    var longestSave = 0.0
    var medianSave = 0.0
    /// What the open store adds to the process; then the peak during a compaction alone.
    var steadyMemory = 0.0
    var peakAlone = 0.0
    /// What the store adds once the calls' saves are in; the peak during the compaction then.
    var steadyAfterCalls = 0.0
    var peakWithCalls = 0.0
    /// The main actor's longest hold (processor time) and gap (wall clock) in each.
    var loadHold = 0.0
    var loadGap = 0.0
    var filterHold = 0.0
    var filterGap = 0.0
    var load = 0.0
    /// The same while the view-model shows a `save(contentsOf:)` of 17 values.
    var changeHold = 0.0
    var changeGap = 0.0

    init() {}

    init(_ numbers: [Double]) {
        (compactionAlone, compaction, calls) = (numbers[0], numbers[1], numbers[2])
        (longestFind, longestSave, medianSave) = (numbers[3], numbers[4], numbers[5])
        (steadyMemory, peakAlone) = (numbers[6], numbers[7])
        (steadyAfterCalls, peakWithCalls) = (numbers[8], numbers[9])
        (loadHold, loadGap, filterHold) = (numbers[10], numbers[11], numbers[12])
        (filterGap, load) = (numbers[13], numbers[14])
        (changeHold, changeGap) = (numbers[15], numbers[16])
    }

    var numbers: [Double] {
        [
            compactionAlone, compaction, calls, longestFind, longestSave, medianSave,
            steadyMemory, peakAlone, steadyAfterCalls, peakWithCalls, loadHold, loadGap,
            filterHold, filterGap, load, changeHold, changeGap,
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

/// The main thread's processor time so far, in seconds.
func mainThreadCPUSeconds() -> Double {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
}

/// How long `work` held the main actor at a stretch, while a 1 ms tick ran there too: the
/// longest processor time the main thread spent between two ticks (work done on the main
/// actor), and the longest wall-clock time between two ticks (which also counts time the
/// thread waited for a processor that other threads had). A frame at 60 Hz is 16.7 ms.
@MainActor
func longestMainActorHold(during work: () async -> Void) async -> (held: Double, gap: Double) {
    final class Ticks {
        var last = ContinuousClock.now
        var lastCPU = 0.0
        var longest = Duration.zero
        var longestCPU = 0.0
        var isRunning = true

        func tick() {
            let (now, cpu) = (ContinuousClock.now, mainThreadCPUSeconds())
            longest = max(longest, now - last)
            longestCPU = max(longestCPU, cpu - lastCPU)
            (last, lastCPU) = (now, cpu)
        }
    }
    let ticks = Ticks()
    let ticker = Task { @MainActor in
        while ticks.isRunning {
            ticks.tick()
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    await Task.yield()
    (ticks.last, ticks.lastCPU) = (ContinuousClock.now, mainThreadCPUSeconds())
    (ticks.longest, ticks.longestCPU) = (.zero, 0)
    await work()
    ticks.tick()
    ticks.isRunning = false
    await ticker.value
    return (ticks.longestCPU, seconds(ticks.longest))
}

/// `stall-import`: writes `size` values to the store in `STORE_BENCH_DIR`.
func runStallImport(size: Int) async throws {
    let directory = try benchDirectory()
    let repository = try BenchJournalUUID.EntryRepository(directory: directory)
    try await repository.save(contentsOf: withUUIDs(sampleEntries(0..<size), salt: 0))
    await repository.close()
    print(0)
}

/// `stall-use`: opens the store, compacts it alone, then compacts it while other tasks call
/// `find(by:)` and `save`, then times the view-model; prints ``StallFigures``.
@MainActor
func runStallUse(size: Int, saves: Int) async throws {
    let directory = try benchDirectory()
    let ids = withUUIDs(sampleEntries(0..<size), salt: 0).map(\.id)
    let newValues = withUUIDs(spreadEntries(100_000, among: size), salt: 3)
    // The store's memory is what opening it adds to this process.
    let before = residentMemoryMiB()
    let repository = try BenchJournalUUID.EntryRepository(directory: directory)
    var figures = StallFigures()
    figures.steadyMemory = residentMemoryMiB() - before
    resetPeakMemory()
    figures.compactionAlone = try await timeOnMain { try await repository.compact() }
    figures.peakAlone = peakMemorySinceResetMiB() - before

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
    figures.peakWithCalls = peakMemorySinceResetMiB() - before
    figures.steadyAfterCalls = residentMemoryMiB() - before
    let (findCalls, longestFind) = await finds.value
    let (saveCalls, longestSave, medianSave) = try await writes.value
    figures.calls = Double(findCalls + saveCalls)
    (figures.longestFind, figures.longestSave, figures.medianSave) =
        (longestFind, longestSave, medianSave)

    let viewModel = BenchJournalUUID.EntryListViewModel(
        repository: repository, order: .by(\.title))
    let loadStart = ContinuousClock.now
    (figures.loadHold, figures.loadGap) = await longestMainActorHold { await viewModel.load() }
    figures.load = seconds(ContinuousClock.now - loadStart)
    // A change of more values than the view-model moves one at a time, shown by the stream.
    let shownBefore = viewModel.entries.count
    let change = withUUIDs(sampleEntries(0..<17), salt: 6)  // Ids no other step uses.
    (figures.changeHold, figures.changeGap) = await longestMainActorHold {
        try? await repository.save(contentsOf: change)
        let deadline = ContinuousClock.now + .seconds(30)
        while viewModel.entries.count < shownBefore + change.count, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
    (figures.filterHold, figures.filterGap) = await longestMainActorHold {
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
        "| values | compact() alone / with calls | calls during it | longest find(by:) "
            + "| longest save | median save | memory: steady / compaction peak "
            + "| with the calls' saves in: steady / peak | viewModel.load() "
            + "| main actor's longest hold / gap: load() | a change of 17 values | filter(by:) |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    var targets: [(String, Double, Double)] = []
    var recoveries: [(size: Int, figures: [Double])] = []
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
                store: "stall-use", size: size, saves: saves, expecting: 17,
                environment: environment))
        recoveries.append(
            (
                size,
                try runChildProcess(
                    store: "stall-recover", size: size, saves: saves, expecting: 4,
                    environment: environment)
            ))
        let mebibytes = { (first: Double, second: Double) in
            String(format: "%.0f / %.0f", first, second)
        }
        let cells = [
            "\(milliseconds(figures.compactionAlone)) / \(milliseconds(figures.compaction))",
            String(Int(figures.calls)), milliseconds(figures.longestFind),
            milliseconds(figures.longestSave), milliseconds(figures.medianSave),
            mebibytes(figures.steadyMemory, figures.peakAlone),
            mebibytes(figures.steadyAfterCalls, figures.peakWithCalls),
            milliseconds(figures.load),
            "\(milliseconds(figures.loadHold)) / \(milliseconds(figures.loadGap))",
            "\(milliseconds(figures.changeHold)) / \(milliseconds(figures.changeGap))",
            "\(milliseconds(figures.filterHold)) / \(milliseconds(figures.filterGap))",
        ]
        print("| \(size) | " + cells.joined(separator: " | ") + " |")
        targets += [
            ("\(size): longest find(by:) during compact(), ms", figures.longestFind * 1000, 20),
            (
                "\(size): longest save during compact() less the median save (its fsync), ms",
                (figures.longestSave - figures.medianSave) * 1000, 20
            ),
            (
                "\(size): compaction peak / steady memory, compact() alone",
                figures.steadyMemory > 0 ? figures.peakAlone / figures.steadyMemory : 0, 1.5
            ),
            (
                "\(size): the same with the calls, their saves in the steady memory",
                figures.steadyAfterCalls > 0
                    ? figures.peakWithCalls / figures.steadyAfterCalls : 0, 1.5
            ),
            ("\(size): main actor held by viewModel.load(), ms", figures.loadHold * 1000, 16),
            (
                "\(size): main actor held by a change of 17 values shown, ms",
                figures.changeHold * 1000, 16
            ),
            ("\(size): main actor held by filter(by:), ms", figures.filterHold * 1000, 16),
        ]
    }
    print("")
    print("Stall targets (in brackets):")
    for (name, value, target) in targets {
        let met = value <= target ? "met" : "NOT met"
        print("- \(name): \(String(format: "%.2f", value)) [≤ \(target)] \(met)")
    }
    print("")
    print("recover(directory:) of the same store, one journal record damaged (ms, MiB):")
    print("| values | recover | memory it added: steady / peak | values kept |")
    print("|---:|---:|---:|---:|")
    for (size, figures) in recoveries {
        print(
            "| \(size) | \(milliseconds(figures[0])) | "
                + String(format: "%.0f / %.0f", figures[1], figures[2])
                + " | \(Int(figures[3])) of \(Int(figures[3]) + 1) |")
    }
}

/// `stall-recover`: compacts the store `stall-use` left, saves three new values (three journal
/// records), damages two bits of the second record, and times `recover(directory:)`, which reads
/// the store whole and writes it as one snapshot; prints its time and the memory it added, left
/// after it and at its peak.
func runStallRecover(size: Int) async throws {
    let directory = try benchDirectory()
    let repository = try BenchJournalUUID.EntryRepository(directory: directory)
    // The journal holds these three records only.
    try await repository.compact()
    let stored = await repository.count
    for entry in withUUIDs(spreadEntries(3, among: size), salt: 5) {
        try await repository.save(entry)
    }
    let journal = repository.journalURL
    await repository.close()
    var bytes = try Data(contentsOf: journal)
    guard let first = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
        throw BenchError("the journal holds no record")
    }
    let second = first + 1
    bytes[second + 2] ^= 0x03  // Two bits: one alone is put back from the record's checksum.
    try bytes.write(to: journal)
    let before = residentMemoryMiB()
    resetPeakMemory()
    var recovery: StoreRecovery?
    let seconds = try time {
        recovery = try BenchJournalUUID.EntryRepository.recover(directory: directory)
    }
    let peak = peakMemorySinceResetMiB() - before
    guard recovery?.setAside.count == 1, recovery?.valuesKept == stored + 2 else {
        throw BenchError("recover kept \(String(describing: recovery))")
    }
    print(seconds, residentMemoryMiB() - before, peak, stored + 2)
}
