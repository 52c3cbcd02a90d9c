public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#endif

/// What can go wrong when a ``LabelRepository`` opens, reads or writes its file.
public nonisolated enum LabelRepositoryError: Error, Equatable, CustomStringConvertible {
    /// The file exists but cannot be read (a folder, a broken link, no permission).
    case unreadable(file: URL, reason: String)
    /// The file's checksum does not match, or its bytes are not JSON. It is left as it is.
    case corrupt(file: URL, offset: Int, reason: String)
    /// The file is intact, but its values do not fit the current ``Label``. Left as it is.
    case incompatible(file: URL, reason: String)
    /// A newer version of the app wrote the file, in a schema this build does not know.
    case newerSchema(file: URL, found: Int, supported: Int)
    /// Another repository, in this process or another one, has the folder open.
    case locked(file: URL)
    /// The file cannot be written; the repository keeps what it held before the call.
    case unwritable(file: URL, reason: String)
    /// ``LabelRepository/close()`` was called; open a new repository to write again.
    case closed

    public var description: String {
        switch self {
        case .unreadable(let file, let reason): "cannot read \(file.path): \(reason)"
        case .corrupt(let file, _, let reason):
            "\(file.path) is damaged and was left untouched: \(reason)"
        case .incompatible(let file, let reason):
            "\(file.path) holds Label values that do not fit the current model and was left "
                + "untouched: \(reason). Do not delete it: change the model so it reads them "
                + "again (a default, an optional field, --rename), or, when a newer build wrote "
                + "them, update this one"
        case .newerSchema(let file, let found, let supported):
            "\(file.path) has schema version \(found), newer than \(supported); update the app"
        case .locked(let file):
            "\(file.path) is held by another LabelRepository; close that one first"
        case .unwritable(let file, let reason): "cannot write \(file.path): \(reason)"
        case .closed: "the LabelRepository was closed"
        }
    }
}

/// Stores ``Label`` values: in memory for fast reads, in one JSON file for durability.
///
/// Every change rewrites the whole file before the call returns (a temporary file, synced,
/// renamed over the old one): a crash leaves the old file or the new one, never a mix. The file
/// ends with a CRC-32 line, so a damaged byte throws instead of being read. A writer holds a
/// lock on `labels.lock` while it is open. Simple, but a save costs more as the store
/// grows: the journal store (`--storage journal`) does not, and adds what an app needs.
public actor LabelRepository {
    /// The file that holds the values, in the repository's folder.
    public static let fileName = "labels.json"
    /// The file a writer locks, in the repository's folder.
    public static let lockFileName = "labels.lock"
    /// The schema version of the stored values; a file with a higher one is refused.
    public static let schemaVersion = 1
    /// The JSON keys this build knows; a stored value's others are a newer build's fields.
    static let knownKeys: Set<String> = [
        "color",
        "id",
        "name",
    ]

    /// The file that holds the stored values.
    public nonisolated let fileURL: URL
    /// False for a store in memory only; a reader's writes throw.
    private let isOnDisk: Bool, isReader: Bool
    /// The values, sorted by id (``precedes(_:_:)``).
    private(set) var values: [Label]
    /// A newer build's fields, by id, as `"key":value`: written back with their value.
    private var unknownMembers: [Int: [Data]] = [:]
    private var lock: FileHandle?
    private var stamp: String?  // A reader's: the file it read last.
    private(set) var isClosed = false
    /// Each stream of ``changes()``, and the revision of the last change published.
    private var observers: [Int: @Sendable (Int, Change) -> Void] = [:]
    private(set) var revision = 0
    private var lastObserver = 0, followsWriter = false

    /// Opens the store in `directory` (created if missing): takes the lock, then reads the file.
    /// A missing file is an empty store; a damaged one throws, and is never taken for empty.
    public init(directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        try StoreFile.checkNotMovedAway(fileURL)
        lock = try StoreFile.lock(directory)
        try StoreFile.checkNotMovedAway(fileURL)  // Again: a newer build may have moved it since.
        try? FileManager.default.removeItem(at: fileURL.appendingPathExtension("tmp"))
        let file = try StoreFile.load(fileURL, keepingUnknown: true)
        (isOnDisk, isReader) = (true, false)
        (values, unknownMembers) = (file.values, file.unknown)
        // A file without a checksum is rewritten with one now, or by the next save.
        if !file.isCurrent { try? StoreFile.store(values, unknownMembers, to: fileURL) }
    }

    /// Opens the store in `directory` to read only (a widget, while the app writes): no lock, no
    /// writes; ``refresh()`` reads what the writer committed since.
    public init(readingFrom directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        try StoreFile.checkNotMovedAway(fileURL)
        stamp = StoreFile.stamp(fileURL)
        (isOnDisk, isReader) = (false, true)
        values = try StoreFile.load(fileURL, keepingUnknown: false).values
    }

    /// A repository in memory only, for previews and tests: no folder, lock or file.
    public nonisolated static func inMemory(_ values: [Label] = []) -> LabelRepository {
        LabelRepository(inMemory: values)
    }

    private init(inMemory values: [Label]) {
        fileURL = URL(fileURLWithPath: "/dev/null")
        (isOnDisk, isReader) = (false, false)
        self.values = Self.sorted(values)
    }

    /// Opens the store in ``defaultDirectory()``.
    public init() throws { try self.init(directory: Self.defaultDirectory()) }

    /// The folder `Swift6Defaults` in Application Support (`~/.local/share` on Linux).
    public static func defaultDirectory() throws -> URL {
        try FileManager.default.url(
            for: .applicationSupportDirectory, in: .userDomainMask, appropriateFor: nil,
            create: true
        ).appendingPathComponent("Swift6Defaults", isDirectory: true)
    }

    /// Releases the folder's lock; later writes throw ``LabelRepositoryError/closed``.
    public func close() async {
        isClosed = true
        try? lock?.close()
    }

    /// For a reader: reads the file again when the writer replaced it, and publishes what
    /// differs to ``changes()``. Nothing happens for a writer.
    public func refresh() throws {
        guard !isClosed else { throw LabelRepositoryError.closed }
        guard isReader, case let now = StoreFile.stamp(fileURL), now != stamp else {
            return
        }
        let read = try StoreFile.load(fileURL, keepingUnknown: false).values
        let before = Dictionary(values.map { ($0.id, $0) }, uniquingKeysWith: { $1 })
        let kept = Set(read.map(\.id))
        let deleted = values.map(\.id).filter { !kept.contains($0) }
        let saved = read.filter { before[$0.id] != $0 }
        (values, stamp) = (read, now)
        if !deleted.isEmpty { publish(.deleted(deleted)) }
        if !saved.isEmpty { publish(.saved(saved)) }
    }

    /// Where the value with `id` is in ``values``, or where it would go.
    func position(of id: Int) -> (index: Int, isThere: Bool) {
        var (low, high) = (0, values.count)
        while low < high {
            let middle = (low + high) / 2
            if Self.precedes(values[middle].id, id) { low = middle + 1 } else { high = middle }
        }
        return (low, low < values.count && values[low].id == id)
    }

    /// `values` sorted by id; of values with the same id, the last.
    static func sorted(_ values: [Label]) -> [Label] {
        Dictionary(values.map { ($0.id, $0) }, uniquingKeysWith: { $1 }).values
            .sorted { precedes($0.id, $1.id) }
    }

    /// Applies `change` to a copy of the values, writes the copy, and only then keeps it and
    /// publishes the change: when the write fails, the store keeps what it had.
    func commit(_ change: Change) throws {
        guard !isClosed else { throw LabelRepositoryError.closed }
        guard !isReader else {
            throw LabelRepositoryError.unwritable(file: fileURL, reason: "a reader only reads")
        }
        var (changed, unknown) = (values, unknownMembers)
        switch change {
        case .saved(let saved):
            let ids = Set(saved.map(\.id))
            changed = Self.sorted(changed.filter { !ids.contains($0.id) } + saved)
        case .deleted(let ids):
            let deleted = Set(ids)
            changed.removeAll { deleted.contains($0.id) }
            for id in ids { unknown[id] = nil }
        case .removedAll: (changed, unknown) = ([], [:])
        }
        if isOnDisk { try StoreFile.store(changed, unknown, to: fileURL) }
        (values, unknownMembers) = (changed, unknown)
        publish(change)
    }

    private func publish(_ change: Change) {
        revision += 1
        for send in observers.values { send(revision, change) }
    }

    /// A stream of the changes published from now on, each with its revision, made into an
    /// `Element`; it ends when its reader's task is cancelled.
    func stream<Element: Sendable>(
        _ element: @escaping @Sendable (Int, Change) -> Element
    ) -> AsyncStream<Element> {
        let (stream, continuation) = AsyncStream.makeStream(of: Element.self)
        lastObserver += 1
        let key = lastObserver
        observers[key] = { continuation.yield(element($0, $1)) }
        continuation.onTermination = { [weak self] _ in
            Task { await self?.stopObserving(key) }
        }
        if isReader, !followsWriter {  // An observed reader refreshes every 0.1 s.
            followsWriter = true
            Task { [weak self] in
                repeat {
                    try? await Task.sleep(nanoseconds: 100_000_000)
                } while await self?.refreshWhileObserved() == true
            }
        }
        return stream
    }

    private func stopObserving(_ key: Int) { observers[key] = nil }

    private func refreshWhileObserved() -> Bool {
        followsWriter = !observers.isEmpty && !isClosed
        if followsWriter { try? refresh() }  // Tried again at the next look.
        return followsWriter
    }

    /// How many streams from ``changes()`` are open.
    public var observerCount: Int { observers.count }

    /// What ``recover(directory:)`` did: how many values it kept; how many stretches of the file
    /// between them did not read as values (each held one value or more: they are in the copy
    /// only); and the file's copy.
    public nonisolated struct Recovery: Sendable, Equatable {
        public let valuesKept: Int, stretchesSetAside: Int, copy: URL?
    }

    /// Takes back a store that opening refuses as `.corrupt` (no repository may have it open):
    /// it copies the file beside itself (`labels.json.damaged`, never removed), keeps the
    /// values that still decode, and writes a sound file. A sound store is left as it is.
    public nonisolated static func recover(directory: URL) throws -> Recovery {
        let file = directory.appendingPathComponent(fileName)
        try StoreFile.checkNotMovedAway(file)
        let lock = try StoreFile.lock(directory)
        defer { try? lock.close() }
        try StoreFile.checkNotMovedAway(file)  // Again: a newer build may have moved it meanwhile.
        guard let data = try StoreFile.readIfPresent(file) else {
            return Recovery(valuesKept: 0, stretchesSetAside: 0, copy: nil)
        }
        do {
            let count = try StoreFile.load(data, of: file, keepingUnknown: false).values.count
            return Recovery(valuesKept: count, stretchesSetAside: 0, copy: nil)
        } catch LabelRepositoryError.corrupt {
            // Damage, which this mends. Other errors, recovering cannot mend.
        }
        // The version the file ends with: a newer build's file is refused, unless the checksum
        // holds with one byte of its digits changed back (the damage was there).
        var contents = data
        if let digits = StoreFile.versionDigits(in: data),
            let found = Int(String(decoding: data[digits], as: UTF8.self)), found > schemaVersion
        {
            // One byte of the digits changed back: to a digit, a space, a line break, a brace.
            let mended = digits.flatMap { position in
                " \n}0123456789".utf8.map { byte in
                    var mended = data
                    mended[position] = byte
                    return mended
                }
            }
            guard
                let sound = mended.first(where: {
                    (try? StoreFile.load($0, of: file, keepingUnknown: false)) != nil
                })
            else {
                throw LabelRepositoryError.newerSchema(
                    file: file, found: found, supported: schemaVersion)
            }
            contents = sound
        }
        let (values, unknown, stretches) = StoreFile.salvage(contents)
        // The file as it was, beside it: `.damaged` (then `.damaged-2`, …: never replaced).
        var (copy, number) = (file.appendingPathExtension("damaged"), 1)
        while FileManager.default.fileExists(atPath: copy.path) {
            number += 1
            copy = file.appendingPathExtension("damaged-\(number)")
        }
        try StoreFile.create(copy, holding: data, flags: O_EXCL)
        try StoreFile.store(values, unknown, to: file)
        return Recovery(valuesKept: values.count, stretchesSetAside: stretches, copy: copy)
    }
}

extension LabelRepository {
    /// The file, as every storage of scaffold-repo reads it: `{"fields":[…],"items":[…],
    /// "schemaVersion":1}` (pretty-printed, sorted keys), then the line `crc32 <8 hex digits>`.
    nonisolated enum StoreFile {
        /// The file's JSON; a bare array is a file from before the schema version was stored.
        private struct Contents: Codable {
            var schemaVersion = LabelRepository.schemaVersion
            // The keys this build knows; none in a file that keeps a newer build's fields.
            var fields: [String]? = LabelRepository.knownKeys.sorted()
            var items: [Label]

            init(items: [Label]) { self.items = items }

            init(from decoder: any Swift.Decoder) throws {
                guard let container = try? decoder.container(keyedBy: CodingKeys.self) else {
                    (schemaVersion, fields, items) = (1, nil, try [Label](from: decoder))
                    return
                }
                schemaVersion = try container.decode(Int.self, forKey: .schemaVersion)
                guard schemaVersion <= LabelRepository.schemaVersion else {
                    throw NewerSchema(found: schemaVersion)
                }
                fields = try container.decodeIfPresent([String].self, forKey: .fields)
                items = try container.decode([Label].self, forKey: .items)
            }
        }

        private struct NewerSchema: Error { let found: Int }

        /// Writes `values`, each with its newer build's fields, over `file`, then its checksum line.
        static func store(_ values: [Label], _ unknown: [Int: [Data]], to file: URL) throws {
            let encoder = JSONEncoder()
            var json = Data(#"{"items":["#.utf8)
            do {
                if unknown.isEmpty {
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    json = try encoder.encode(Contents(items: values))
                } else {  // On one line, each value's newer fields after its own, and no `fields`.
                    encoder.outputFormatting = [.sortedKeys]
                    for (index, value) in values.enumerated() {
                        let members =
                            [try encoder.encode(value).dropLast()] + (unknown[value.id] ?? [])
                        json += Data((index == 0 ? "" : ",").utf8)
                        json += Data(members.joined(separator: Data(",".utf8))) + Data("}".utf8)
                    }
                    json += Data(#"],"schemaVersion":\#(LabelRepository.schemaVersion)}"#.utf8)
                }
            } catch {
                throw LabelRepositoryError.unwritable(file: file, reason: "\(error)")
            }
            let crc = String(checksum(json), radix: 16)
            let line = "\ncrc32 " + String(repeating: "0", count: 8 - crc.count) + crc + "\n"
            try replace(file, with: json + Data(line.utf8))
        }

        /// The values of `file`, and a newer build's fields when `keepingUnknown`; `isCurrent` is
        /// false for a file without a checksum. A missing file is an empty store.
        static func load(_ file: URL, keepingUnknown: Bool) throws
            -> (values: [Label], unknown: [Int: [Data]], isCurrent: Bool)
        {
            guard let data = try readIfPresent(file) else { return ([], [:], true) }
            return try load(data, of: file, keepingUnknown: keepingUnknown)
        }

        static func load(_ data: Data, of file: URL, keepingUnknown: Bool) throws
            -> (values: [Label], unknown: [Int: [Data]], isCurrent: Bool)
        {
            let corrupt = { LabelRepositoryError.corrupt(file: file, offset: 0, reason: $0) }
            // A file without the checksum line was written before files had one.
            var (json, isChecked) = (data, false)
            if data.count >= 16, data.suffix(16).starts(with: Data("\ncrc32 ".utf8)),
                data.last == 10
            {
                (json, isChecked) = (data.dropLast(16), true)
                let digits = String(decoding: data.suffix(9).dropLast(), as: UTF8.self)
                guard UInt32(digits, radix: 16) == checksum(json) else {
                    throw corrupt("wrong checksum")
                }
            }
            let stored: Contents
            do {
                stored = try JSONDecoder().decode(Contents.self, from: json)
            } catch let newer as NewerSchema {
                throw LabelRepositoryError.newerSchema(
                    file: file, found: newer.found, supported: LabelRepository.schemaVersion)
            } catch let error as DecodingError {
                // Not JSON (an earlier release's bare NaN, even under its checksum), or a value
                // that does not read and no checksum vouches for: damage, which `recover` takes
                // back. Else the model changed.
                if case .dataCorrupted(let context) = error,
                    !isChecked || context.codingPath.isEmpty
                {
                    throw corrupt(reason(error))
                }
                throw LabelRepositoryError.incompatible(file: file, reason: reason(error))
            }
            let values = LabelRepository.sorted(stored.items)
            guard values.count == stored.items.count else { throw corrupt("an id appears twice") }
            var unknown: [Int: [Data]] = [:]
            // Only a file of this version whose writer knew other keys can hold a newer build's.
            if keepingUnknown, stored.schemaVersion == LabelRepository.schemaVersion,
                stored.fields?.allSatisfy(LabelRepository.knownKeys.contains) != true,
                case (let elements, true) = items(in: json), elements.count == stored.items.count
            {
                for (value, element) in zip(stored.items, elements) {
                    unknown[value.id] = unknownMembers(of: element)
                }
            }
            let isCurrent = isChecked && stored.schemaVersion == LabelRepository.schemaVersion
            return (values, unknown, isCurrent)
        }

        /// Why JSON did not decode, in words, and where (`items.Index 3.title`).
        private static func reason(_ error: DecodingError) -> String {
            let path = { (keys: [any CodingKey]) in keys.map(\.stringValue).joined(separator: ".") }
            switch error {
            case .keyNotFound(let key, let context):
                return "no value for \(path(context.codingPath + [key]))"
            case .valueNotFound(_, let context), .typeMismatch(_, let context),
                .dataCorrupted(let context):
                return (context.codingPath.isEmpty ? "" : path(context.codingPath) + ": ")
                    + context.debugDescription
            @unknown default: return "\(error)"
            }
        }

        /// The file's bytes, or nil when there is none. A folder or a link to nothing throws: taken
        /// for an empty store, the next save would overwrite what it stands for.
        static func readIfPresent(_ file: URL) throws -> Data? {
            let unreadable = { LabelRepositoryError.unreadable(file: file, reason: $0) }
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: file.path, isDirectory: &isFolder) else {
                let link = try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)
                if link != nil { throw unreadable("it is a link to a file that does not exist") }
                return nil
            }
            if isFolder.boolValue { throw unreadable("it is a folder, not a file") }
            do {
                return try Data(contentsOf: file)
            } catch {
                throw unreadable(error.localizedDescription)
            }
        }

        /// Refuses a folder whose values a newer build of the app moved to another storage: it
        /// renamed this file `<name>.importing`, then `<name>.imported`. This build would see none.
        static func checkNotMovedAway(_ file: URL) throws {
            let exists = { FileManager.default.fileExists(atPath: file.path + $0) }
            let isEmpty = ((try? readIfPresent(file))??.isEmpty) ?? true
            guard exists(".importing") || isEmpty && exists(".imported") else { return }
            let moved = file.path + (exists(".importing") ? ".importing" : ".imported")
            throw LabelRepositoryError.unreadable(
                file: URL(fileURLWithPath: moved),
                reason: "a newer build of the app moved the values to another storage; update this "
                    + "build. If it is the newest (generated again after destroy), remove the file")
        }

        /// What tells a file that a rename replaced from the one read before: inode, size, time.
        static func stamp(_ file: URL) -> String? {
            let info = try? FileManager.default.attributesOfItem(atPath: file.path)
            guard let info else { return nil }
            let time = (info[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            return "\(info[.systemFileNumber] ?? 0) \(info[.size] ?? 0) \(time)"
        }

        private static let table: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { crc, _ in
                crc & 1 == 1 ? 0xEDB8_8320 ^ crc >> 1 : crc >> 1
            }
        }

        /// The CRC-32 of `bytes`, with the polynomial of zip and PNG.
        static func checksum(_ bytes: Data) -> UInt32 {
            let table = Self.table
            return ~bytes.reduce(~0) { crc, byte in
                table[Int(UInt8(truncatingIfNeeded: crc) ^ byte)] ^ crc >> 8
            }
        }

        // MARK: A damaged file's values, and a newer build's fields

        /// Where the digits of the file's schema version are: after its last `"schemaVersion"`
        /// key, and only when nothing but the closing brace and the checksum line follows them
        /// (a key of that name inside a value, or a file cut short, has none; so has a file of
        /// a release from before checksums, which no newer build writes).
        static func versionDigits(in data: Data) -> Range<Int>? {
            let key = #""schemaVersion""#.utf8
            guard let found = data.range(of: Data(key), options: .backwards) else { return nil }
            let spaces = Set(" \n\r\t".utf8)
            var index = found.upperBound
            while index < data.endIndex, spaces.contains(data[index]) { index += 1 }
            guard index < data.endIndex, data[index] == UInt8(ascii: ":") else { return nil }
            index += 1
            while index < data.endIndex, spaces.contains(data[index]) { index += 1 }
            let start = index
            while index < data.endIndex, (48...57).contains(data[index]) { index += 1 }
            let end = index
            while index < data.endIndex, spaces.contains(data[index]) { index += 1 }
            let rest = data[index...]
            guard start < end, rest.first == UInt8(ascii: "}") else { return nil }
            let tail = rest.dropFirst()
            guard tail.starts(with: Data("\ncrc".utf8)) else { return nil }
            return start..<end
        }

        /// The values of a damaged file that still decode, in id order, each with its newer
        /// build's fields, and how many stretches of the file did not read as values. A value
        /// starts at a `{` (not one after `:`) and ends before `,` or `]`; damage is passed over up
        /// to the next value that decodes, so a damaged byte costs the value that holds it. The
        /// file holds its values in id order: one whose (damaged) id breaks the longest run in
        /// order is set aside too, and an id read twice sets both aside, rather than take one
        /// value for another.
        static func salvage(_ data: Data) -> (
            values: [Label], unknown: [Int: [Data]], stretches: Int
        ) {
            let bytes = [UInt8](data)
            let (brace, spaces) = (UInt8(ascii: "{"), Set(" \n\r\t".utf8))
            let separators = spaces.union(",[]".utf8)
            var read: [(value: Label, element: [UInt8])] = []
            var stretches = 0
            // Where the array `items` starts; unknown when damage hit its key.
            let key = data.range(of: Data(#""items""#.utf8))?.upperBound
            var end = key.flatMap { bytes[$0...].firstIndex(of: UInt8(ascii: "[")) } ?? Int.max
            var next = min(1, bytes.count)
            while let start = bytes[next...].firstIndex(of: brace) {
                next = start + 1
                // A `{` after `:` is an object inside a value, never a value of the store, but
                // after `"items" :` (its `[` damaged).
                let colon = bytes[..<start].lastIndex { !spaces.contains($0) }
                if let colon, bytes[colon] == UInt8(ascii: ":"),
                    !bytes[..<colon].reversed().drop(while: spaces.contains)
                        .starts(with: #""items""#.utf8.reversed())
                {
                    continue
                }
                var reader = JSONReader(bytes: bytes[start...])
                guard let element = reader.value(),
                    let after = reader.bytes.first(where: { !spaces.contains($0) }),
                    after == UInt8(ascii: ",") || after == UInt8(ascii: "]"),
                    let value = try? JSONDecoder().decode(Label.self, from: Data(element))
                else { continue }
                // What lies between the last value and this one, but commas, is damage.
                if !bytes[min(end, start)..<start].allSatisfy(separators.contains) {
                    stretches += 1
                }
                read.append((value, element))
                (next, end) = (reader.bytes.startIndex, reader.bytes.startIndex)
            }
            // After the last value: up to the schema version, only the array's end.
            let version = versionDigits(in: data)
            let versionKey = version.flatMap {
                data[..<$0.lowerBound].range(
                    of: Data(#""schemaVersion""#.utf8), options: .backwards)
            }
            let stop = versionKey.map { max($0.lowerBound, min(end, bytes.count)) } ?? bytes.count
            if end < stop, !bytes[end..<stop].allSatisfy(separators.contains) { stretches += 1 }
            // A file cut short (its version is not at its end): what followed is gone.
            if data.first == brace, version == nil { stretches += 1 }
            if read.isEmpty, bytes.dropFirst().contains(brace) { stretches = 1 }
            // An id twice: which one damage made cannot be told, so neither is kept.
            let ids = read.map(\.value.id)
            let repeated = Dictionary(ids.map { ($0, 1) }, uniquingKeysWith: +).filter { $1 > 1 }
            let kept = inOrder(ids).filter { repeated[ids[$0]] == nil }
            stretches += read.count - kept.count
            var (values, unknown) = ([Label](), [Int: [Data]]())
            for (position, (value, element)) in read.enumerated() where kept.contains(position) {
                values.append(value)
                unknown[value.id] = unknownMembers(of: element)
            }
            return (values, unknown, stretches)
        }

        /// The positions of the longest run of `ids` in increasing order (``precedes(_:_:)``).
        static func inOrder(_ ids: [Int]) -> Set<Int> {
            // `ends[k]`: the position of the last id of the best run of k + 1 ids so far.
            var (ends, previous) = ([Int](), [Int](repeating: -1, count: ids.count))
            for (position, id) in ids.enumerated() {
                var (low, high) = (0, ends.count)
                while low < high {
                    let middle = (low + high) / 2
                    if LabelRepository.precedes(ids[ends[middle]], id) {
                        low = middle + 1
                    } else {
                        high = middle
                    }
                }
                if low > 0 { previous[position] = ends[low - 1] }
                if low == ends.count { ends.append(position) } else { ends[low] = position }
            }
            var (kept, position) = (Set<Int>(), ends.last ?? -1)
            while position >= 0 {
                kept.insert(position)
                position = previous[position]
            }
            return kept
        }

        /// The elements of the array `items` in `json`, and whether it reads to its end.
        static func items(in json: Data) -> (elements: [[UInt8]], isWhole: Bool) {
            var rest = json[...]
            while let key = rest.range(of: Data(#""items""#.utf8)) {
                rest = rest[key.upperBound...]
                var reader = JSONReader(bytes: ArraySlice(rest))
                if reader.take(":") { return reader.list("[", "]") }  // Else it was a field's name.
            }
            return ([], false)
        }

        /// The members (`"key":value`) of a value's JSON that this build does not know; nil for
        /// none.
        static func unknownMembers(of element: [UInt8]) -> [Data]? {
            var reader = JSONReader(bytes: element[...])
            let (members, isWhole) = reader.list("{", "}")
            let unknown = members.map { Data($0) }.filter { member in
                let key = member.dropFirst().prefix { $0 != UInt8(ascii: "\"") }
                return !LabelRepository.knownKeys.contains(String(decoding: key, as: UTF8.self))
            }
            return isWhole && !unknown.isEmpty ? unknown : nil
        }

        // MARK: Durable writes, and the lock

        /// Replaces `file` with `data`: written to `<file>.tmp`, synced, renamed over `file`, then
        /// the folder synced. A crash leaves the old file or the new one; a throw, the old one.
        private static func replace(_ file: URL, with data: Data) throws {
            let temporary = file.appendingPathExtension("tmp")
            try create(temporary, holding: data, flags: O_TRUNC)
            guard rename(temporary.path, file.path) == 0 else {
                let reason = lastError
                unlink(temporary.path)
                throw LabelRepositoryError.unwritable(file: file, reason: reason)
            }
            syncFolder(file.deletingLastPathComponent())
        }

        /// Writes `data` to `file` and flushes it to the drive (`F_FULLFSYNC` on Apple platforms,
        /// where `fsync` stops at its cache); removes it when that fails.
        static func create(_ file: URL, holding data: Data, flags: Int32) throws {
            let descriptor = open(file.path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0o644)
            defer { if descriptor >= 0 { Foundation.close(descriptor) } }
            guard descriptor >= 0, writeAll(data, to: descriptor), flush(descriptor) else {
                let reason = lastError
                // On a full disk, the file would hold the space.
                if descriptor >= 0 { unlink(file.path) }
                throw LabelRepositoryError.unwritable(file: file, reason: reason)
            }
        }

        /// Writes every byte of `data`; false, with `errno` saying why, when the system takes no
        /// more (a full disk takes part of it first, then refuses).
        private static func writeAll(_ data: Data, to descriptor: Int32) -> Bool {
            data.withUnsafeBytes { bytes in
                var offset = 0
                while offset < bytes.count {
                    let (start, rest) = (bytes.baseAddress! + offset, bytes.count - offset)
                    let written = write(descriptor, start, rest)
                    if written < 0, errno == EINTR { continue }
                    guard written > 0 else { return false }
                    offset += written
                }
                return true
            }
        }

        private static func flush(_ descriptor: Int32) -> Bool {
            #if canImport(Darwin)
                if fcntl(descriptor, F_FULLFSYNC) == 0 { return true }
            #endif
            return fsync(descriptor) == 0
        }

        /// Syncs `folder`, so that a file renamed or created in it stays after a crash.
        private static func syncFolder(_ folder: URL) {
            let descriptor = open(folder.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            _ = flush(descriptor)
            Foundation.close(descriptor)
        }

        /// Creates `directory` when it is missing, and takes a writer's advisory lock (`flock`) on
        /// its lock file, held until the handle is closed or gone: a second writer gets `.locked`.
        static func lock(_ directory: URL) throws -> FileHandle {
            try? FileManager.default.createDirectory(
                at: directory, withIntermediateDirectories: true)
            syncFolder(directory.deletingLastPathComponent())
            let file = directory.appendingPathComponent(LabelRepository.lockFileName)
            let descriptor = open(file.path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else {
                throw LabelRepositoryError.unwritable(file: file, reason: lastError)
            }
            let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
            var attempts = 0  // A child process being started holds a copy for a moment: ~100 ms.
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                if errno == EWOULDBLOCK, attempts == 50 {
                    throw LabelRepositoryError.locked(file: file)
                }
                guard errno == EWOULDBLOCK || errno == EINTR else {
                    throw LabelRepositoryError.unwritable(file: file, reason: lastError)
                }
                attempts += 1
                usleep(2_000)
            }
            return handle
        }

        /// The error that `errno` names.
        private static var lastError: String { String(cString: strerror(errno)) }

        /// Reads JSON bytes only as far as to find where each value ends.
        private struct JSONReader {
            var bytes: ArraySlice<UInt8>
            static let spaces = Set(" \n\r\t".utf8)
            static let (opening, closing) = (Set("[{".utf8), Set("]}".utf8))

            /// Skips spaces, then `byte` when it comes next.
            mutating func take(_ byte: Swift.Unicode.Scalar) -> Bool {
                bytes = bytes.drop { Self.spaces.contains($0) }
                guard bytes.first == UInt8(ascii: byte) else { return false }
                bytes.removeFirst()
                return true
            }

            /// The value (or member, `"key":value`) that comes next, up to the `,` `]` or `}` after
            /// it, without the spaces outside its strings; nil when damage hides where it ends.
            mutating func value() -> [UInt8]? {
                var (value, depth, inString, escaped) = ([UInt8](), 0, false, false)
                let (quote, backslash) = (UInt8(ascii: "\""), UInt8(ascii: "\\"))
                let comma = UInt8(ascii: ",")
                while let byte = bytes.first {
                    if inString {  // A quote ends the string, unless a backslash escapes it.
                        inString = escaped || byte != quote
                        escaped = !escaped && byte == backslash
                    } else if depth == 0, byte == comma || Self.closing.contains(byte) {
                        break
                    } else {
                        inString = byte == quote
                        depth +=
                            Self.opening.contains(byte) ? 1 : Self.closing.contains(byte) ? -1 : 0
                    }
                    if inString || !Self.spaces.contains(byte) { value.append(byte) }
                    bytes.removeFirst()
                    // An object or array ends with its bracket, whatever damage comes after.
                    if depth == 0, !inString, Self.closing.contains(byte) { break }
                }
                return depth == 0 && !inString && !value.isEmpty ? value : nil
            }

            /// The elements of the array (or members of the object) that comes next, and whether it
            /// reads to its end.
            mutating func list(_ open: Swift.Unicode.Scalar, _ close: Swift.Unicode.Scalar)
                -> ([[UInt8]], Bool)
            {
                guard take(open) else { return ([], false) }
                if take(close) { return ([], true) }
                var elements: [[UInt8]] = []
                repeat {
                    guard let element = value() else { return (elements, false) }
                    elements.append(element)
                } while take(",")
                return (elements, take(close))
            }
        }
    }
}
