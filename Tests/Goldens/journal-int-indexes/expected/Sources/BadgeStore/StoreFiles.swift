public import Foundation

#if canImport(Darwin)
    import Darwin
#elseif canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The file handling that every repository in this module shares: the checksum that finds a
/// damaged byte, reading a file that may be missing, the lock that keeps a folder to one
/// repository at a time, and the durable writes of the journal and its snapshot. What the
/// files hold is `JournalStore.swift` or `SnapshotStore.swift`.
///
/// scaffold-repo writes one copy of this file per module, however many models the module
/// stores, and `scaffold-repo destroy` removes it with the last of them.
nonisolated enum StoreFiles {
    /// A repository's error type, in which the files report what goes wrong: each repository's
    /// error enum conforms with its cases of these names.
    nonisolated protocol Failure: Error {
        static func unreadable(file: URL, reason: String) -> Self
        static func unwritable(file: URL, reason: String) -> Self
        static func locked(file: URL) -> Self
        static func corrupt(file: URL, offset: Int, reason: String) -> Self
        static func incompatible(file: URL, reason: String) -> Self
        static func newerSchema(file: URL, found: Int, supported: Int) -> Self
        static func notMigrated(file: URL, field: String, migration: String, reason: String)
            -> Self
        static var closed: Self { get }
        /// The repository was suspended (`suspend()`), and is not resumed yet.
        static var suspended: Self { get }
    }

    /// The error for stored JSON that did not decode. A file whose checksum matched is intact,
    /// so its values do not fit the model; so do values of the wrong type or with keys missing
    /// in an older file without a checksum, whose broken JSON is damage. A value that a
    /// migration did not carry over is reported as that.
    static func misfit<Reported: Failure>(
        _ error: any Error, file: URL, json: Data, isChecked: Bool, reporting _: Reported.Type
    ) -> Reported {
        if let unmigrated = error as? UnmigratedValue {
            return unmigrated.failure(file: file, reporting: Reported.self)
        }
        if holdsABareNaN(json) { return .corrupt(file: file, offset: 0, reason: bareNaN) }
        if !isChecked, case DecodingError.dataCorrupted = error {
            return .corrupt(file: file, offset: 0, reason: decodingReason(error))
        }
        return .incompatible(file: file, reason: decodingReason(error))
    }

    /// Why stored JSON did not decode, in words: what is missing or wrong, and where
    /// (`items[3].title`), in place of the decoding error's debug dump; the path leaves out its
    /// first `dropped` keys. Any other error is described as it describes itself.
    static func decodingReason(_ error: any Error, droppingFirst dropped: Int = 0) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func place(_ path: [any CodingKey]) -> String {
            path.dropFirst(dropped).reduce(into: "") { place, key in
                if let index = key.intValue, key.stringValue.hasPrefix("Index ") {
                    place += "[\(index)]"
                } else {
                    place += (place.isEmpty ? "" : ".") + key.stringValue
                }
            }
        }
        func described(_ context: DecodingError.Context) -> String {
            let path = place(context.codingPath)
            var reason =
                path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
            // On Apple platforms, where the JSON broke ("Unexpected character … around line 1").
            if let underlying = context.underlyingError as NSError?,
                let detail = underlying.userInfo[NSDebugDescriptionErrorKey] as? String
            {
                reason += " (\(detail))"
            }
            return reason
        }
        switch decoding {
        case .keyNotFound(let key, let context):
            return "no value for \(place(context.codingPath + [key]))"
        case .valueNotFound(_, let context), .typeMismatch(_, let context),
            .dataCorrupted(let context):
            return described(context)
        @unknown default:
            return "\(error)"
        }
    }

    /// The file's bytes, or nil when there is no file. A file that cannot be read, a folder and
    /// a link to nothing all throw: none of them is an empty store, and taking one for an empty
    /// store would let the next save overwrite what it holds.
    static func readIfPresent<Reported: Failure>(
        _ file: URL, reporting _: Reported.Type
    ) throws -> Data? {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: file.path, isDirectory: &isDirectory),
            isDirectory.boolValue
        {
            throw Reported.unreadable(file: file, reason: "it is a folder, not a file")
        }
        do {
            return try Data(contentsOf: file)
        } catch let error as CocoaError where error.code == .fileReadNoSuchFile {
            // A link to a file that is gone may point to a volume that is not mounted.
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: file.path)) == nil
            else {
                throw Reported.unreadable(
                    file: file, reason: "it is a symbolic link to a file that does not exist")
            }
            return nil
        } catch {
            throw Reported.unreadable(file: file, reason: systemReason(error))
        }
    }

    /// The bytes of `file` from `offset` to its end; nil when the file is missing or shorter
    /// than `offset` (it was cut: the caller reads it whole again).
    static func read<Reported: Failure>(
        _ file: URL, from offset: Int, reporting _: Reported.Type
    ) throws -> Data? {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw Reported.unreadable(file: file, reason: lastError())
        }
        defer { closeDescriptor(descriptor) }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var position = offset
        while true {
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(descriptor, bytes.baseAddress, bytes.count, off_t(position))
            }
            if count < 0 {
                guard errno == EINTR else {
                    throw Reported.unreadable(file: file, reason: lastError())
                }
                continue
            }
            if count == 0 { break }
            data.append(contentsOf: buffer[0..<count])
            position += count
        }
        if data.isEmpty, lseek(descriptor, 0, SEEK_END) < off_t(offset) { return nil }
        return data
    }

    /// The error a write to a store opened for reading (`init(readingFrom:)`) throws.
    static func readOnly<Reported: Failure>(_ file: URL, reporting _: Reported.Type) -> Reported {
        Reported.unwritable(
            file: file,
            reason: "this repository was opened with init(readingFrom:) and only reads; the "
                + "writer opens the folder with init(directory:)")
    }

    /// What tells a file replaced by a rename, or rewritten, from the one read before: its
    /// inode, size and modification time; nil when there is no file.
    nonisolated struct Stamp: Equatable {
        // UInt64, not Int: on a watch (32-bit Int) an inode past 2^31 would make no stamp.
        let inode: UInt64
        let size: UInt64
        let modified: Date

        init?(_ file: URL) {
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: file.path),
                let inode = attributes[.systemFileNumber] as? UInt64,
                let size = attributes[.size] as? UInt64,
                let modified = attributes[.modificationDate] as? Date
            else { return nil }
            (self.inode, self.size, self.modified) = (inode, size, modified)
        }
    }

    /// The Application Support folder of the App Group container `group`, which an app shares
    /// with its widgets and extensions. On Apple platforms the target needs the App Groups
    /// capability with `group`; Linux has no App Groups, and has the folder `group` in the
    /// user's data folder (`$XDG_DATA_HOME` or `~/.local/share`) instead.
    static func appGroupFolder<Reported: Failure>(
        _ group: String, reporting _: Reported.Type
    ) throws -> URL {
        let named = URL(fileURLWithPath: group)
        guard !group.isEmpty, !group.contains("/") else {
            throw Reported.unreadable(
                file: named, reason: "an App Group is a name like group.com.example.notes")
        }
        #if canImport(Darwin)
            guard
                let container = FileManager.default.containerURL(
                    forSecurityApplicationGroupIdentifier: group)
            else {
                throw Reported.unreadable(
                    file: named,
                    reason: "this target has no App Group \(group): add it with the App Groups "
                        + "capability to every target that opens the store")
            }
            return container.appendingPathComponent("Library/Application Support")
        #else
            do {
                return try FileManager.default
                    .url(
                        for: .applicationSupportDirectory, in: .userDomainMask,
                        appropriateFor: nil, create: true
                    )
                    .appendingPathComponent(group, isDirectory: true)
            } catch {
                throw Reported.unreadable(file: named, reason: "\(error)")
            }
        #endif
    }

    /// Creates `folder` when it is missing, and syncs the folder that holds it: a new folder is
    /// only durable once its parent is synced.
    static func createFolder<Reported: Failure>(
        _ folder: URL, reporting _: Reported.Type
    ) throws {
        guard !FileManager.default.fileExists(atPath: folder.path) else { return }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw Reported.unwritable(file: folder, reason: systemReason(error))
        }
        syncFolder(folder.deletingLastPathComponent())
    }

    /// The operating system's reason for a failed Foundation file call ("Permission denied",
    /// "No space left on device"), which Foundation's own description often leaves out.
    static func systemReason(_ error: any Error) -> String {
        guard let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError else {
            return error.localizedDescription
        }
        return String(cString: strerror(posix.code.rawValue))
    }

    /// `url`'s path with every link resolved (`realpath`), the same for every spelling of one
    /// file, whether it exists yet or not: its nearest folder that exists is resolved, and the
    /// rest appended. Foundation's `resolvingSymlinksInPath()` leaves `/private/var/…` as it is
    /// on Apple platforms until the file exists, and strips `/private` from then on.
    static func canonicalPath(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var missing: [String] = []
        while true {
            if let resolved = realpath(existing.path, nil) {
                defer { free(resolved) }
                var path = String(cString: resolved)
                for component in missing.reversed() {
                    path += (path.hasSuffix("/") ? "" : "/") + component
                }
                return path
            }
            guard existing.pathComponents.count > 1 else { return url.standardizedFileURL.path }
            missing.append(existing.lastPathComponent)
            existing = existing.deletingLastPathComponent()
        }
    }

    /// Replaces `url`'s contents with `data`: written to `<url>.tmp` (in its folder, made again
    /// if it was removed; with the permissions of the file it replaces), synced to the drive
    /// (`F_FULLFSYNC` on Apple platforms, where `fsync` only reaches the drive's cache), renamed
    /// over `url`, and the folder synced. Throws only when `url` is as it was; once the rename
    /// is done, the new file is in place, and a folder that cannot be synced (the rename could
    /// be lost in a crash, never half of it) is not thrown, so that the caller's memory
    /// matches the disk.
    static func replaceWhole<Reported: Failure>(
        _ url: URL, with data: Data, reporting _: Reported.Type
    ) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = url.appendingPathExtension("tmp")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let descriptor = try openFile(temporary, truncating: true)
            defer { closeDescriptor(descriptor) }
            var replaced = stat()
            if stat(url.path, &replaced) == 0 {
                _ = fchmod(descriptor, replaced.st_mode & 0o7777)
            }
            try write(data, to: descriptor, at: 0)
            try sync(descriptor)
            guard rename(temporary.path, url.path) == 0 else { throw POSIXFailure(lastError()) }
        } catch {
            // On a full disk, the temporary file would hold on to the very space that ran out.
            _ = unlink(temporary.path)
            throw Reported.unwritable(
                file: url, reason: error is POSIXFailure ? "\(error)" : systemReason(error))
        }
        syncFolder(folder)
    }

    /// `json`, as `JSONEncoder` wrote it, when a JSON reader can read it back. The encoder
    /// writes a `Decimal`'s NaN (`Decimal(1) / 0`) as a bare `NaN`, which is no JSON (a
    /// `Double`'s NaN it refuses): stored, the value could never be read, and would keep every
    /// other value of its store from opening.
    ///
    /// - Throws: `EncodingError.invalidValue` for such JSON, as the encoder does for a Double.
    static func readableJSON(_ json: Data) throws -> Data {
        guard holdsABareNaN(json) else { return json }
        throw EncodingError.invalidValue(
            Decimal.nan,
            EncodingError.Context(
                codingPath: [],
                debugDescription: "a Decimal is NaN (a division by zero?), which JSON cannot "
                    + "hold: save a number, or nil in an optional field"))
    }

    /// Why a file that holds a bare NaN (``readableJSON(_:)``), which earlier releases could
    /// save, is damaged: no JSON reader takes it, and `recover` sets the value aside.
    static let bareNaN =
        "a value holds NaN (a Decimal that is not a number, which an earlier release saved), "
        + "which JSON cannot hold"

    /// Whether `json`, as `JSONEncoder` writes it, holds `NaN` outside a string.
    static func holdsABareNaN<Bytes: DataProtocol & ContiguousBytes>(_ json: Bytes) -> Bool {
        json.withUnsafeBytes(holdsABareNaN)
    }

    /// Whether `bytes`, JSON as `JSONEncoder` writes it, hold `NaN` outside a string: the only
    /// capital letter JSON allows there is none, so the encoder's bare NaN is the only one.
    private static func holdsABareNaN(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        // `memchr` first: most JSON holds no "NaN" at all, and is passed over at its speed.
        var offset = 0
        var found = false
        while offset + 2 < bytes.count,
            let hit = memchr(start + offset, Int32(UInt8(ascii: "N")), bytes.count - offset - 2)
        {
            offset = start.distance(to: UnsafeRawPointer(hit))
            if bytes[offset + 1] == UInt8(ascii: "a"), bytes[offset + 2] == UInt8(ascii: "N") {
                found = true
                break
            }
            offset += 1
        }
        guard found else { return false }
        var isInString = false
        var isEscaped = false
        for byte in bytes {
            if isInString {
                if isEscaped {
                    isEscaped = false
                } else if byte == UInt8(ascii: "\\") {
                    isEscaped = true
                } else if byte == UInt8(ascii: "\"") {
                    isInString = false
                }
            } else if byte == UInt8(ascii: "\"") {
                isInString = true
            } else if byte == UInt8(ascii: "N") {
                return true
            }
        }
        return false
    }

    /// Syncs `folder`, so that files created or renamed in it stay after a crash; false when it
    /// cannot be.
    @discardableResult
    static func syncFolder(_ folder: URL) -> Bool {
        guard let descriptor = try? openFile(folder, forReading: true) else { return false }
        defer { closeDescriptor(descriptor) }
        return (try? sync(descriptor)) != nil
    }

    // MARK: - A storage change

    /// How long an import waits for the folder's lock when no import holds it (SQLite's busy
    /// timeout, as for another writer), before it throws `locked`.
    static let lockPatience = Swift.Duration.seconds(5)

    /// What a former store's file is renamed to while it is imported: `<name>.importing`.
    static let importingSuffix = ".importing"

    /// Moves the values a model's former store left in `directory` into its new store, once:
    /// the former files (`files`, by name) are renamed to `<name>.importing`, `read` reads the
    /// values from those names, `save` writes them into the new store, and the files are kept
    /// as `<name>.imported`. A crash at any step leaves `.importing` files, and the next open
    /// imports them again; `save` replaces values by id, so that gives the same store. With no
    /// former file, it checks two or three names and returns false.
    ///
    /// `lock` is the folder's lock file, taken for the import, for a new store that does not
    /// hold it (sqlite), waiting while another repository imports; a repository of the former
    /// storage that holds it (an older build of the app, or of its extension, still running)
    /// holds it without an import under way, and after ``lockPatience`` the open throws
    /// `locked` instead of waiting for that repository to close. Nil when the new store holds
    /// it already (the journal and snapshot stores lock the same file). With `leftoversOnly`,
    /// only `.importing` files are imported: `files` are the new store's own (a model that came
    /// back to a storage it had, whose files a crash left half moved). A damaged former file
    /// throws, and is left as `<name>.importing`, its bytes as they were.
    @discardableResult
    static func importFormerStore<Value, Reported: Failure>(
        files: [String], in directory: URL, lock: String?, leftoversOnly: Bool = false,
        reporting _: Reported.Type, read: ([String]) throws -> [Value],
        save: ([Value]) throws -> Void
    ) throws -> Bool {
        let (url, exists) = names(in: directory)
        let (importing, candidates) = formerNames(files, leftoversOnly: leftoversOnly)
        guard candidates.contains(where: exists) else { return false }
        let folderLock = try lock.map { name in
            let start = Swift.ContinuousClock.now
            return try Lock(
                url(name), reporting: Reported.self,
                waitingWhile: {
                    // Another open's import renamed the files first: it is waited for, however
                    // long it takes, to its end (the former files gone from their own names).
                    // A repository of the former storage holds them under those names.
                    Swift.ContinuousClock.now - start < lockPatience
                        || !files.contains(where: exists) || importing.contains(where: exists)
                })
        }
        defer { folderLock?.release() }
        // Another repository may have imported them while this one waited for the lock.
        guard candidates.contains(where: exists) else { return false }
        if !leftoversOnly {
            for (name, moving) in zip(files, importing) where exists(name) && !exists(moving) {
                try move(url(name), to: url(moving), reporting: Reported.self)
            }
            syncFolder(directory)
        }
        try save(try read(importing))
        for (moving, name) in zip(importing, files) where exists(moving) {
            // An empty file (a journal that an older build's open made) never replaces the
            // copy an earlier import kept.
            if exists(name + ".imported"), Stamp(url(moving))?.size == 0 {
                try? FileManager.default.removeItem(at: url(moving))
                continue
            }
            try move(url(moving), to: url(name + ".imported"), reporting: Reported.self)
        }
        // Until this rename is on the disk, a power loss could bring the files back to be
        // imported again over what is saved next. A folder that cannot be synced (a file
        // system without it) must not keep the store closed for good: tried twice, then on.
        if !syncFolder(directory) { syncFolder(directory) }
        return true
    }

    /// Takes back the files that ``importFormerStore(files:in:lock:leftoversOnly:reporting:read:save:)``
    /// would import when a damaged one stops it: under the folder's lock (`lock`, not waited
    /// for), the files still under their names are renamed to `<name>.importing` as the import
    /// renames them, and `recover` recovers the `.importing` names, holding that lock. Nil, and
    /// nothing touched, when there is nothing to import.
    static func recoverFormerStore<Reported: Failure>(
        files: [String], in directory: URL, lock: String, leftoversOnly: Bool = false,
        reporting _: Reported.Type, recover: ([String], Lock) throws -> StoreRecovery
    ) throws -> StoreRecovery? {
        let (url, exists) = names(in: directory)
        let (importing, candidates) = formerNames(files, leftoversOnly: leftoversOnly)
        guard candidates.contains(where: exists) else { return nil }
        let folderLock = try Lock(url(lock), reporting: Reported.self)
        defer { folderLock.release() }
        // Another repository may have imported them before this one took the lock.
        guard candidates.contains(where: exists) else { return nil }
        for (name, moving) in zip(files, importing) where exists(name) && !exists(moving) {
            try move(url(name), to: url(moving), reporting: Reported.self)
        }
        syncFolder(directory)
        return try recover(importing, folderLock)
    }

    /// Throws `unreadable` while files that a model's former store left in `directory` wait to
    /// be imported (`files` by name, or as `<name>.importing`): a table that a `StoreTransaction`
    /// opens, rather than the model's repository, lacks those values until the repository's
    /// first open imports them, and the import would then write over what was saved meanwhile.
    static func checkImported<Reported: Failure>(
        _ files: [String], in directory: URL, repository: String, reporting _: Reported.Type
    ) throws {
        let (url, exists) = names(in: directory)
        guard let waiting = formerNames(files, leftoversOnly: false).candidates.first(where: exists)
        else { return }
        throw Reported.unreadable(
            file: url(waiting),
            reason: "the model's values in this file of its former storage are not imported yet; "
                + "\(repository)(directory:) imports them when it first opens: open it, then run "
                + "the transaction")
    }

    /// Throws `unreadable` when a newer build of the app moved the model to another storage and
    /// imports, or imported, the store's own `files` from `directory` into it: one of them is
    /// there as `<name>.importing` (an import under way, or stopped by a crash), or none of
    /// them holds a byte (the journal store makes an empty journal when it opens) and one is
    /// there as `<name>.imported`. Call it before the store opens its files (which would make
    /// an empty journal, and a store of another storage would import what this one moved), and
    /// again, `removingEmpty`, once the store holds the folder's lock (an import may have run
    /// in between): then it first removes the empty files of `files` (the journal that opening
    /// made), which the newer build would import again over the copy it kept. Not for a model
    /// that came back to a storage it had before, whose own files its move away left so.
    static func checkNotMovedAway<Reported: Failure>(
        _ files: [String], in directory: URL, removingEmpty: Bool = false,
        reporting _: Reported.Type
    ) throws {
        let (url, exists) = names(in: directory)
        let importing = files.map { $0 + importingSuffix }.first(where: exists)
        let isEmpty = !files.contains { (Stamp(url($0))?.size ?? 0) > 0 }
        guard
            let moved = importing
                ?? (isEmpty ? files.map { $0 + ".imported" }.first(where: exists) : nil)
        else { return }
        if removingEmpty {
            for name in files where Stamp(url(name))?.size == 0 {
                try? FileManager.default.removeItem(at: url(name))
            }
        }
        throw Reported.unreadable(
            file: url(moved),
            reason: "a newer build of the app moved the model's values to another storage and "
                + "kept this file as it was; this build still reads the former storage and would "
                + "see none of them: update it (an app extension not updated yet, or an app run "
                + "from an earlier version of its code). If this build is the newest (its model "
                + "generated again after destroy), remove the file")
    }

    /// Renames each of `files` (a store's own file names) still under its name to
    /// `<name>.importing` when another of them already is: a crash between two renames of an
    /// import into another storage left them half moved, and they belong together. Call it
    /// before the store opens them, then, once it is open, its `importStore` with
    /// `leftoversOnly` (``JournalStore/importStore(snapshot:journal:in:lock:leftoversOnly:into:)``
    /// or ``SnapshotStore/importStore(file:in:lock:leftoversOnly:into:)``). `lock` is the
    /// folder's lock file; another repository holding it throws `locked`.
    static func finishHalfMove<Reported: Failure>(
        _ files: [String], in directory: URL, lock: String, reporting _: Reported.Type
    ) throws {
        let (url, exists) = names(in: directory)
        guard files.contains(where: { exists($0 + importingSuffix) }) else { return }
        // Not waiting: another repository holding the lock holds the folder, as for any open.
        let folderLock = try Lock(url(lock), reporting: Reported.self)
        defer { folderLock.release() }
        for name in files where exists(name) && !exists(name + importingSuffix) {
            try move(url(name), to: url(name + importingSuffix), reporting: Reported.self)
        }
        syncFolder(directory)
    }

    /// The URL of a file of `directory` by its name, and whether it exists.
    private static func names(
        in directory: URL
    ) -> (url: (String) -> URL, exists: (String) -> Bool) {
        let url = { (name: String) in directory.appendingPathComponent(name) }
        return (url, { FileManager.default.fileExists(atPath: url($0).path) })
    }

    /// The `.importing` names of a former store's `files`, and the names an import looks for:
    /// those alone with `leftoversOnly`, else the files' own names too.
    private static func formerNames(
        _ files: [String], leftoversOnly: Bool
    ) -> (importing: [String], candidates: [String]) {
        let importing = files.map { $0 + importingSuffix }
        return (importing, leftoversOnly ? importing : files + importing)
    }

    /// Renames `file` to `destination`, replacing what is there, as one step.
    private static func move<Reported: Failure>(
        _ file: URL, to destination: URL, reporting _: Reported.Type
    ) throws {
        guard rename(file.path, destination.path) == 0 else {
            throw Reported.unwritable(file: file, reason: lastError())
        }
    }

    // MARK: - Checksums

    /// CRC-32 (the polynomial of zip and PNG), so a damaged byte is found, not read as a value.
    nonisolated enum CRC32 {
        /// What a sealed file holds: its JSON, and whether a checksum line vouched for it.
        struct Contents {
            let json: Data
            let isChecked: Bool
        }

        struct Mismatch: Error, CustomStringConvertible {
            let description: String
        }

        /// `json`, then the line `crc32 <8 hex digits>` with its checksum.
        static func sealed(_ json: Data) -> Data {
            json + seal(checksum(json))
        }

        /// The line that follows the JSON whose checksum is `checksum`, newline before it.
        static func seal(_ checksum: UInt32) -> Data {
            Data("\ncrc32 \(format(checksum))\n".utf8)
        }

        /// The JSON of a file that `sealed` wrote, checked. A file without the checksum line
        /// was written before there was one: its JSON is returned unchecked.
        static func unsealed(_ data: Data) throws -> Contents {
            let trailer = Data("\ncrc32 ".utf8)
            let start = data.endIndex - trailer.count - 9
            guard data.count >= trailer.count + 9,
                data[start..<(start + trailer.count)] == trailer, data.last == UInt8(ascii: "\n")
            else {
                return Contents(json: data, isChecked: false)
            }
            let json = data[..<start]
            guard let expected = parse(data[(start + trailer.count)..<(data.endIndex - 1)]),
                checksum(json) == expected
            else {
                throw Mismatch(description: "wrong checksum")
            }
            return Contents(json: json, isChecked: true)
        }

        /// The JSON of a file that `sealed` wrote, its checksum not checked: to recover what a
        /// damaged file still holds. A checksum line with a damaged byte or two in it is still
        /// taken for one.
        static func unchecked(_ data: Data) -> Contents {
            let pattern = Array("\ncrc32 ".utf8)
            guard data.count >= pattern.count + 9 else {
                return Contents(json: data, isChecked: false)
            }
            let tail = Array(data.suffix(pattern.count + 9))
            let matching =
                zip(pattern, tail).filter { $0 == $1 }.count
                + tail[pattern.count..<(tail.count - 1)].filter {
                    "0123456789abcdefABCDEF".utf8.contains($0)
                }
                .count + (tail.last == UInt8(ascii: "\n") ? 1 : 0)
            guard matching >= tail.count - 2 else {
                // A checksum line a byte or two off its place (a newline lost or added): the
                // JSON ends where it begins.
                if let line = data.suffix(pattern.count + 12).lastRange(of: Data(pattern)) {
                    return Contents(json: data[..<line.lowerBound], isChecked: false)
                }
                return Contents(json: data, isChecked: false)
            }
            return Contents(json: data.dropLast(tail.count), isChecked: false)
        }

        static let table: [UInt32] = (0..<256).map { index in
            (0..<8).reduce(UInt32(index)) { crc, _ in
                crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1
            }
        }

        /// The checksum of `bytes`; with `previous`, the checksum of the bytes that gave
        /// `previous` followed by `bytes`, so a file written in parts is summed as it goes.
        static func checksum(_ bytes: Data, continuing previous: UInt32 = 0) -> UInt32 {
            let table = Self.table  // Read once: a snapshot has millions of bytes.
            var crc = ~previous
            bytes.withUnsafeBytes { buffer in
                for byte in buffer {
                    crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                }
            }
            return ~crc
        }

        /// The bit (`byte * 8 + bit`, the lowest bit of a byte first) whose flip in `bytes`
        /// makes their checksum `expected`, or nil. A CRC-32 is linear: a flipped bit changes it
        /// by a value that depends only on where the bit is, and no two places below 2^32 bits
        /// give the same one, so the place is found from the two checksums. Nil past 1 MiB,
        /// where damage to more than one bit would too often look like one.
        static func flippedBit(in bytes: Data, expected: UInt32) -> Int? {
            guard bytes.count <= 1 << 20 else { return nil }
            let difference = checksum(bytes) ^ expected
            guard difference != 0 else { return nil }
            let table = Self.table
            // For each bit of the byte looked at, what its flip does to the checksum: for the
            // last byte, the table's entry; one byte further from the end, that again through
            // one more (zero) byte.
            var effects = (0..<8).map { table[1 << $0] }
            for byte in stride(from: bytes.count - 1, through: 0, by: -1) {
                if let bit = effects.firstIndex(of: difference) { return byte * 8 + bit }
                effects = effects.map { table[Int($0 & 0xFF)] ^ ($0 >> 8) }
            }
            return nil
        }

        /// The most bytes in which a CRC-32 tells every damage to two or three bits from one
        /// flipped bit (it detects every three-bit error up to 91,607 bits): a bit put back in
        /// more than these could, rarely, be the wrong one, so the values are reported to check.
        static let certainMendSize = 11_264

        /// Eight lower-case hex digits.
        static func format(_ checksum: UInt32) -> String {
            let digits = String(checksum, radix: 16)
            return String(repeating: "0", count: 8 - digits.count) + digits
        }

        /// The checksum that `format` wrote, or nil.
        static func parse(_ digits: Data) -> UInt32? {
            guard digits.count == 8 else { return nil }
            return UInt32(String(decoding: digits, as: UTF8.self), radix: 16)
        }
    }

    // MARK: - Open files

    /// An advisory lock on a file, held until ``release()`` or until this goes away. Two
    /// repositories writing one folder would overwrite each other's changes; the lock turns
    /// that mistake into an error when the second one opens.
    nonisolated final class Lock: Sendable {
        private let descriptor: Int32

        /// Takes the lock on `file`, or throws `locked` when another repository holds it; while
        /// `keepWaiting` returns true, asked again every 10 ms, waits for it instead.
        init<Reported: Failure>(
            _ file: URL, reporting _: Reported.Type,
            waitingWhile keepWaiting: () -> Bool = { false }
        ) throws {
            let descriptor = try openFile(file, reporting: Reported.self)
            guard Self.take(descriptor, waitingWhile: keepWaiting) else {
                let busy = errno == EWOULDBLOCK
                let reason = lastError()
                closeDescriptor(descriptor)
                throw busy
                    ? Reported.locked(file: file) : Reported.unwritable(file: file, reason: reason)
            }
            self.descriptor = descriptor
        }

        /// Takes the lock on the open file `descriptor`; false, with `errno` set, when it cannot.
        /// A child process that another thread is starting holds a copy of every open file
        /// until it replaces its program (`O_CLOEXEC` closes them only then), and with them a
        /// lock the parent just released; so a lock found taken is tried again for a moment
        /// (about 100 ms) before another repository is taken to hold it.
        private static func take(_ descriptor: Int32, waitingWhile keepWaiting: () -> Bool) -> Bool
        {
            var attempts = 0
            while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
                let error = errno
                if error == EINTR { continue }
                guard error == EWOULDBLOCK, attempts < 50 || keepWaiting() else {
                    errno = error
                    return false
                }
                attempts += 1
                usleep(attempts < 50 ? 2_000 : 10_000)
            }
            return true
        }

        deinit {
            closeDescriptor(descriptor)
        }

        /// Releases the lock now, while objects that share it may still be going away (a
        /// finished compaction's task lets go of its files a moment after its result is
        /// known). Releasing it again does nothing; the file stays open until this goes away.
        func release() {
            _ = flock(descriptor, LOCK_UN)
        }
    }

    /// A journal repository's open files: the lock, and the journal that changes are appended
    /// to, closed (and the lock released) when this goes away; and the snapshot it replaces.
    nonisolated final class Journal<Reported: Failure> {
        let directory: URL
        let snapshotURL: URL
        let journalURL: URL
        /// Where a new snapshot is written before it replaces the old one.
        let temporaryURL: URL
        /// Where a compaction writes the journal's records that its snapshot does not hold,
        /// before they replace the journal.
        let journalTemporaryURL: URL
        let lockURL: URL
        /// The folder's lock, which ``newSnapshot()`` and ``newJournal()``'s files share.
        let lock: Lock
        private var journal: Int32
        /// True after the journal was replaced and the folder could not be synced: the next
        /// append syncs it first, so no save returns in a file whose name a crash may undo.
        private var folderNeedsSync = false

        /// Opens the files, taking the lock `lockName`, or using `held` when the caller holds
        /// it already.
        init(
            directory: URL, snapshot: String, journal journalName: String, lock lockName: String,
            holding held: Lock? = nil
        ) throws {
            self.directory = directory
            snapshotURL = directory.appendingPathComponent(snapshot)
            temporaryURL = snapshotURL.appendingPathExtension("tmp")
            journalURL = directory.appendingPathComponent(journalName)
            journalTemporaryURL = journalURL.appendingPathExtension("tmp")
            try createFolder(directory, reporting: Reported.self)
            lockURL = directory.appendingPathComponent(lockName)
            lock = try held ?? Lock(lockURL, reporting: Reported.self)
            journal = try openFile(journalURL, reporting: Reported.self)
            // Files that a crash cut short or left; the lock makes sure no one is writing them.
            _ = unlink(temporaryURL.path)
            _ = unlink(journalTemporaryURL.path)
            _ = unlink(snapshotURL.appendingPathExtension("old").path)
            // The journal may have just been created: make its entry in the folder durable
            // before any save that writes to it returns.
            syncFolder(directory)
        }

        deinit {
            closeDescriptor(journal)
        }

        func append(_ line: Data, at offset: Int) throws {
            if folderNeedsSync {
                guard syncFolder(directory) else {
                    throw Reported.unwritable(
                        file: journalURL, reason: "its folder could not be synced")
                }
                folderNeedsSync = false
            }
            do {
                try write(line, to: journal, at: offset)
                try sync(journal)
            } catch {
                // Take back a partial record, so the next append does not follow damage.
                _ = ftruncate(journal, off_t(offset))
                throw Reported.unwritable(file: journalURL, reason: "\(error)")
            }
        }

        /// Cuts the journal to `size` bytes; throws only when it was not cut, so the caller's
        /// idea of its size stays true. Syncing it is best effort: records that come back after
        /// a crash are either of an older generation (skipped) or a torn tail (cut again).
        func truncate(to size: Int) throws {
            guard ftruncate(journal, off_t(size)) == 0 else {
                throw Reported.unwritable(file: journalURL, reason: lastError())
            }
            _ = try? sync(journal)
        }

        /// A new, empty file at ``temporaryURL``, for a snapshot that its `install()` puts in
        /// place. It holds the folder's lock until it is gone, so nothing else writes the folder
        /// while it may still be renamed, even after this repository closed.
        func newSnapshot() throws -> NewFile {
            NewFile(
                url: snapshotURL, temporaryURL: temporaryURL, directory: directory, lock: lock,
                descriptor: try openFile(temporaryURL, reporting: Reported.self, truncating: true)
            )
        }

        /// Removes the file that ``newJournal()`` made, which will not replace the journal.
        func discardJournalCopy() {
            _ = unlink(journalTemporaryURL.path)
        }

        /// A new, empty file at ``journalTemporaryURL``, to which a compaction copies the
        /// journal's records that its snapshot does not hold; ``replaceJournal(from:copied:through:)``
        /// then puts it in place. It holds the folder's lock, as ``newSnapshot()``'s does.
        func newJournal() throws -> NewFile {
            NewFile(
                url: journalURL, temporaryURL: journalTemporaryURL, directory: directory,
                lock: lock,
                descriptor: try openFile(
                    journalTemporaryURL, reporting: Reported.self, truncating: true))
        }

        /// Replaces the journal with the file ``newJournal()`` made, which holds the journal's
        /// bytes from `start` to `copied` (copied off the repository's turn), once the bytes
        /// from `copied` to `end` (the records appended since) are added to it and synced. The
        /// file is renamed over the journal, so a crash leaves the old journal (whose earlier
        /// records the new snapshot skips) or the new one; only call it once the new snapshot's
        /// rename is synced. When it throws, the file is removed and the journal is as it was.
        func replaceJournal(from start: Int, copied: Int, through end: Int) throws {
            // Opened before the rename: once renamed, the file is the journal, and appends
            // must go to it.
            let kept = open(journalTemporaryURL.path, O_RDWR | O_CLOEXEC)
            do {
                guard kept >= 0 else { throw POSIXFailure(lastError()) }
                try copyBytes(from: journal, copied..<end, to: kept, at: copied - start)
                try sync(kept)
                guard rename(journalTemporaryURL.path, journalURL.path) == 0 else {
                    throw POSIXFailure(lastError())
                }
            } catch {
                if kept >= 0 { closeDescriptor(kept) }
                discardJournalCopy()
                throw Reported.unwritable(file: journalURL, reason: "\(error)")
            }
            // The old journal, renamed over, is freed off the repository's turn; cut down only
            // once the rename is durable, since a crash that undid it would bring it back.
            let replaced = journal
            journal = kept
            folderNeedsSync = !syncFolder(directory)
            if folderNeedsSync {
                closeDescriptor(replaced)
            } else {
                _Concurrency.Task.detached(priority: .utility) { freeGradually(replaced) }
            }
        }
    }

    /// A file being written whole before it replaces another: written to its temporary file,
    /// through its open descriptor, then renamed over the other. It holds the folder's lock
    /// (the last reference releases it, unless closing the store released it first, once this
    /// file's compaction had ended), so a compaction can write and install it off the
    /// repository's turn, and the temporary file stays its own until it is renamed or removed.
    nonisolated final class NewFile: Sendable {
        /// The file it replaces, which errors name.
        let url: URL
        let temporaryURL: URL
        private let directory: URL
        private let lock: Lock
        private let descriptor: Int32

        fileprivate init(
            url: URL, temporaryURL: URL, directory: URL, lock: Lock, descriptor: Int32
        ) {
            (self.url, self.temporaryURL, self.directory) = (url, temporaryURL, directory)
            (self.lock, self.descriptor) = (lock, descriptor)
        }

        deinit {
            closeDescriptor(descriptor)
        }

        func write<Reported: Failure>(
            _ data: Data, at offset: Int, reporting _: Reported.Type
        ) throws {
            do {
                try StoreFiles.write(data, to: descriptor, at: offset)
            } catch {
                throw Reported.unwritable(file: url, reason: "\(error)")
            }
        }

        /// Flushes what was written to the storage device; with `toDrive` false, only as far as
        /// the drive (plain `fsync` on Apple platforms too): to spread the writing out, not
        /// yet to make it durable.
        func sync<Reported: Failure>(reporting _: Reported.Type, toDrive: Bool = true) throws {
            do {
                if toDrive {
                    try StoreFiles.sync(descriptor)
                } else if fsync(descriptor) != 0 {
                    throw POSIXFailure(lastError())
                }
            } catch {
                throw Reported.unwritable(file: url, reason: "\(error)")
            }
        }

        /// Renames the written and synced file over ``url`` and syncs the folder. rename(2)
        /// replaces a file atomically, so readers, and a crash, see the old file or the new
        /// one, never half of one. When the rename fails, the file is removed: on a full disk
        /// it would hold on to the very space that ran out.
        ///
        /// Returns whether the folder was synced too. Once the rename is done the new file is in
        /// place, so a failure to sync the folder is not thrown (the caller's memory must match
        /// the disk); the caller then keeps the journal, in case the rename is lost.
        func install<Reported: Failure>(reporting _: Reported.Type) throws -> Bool {
            // The file replaced stays linked under another name until the rename is synced,
            // then is cut down a few megabytes at a time (``StoreFiles/freeGradually(_:)``).
            let replaced = url.appendingPathExtension("old")
            _ = unlink(replaced.path)
            let keepsReplaced = link(url.path, replaced.path) == 0
            guard rename(temporaryURL.path, url.path) == 0 else {
                let reason = lastError()
                discard()
                if keepsReplaced { _ = unlink(replaced.path) }
                throw Reported.unwritable(file: url, reason: reason)
            }
            let folderSynced = syncFolder(directory)
            if keepsReplaced {
                // Cut down only once the rename is durable: should a crash undo it, the old
                // file is the snapshot again, and must be whole.
                let descriptor = folderSynced ? open(replaced.path, O_RDWR | O_CLOEXEC) : -1
                _ = unlink(replaced.path)
                if descriptor >= 0 {
                    _Concurrency.Task.detached(priority: .utility) { freeGradually(descriptor) }
                }
            }
            return folderSynced
        }

        /// Removes the temporary file, which will not be installed.
        func discard() {
            _ = unlink(temporaryURL.path)
        }

        /// Writes the bytes `range` of `source` to this file, at the start, and syncs them: as
        /// it goes, every megabyte, so that the device never has much of it to flush at once (a
        /// save's own sync, meanwhile, may wait for all of it).
        func copy<Reported: Failure>(
            _ range: Range<Int>, of source: URL, reporting _: Reported.Type
        ) throws {
            let descriptor = open(source.path, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else {
                throw Reported.unreadable(file: source, reason: lastError())
            }
            defer { closeDescriptor(descriptor) }
            do {
                try copyBytes(
                    from: descriptor, range, to: self.descriptor, at: 0, syncingEvery: 1 << 20)
                try StoreFiles.sync(self.descriptor)
            } catch {
                throw Reported.unwritable(file: url, reason: "\(error)")
            }
        }
    }

    /// Whether a file that `CRC32.sealed` wrote is damaged: its checksum does not match, or its
    /// checksum line itself is damaged. A file without one (from before checksums) is not.
    static func isDamaged(_ data: Data) -> Bool {
        guard let contents = try? CRC32.unsealed(data) else { return true }
        return !contents.isChecked && CRC32.unchecked(data).json.count != data.count
    }

    /// What `repaired` says of a record or a file of `size` bytes whose one damaged bit was put
    /// back: past ``CRC32/certainMendSize``, damage to more bits could, rarely, look like one.
    static func oneBitPutBack(in size: Int) -> String {
        size <= CRC32.certainMendSize
            ? "one damaged bit, put back from its checksum; kept as written"
            : "one damaged bit, put back from its checksum (damage to more bits could, rarely, "
                + "look like one in \(size) bytes: check its values)"
    }

    /// A file that `CRC32.sealed` wrote, its checksum line whole, with the one bit of its JSON
    /// whose flip makes the checksum match put back (``CRC32/flippedBit(in:expected:)``), and
    /// that bit; nil when there is none.
    static func mendedFile(_ data: Data) -> (Data, Int)? {
        let trailer = Data("\ncrc32 ".utf8)
        guard data.count > trailer.count + 9, data.last == UInt8(ascii: "\n") else { return nil }
        let start = data.endIndex - trailer.count - 9
        guard data[start..<(start + trailer.count)] == trailer,
            let stored = CRC32.parse(data[(start + trailer.count)..<(data.endIndex - 1)]),
            let bit = CRC32.flippedBit(in: data[..<start], expected: stored)
        else { return nil }
        var mended = data
        mended[mended.startIndex + bit / 8] ^= 1 << (bit % 8)
        return (mended, bit)
    }

    /// The values of a damaged snapshot (`json`, `{…"items":[…],"schemaVersion":N}` without its
    /// checksum line, the file `file`) that still decode, when the whole does not
    /// (``salvagedValues(of:file:at:arrayKey:versionKey:decode:)``). A snapshot holds its values
    /// in id order, so a value out of that order has a damaged id (which may equal another's):
    /// of the values read, the longest run in id order is kept, and the others are set aside.
    /// `decode` decodes `{"items":[…],"schemaVersion":N}`. Nil when the schema version does not
    /// read, is newer than the model's, or no value reads.
    static func salvagedSnapshot<Value: StoredValue>(
        of json: Data, file: URL, decode: (Data) throws -> [Value]
    ) -> (values: StoredValues<Value>, setAside: [StoreRecovery.Damage])? {
        // When the end does not read, the values are read as the model's own version: a
        // snapshot is written again in it whenever it opens.
        let salvaged = salvagedValues(
            of: json, file: file, arrayKey: "items", versionKey: "schemaVersion",
            assuming: Value.schemaVersion
        ) { items, version in
            var snapshot = Data(#"{"items":"#.utf8)
            snapshot.append(items)
            snapshot.append(contentsOf: #","schemaVersion":\#(version)}"#.utf8)
            return try decode(snapshot)
        }
        guard let salvaged, !salvaged.values.isEmpty else { return nil }
        let inOrder = longestRunInOrder(salvaged.values.map(\.value.id), by: Value.precedes)
        var kept: [Value] = []
        var setAside = salvaged.setAside
        var keptBytes: [Range<Int>] = []
        for (index, read) in salvaged.values.enumerated() {
            if inOrder.contains(index) {
                kept.append(read.value)
                keptBytes.append(read.bytes)
            } else {
                setAside.append(
                    StoreRecovery.Damage(
                        file: file, offset: read.bytes.lowerBound,
                        reason: "bytes \(read.bytes.lowerBound)..<\(read.bytes.upperBound) read as "
                            + "the id \(read.value.id), out of the snapshot's order: a damaged id"))
            }
        }
        guard var values = try? StoredValues(kept) else { return nil }
        // A newer build's fields of the values kept, when they are of this schema version.
        let bytes = [UInt8](json)
        let version = JSONBytes.arrayEnd(in: bytes, before: "schemaVersion")?.1
        if (version ?? Value.schemaVersion) == Value.schemaVersion {
            values.setUnknownMembers(
                unknownMembers(of: zip(kept, keptBytes.map { bytes[$0] }).map { $0 }))
        }
        return (values, setAside.sorted { $0.offset < $1.offset })
    }

    /// A damaged file with one bit put back (`mended`, its checksum matching again), as `read`
    /// reads it; nil when it does not read. When it is a newer build's file (it ends with a
    /// schema version newer than `supported`), throws what `read` threw, as opening would:
    /// recovering would set every value aside.
    static func readMended<Read>(
        _ mended: Data, supported: Int, read: (Data) throws -> Read
    ) throws -> Read? {
        do {
            return try read(mended)
        } catch {
            guard newerVersion(of: mended, supported: supported) != nil else { return nil }
            throw error
        }
    }

    /// The schema version that a store file's JSON (`data`, as written, its checksum line
    /// included) ends with, when it is newer than `supported`: a newer build's file, whose
    /// values this build would set aside. Nil otherwise: when its end does not read, when it
    /// has no checksum to tell, or when a version up to `supported` in its place makes the
    /// checksum match (the version's own digits were damaged).
    static func newerVersion(of data: Data, supported: Int) -> Int? {
        let json = [UInt8](CRC32.unchecked(data).json)
        guard let (_, version) = JSONBytes.arrayEnd(in: json, before: "schemaVersion"),
            version > supported, data.count > 9,
            let stored = CRC32.parse(Data(data.suffix(9).prefix(8)))
        else { return nil }
        // The version's digits: the last before the closing brace.
        var end = json.count - 1
        while end > 0, json[end] != UInt8(ascii: "}") { end -= 1 }
        while end > 0, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(json[end - 1]) {
            end -= 1
        }
        var start = end
        while start > 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(json[start - 1]) {
            start -= 1
        }
        for candidate in 1...max(supported, 1) {
            let repaired = json[..<start] + Array(String(candidate).utf8) + json[end...]
            if CRC32.checksum(Data(repaired)) == stored { return nil }
        }
        return version
    }

    /// `values` as one JSON array, as `encoder` writes it (without spaces), each value with its
    /// members in `unknown` (``StoredValues/unknownMembers``) after its own.
    static func encodedArray<Value: StoredValue>(
        _ values: [Value], adding unknown: [Value.ID: [Data]], with encoder: JSONEncoder
    ) throws -> Data {
        guard !unknown.isEmpty, values.contains(where: { unknown[$0.id] != nil }) else {
            return try readableJSON(encoder.encode(values))
        }
        var array = Data([UInt8(ascii: "[")])
        for (index, value) in values.enumerated() {
            if index > 0 { array.append(UInt8(ascii: ",")) }
            let json = try readableJSON(encoder.encode(value))
            array.append(JSONBytes.object(json, adding: unknown[value.id] ?? []))
        }
        array.append(UInt8(ascii: "]"))
        return array
    }

    /// The unknown members (``StoredValues/unknownMembers``) of `values`, decoded in their
    /// order from the array `arrayKey` of the JSON object `json`, which ends with the version
    /// `versionKey`: ``unknownMembers(of:)``. Empty when the elements do not read one per
    /// value.
    static func unknownMembers<Value: StoredValue>(
        of values: [Value], in json: Data, arrayKey: String, versionKey: String
    ) -> [Value.ID: [Data]] {
        guard Value.knownKeys != nil, !values.isEmpty else { return [:] }
        let bytes = [UInt8](json)
        guard let start = JSONBytes.arrayStart(in: bytes, key: arrayKey),
            let (end, _) = JSONBytes.arrayEnd(in: bytes, before: versionKey)
        else { return [:] }
        let elements = JSONBytes.elements(in: bytes, from: start, to: end)
        guard elements.lostAt == nil, elements.ranges.count == values.count else { return [:] }
        return unknownMembers(of: zip(values, elements.ranges.map { bytes[$0] }).map { $0 })
    }

    /// The members of each value's JSON object (`json`, the bytes it was decoded from, of the
    /// current schema version) whose keys `known` (by default ``StoredValue/knownKeys``) does
    /// not hold. A key that the value writes itself is the model's, whatever its known keys say
    /// (a field added to the model by hand), and is never kept: the value's own would be
    /// written back over.
    static func unknownMembers<Value: StoredValue>(
        of values: [(value: Value, json: ArraySlice<UInt8>)], known: Set<String>? = nil
    ) -> [Value.ID: [Data]] {
        guard let known = known ?? Value.knownKeys else { return [:] }
        var isOwn: [String: Bool] = [:]
        var unknown: [Value.ID: [Data]] = [:]
        for (value, json) in values {
            guard var members = JSONBytes.keyedMembers(of: json, where: { !known.contains($0) }),
                !members.isEmpty
            else { continue }
            // Each such key is checked once, against a value that has it.
            if members.contains(where: { isOwn[$0.key] == nil }) {
                let encoded = (try? JSONEncoder().encode(value)).flatMap {
                    JSONBytes.keyedMembers(of: ArraySlice($0))
                }
                let own = Set((encoded ?? []).map(\.key))
                for member in members where isOwn[member.key] == nil {
                    isOwn[member.key] = own.contains(member.key)
                }
            }
            members.removeAll { isOwn[$0.key] == true }
            if !members.isEmpty { unknown[value.id] = members.map(\.member) }
        }
        return unknown
    }

    /// Whether a file whose writer listed `fields` as its known keys (nil: not recorded) may
    /// hold keys that the model does not know, so that its values are read for them.
    static func mayHoldUnknownKeys<Value: StoredValue>(_ fields: [String]?, of _: Value.Type)
        -> Bool
    {
        guard let known = Value.knownKeys else { return false }
        return fields.map { !known.isSuperset(of: $0) } ?? true
    }

    /// The values of the array `arrayKey` of a damaged JSON object (`json`, at byte `offset` of
    /// `file`), that still decode when the whole does not, each with its bytes. The object
    /// ends with the array, then its schema version (`versionKey`), read from the end. The
    /// array's elements are found as a JSON reader finds them (strings, nesting), from the
    /// start; where damage hides their ends (an element that is not JSON), from the end, down
    /// to it; and decoded with `decode` (an array of them, `[…]`, written by that version), 256
    /// at a time, then one by one where those fail. An element that is JSON but does not decode
    /// is set aside; so are the bytes between what the two reads reached. When the end does
    /// not read (damaged, or the file cut short), the version `assumed` is taken, and the
    /// elements read up to where the bytes end. Nil when the version does not read and none is
    /// assumed, or reads newer than the model's (every element would fail).
    static func salvagedValues<Value>(
        of json: Data, file: URL, at offset: Int = 0, arrayKey: String, versionKey: String,
        assuming assumed: Int? = nil, decode: (_ items: Data, _ version: Int) throws -> [Value]
    ) -> (values: [(value: Value, bytes: Range<Int>)], setAside: [StoreRecovery.Damage])? {
        let bytes = [UInt8](json)
        // When the end does not read, the elements are read up to the array's own `]`.
        guard
            let (close, version) = JSONBytes.arrayEnd(in: bytes, before: versionKey)
                ?? assumed.map({ (bytes.count, $0) })
        else { return nil }
        var isNewer = false
        /// The elements `ranges` decoded as one array, one value each; nil when they are not.
        func decoded(_ ranges: ArraySlice<Range<Int>>) -> [Value]? {
            var items = Data([UInt8(ascii: "[")])
            for (index, range) in ranges.enumerated() {
                if index > 0 { items.append(UInt8(ascii: ",")) }
                items.append(contentsOf: bytes[range])
            }
            items.append(UInt8(ascii: "]"))
            do {
                let values = try decode(items, version)
                return values.count == ranges.count ? values : nil
            } catch is NewerSchema {
                isNewer = true
                return nil
            } catch {
                return nil
            }
        }
        var kept: [(value: Value, bytes: Range<Int>)] = []
        var damaged: [Range<Int>] = []
        /// Decodes `ranges` in order; returns the index of the first that is not JSON (where
        /// the read lost its way), or nil.
        func take(_ ranges: [Range<Int>]) -> Int? {
            var index = 0
            while index < ranges.count {
                let stretch = ranges[index..<min(index + 256, ranges.count)]
                // An object with a key twice is two values joined by damage (a quote on each
                // side of `},{`), which JSONDecoder would read as one: each is read alone.
                let isJoined = stretch.contains { JSONBytes.hasRepeatedKey(bytes[$0]) }
                if !isJoined, let values = decoded(stretch) {
                    kept += zip(values, stretch).map { ($0, $1) }
                    index = stretch.endIndex
                    continue
                }
                for single in stretch.indices {
                    if JSONBytes.hasRepeatedKey(bytes[ranges[single]]) {
                        damaged.append(ranges[single])
                    } else if let value = decoded(ranges[single...single])?.first {
                        kept.append((value, ranges[single]))
                    } else if JSONBytes.isJSON(bytes[ranges[single]]) {
                        damaged.append(ranges[single])
                    } else {
                        return single
                    }
                }
                index = stretch.endIndex
            }
            return nil
        }
        let opening = JSONBytes.arrayStart(in: bytes, key: arrayKey)
        let forward = opening.map { JSONBytes.elements(in: bytes, from: $0, to: close) }
        var lost: Int? = opening == nil ? 0 : nil
        if let forward {
            if let notJSON = take(forward.ranges) {
                lost = forward.ranges[notJSON].lowerBound
            } else {
                lost = forward.lostAt
            }
        }
        if let lost, close == bytes.count {
            // The end is not known (damaged, or the file cut short): a read from the end could
            // start inside a value and take its objects for values. What follows is set aside.
            if lost < close { damaged.append(lost..<close) }
        } else if let lost {
            // From the end, down to where the read from the start lost its way.
            let backward = JSONBytes.elementsBackward(in: bytes, from: lost, to: close)
            let before = kept.count
            let notJSON = take(backward.ranges)
            let reached = backward.ranges[..<(notJSON ?? backward.ranges.count)]
            // What the read from the end reached is in order after what the first read kept.
            kept[before...].reverse()
            let gapEnd =
                notJSON.map { backward.ranges[$0].upperBound }
                ?? reached.last?.lowerBound ?? backward.lostAt ?? close
            if lost < gapEnd { damaged.append(lost..<gapEnd) }
        }
        guard !isNewer else { return nil }
        damaged.sort { $0.lowerBound < $1.lowerBound }
        let setAside = damaged.map {
            StoreRecovery.Damage(
                file: file, offset: offset + $0.lowerBound,
                reason: "bytes \(offset + $0.lowerBound)..<\(offset + $0.upperBound) do not "
                    + "decode as values")
        }
        return (kept, setAside)
    }

    /// The indices of a longest run of `ids` in `precedes` order (each strictly after the one
    /// before it): patience sorting, n log n.
    static func longestRunInOrder<ID>(_ ids: [ID], by precedes: (ID, ID) -> Bool) -> Set<Int> {
        var tails: [Int] = []  // For each run length, the index of the smallest last id.
        var previous = [Int](repeating: -1, count: ids.count)
        for index in ids.indices {
            var low = 0
            var high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if precedes(ids[tails[middle]], ids[index]) {
                    low = middle + 1
                } else {
                    high = middle
                }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: Set<Int> = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.insert(index)
            index = previous[index]
        }
        return run
    }

    /// JSON as bytes, read as a JSON reader reads it (strings and their escapes, nesting), to
    /// find the values of a damaged file.
    enum JSONBytes {
        static func isSpace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
        }

        /// Whether the object that `bytes` hold has a key twice among its own members.
        static func hasRepeatedKey(_ bytes: ArraySlice<UInt8>) -> Bool {
            var keys: Set<ArraySlice<UInt8>> = []
            var depth = 0
            var isKeyNext = false
            var index = bytes.startIndex
            while index < bytes.endIndex {
                let byte = bytes[index]
                guard byte != UInt8(ascii: "\"") else {
                    var end = index + 1
                    var isEscaped = false
                    while end < bytes.endIndex {
                        if isEscaped {
                            isEscaped = false
                        } else if bytes[end] == UInt8(ascii: "\\") {
                            isEscaped = true
                        } else if bytes[end] == UInt8(ascii: "\"") {
                            break
                        }
                        end += 1
                    }
                    if depth == 1, isKeyNext, !keys.insert(bytes[(index + 1)..<end]).inserted {
                        return true
                    }
                    isKeyNext = false
                    index = end + 1
                    continue
                }
                if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                    isKeyNext = depth == 1 && byte == UInt8(ascii: "{")
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    depth -= 1
                } else if byte == UInt8(ascii: ","), depth == 1 {
                    isKeyNext = true
                }
                index += 1
            }
            return false
        }

        /// Whether `bytes` are one JSON value.
        static func isJSON(_ bytes: ArraySlice<UInt8>) -> Bool {
            isJSON(Data(bytes))
        }

        /// Whether `data` is one JSON value.
        static func isJSON(_ data: Data) -> Bool {
            (try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])) != nil
        }

        /// The index of the array's `]` and the version, read from the end of an object that
        /// ends `…],"<versionKey>":N}` (spaces allowed around each); nil when it does not.
        static func arrayEnd(in bytes: [UInt8], before versionKey: String) -> (Int, Int)? {
            var index = bytes.count - 1
            func back(over byte: UInt8) -> Bool {
                while index >= 0, isSpace(bytes[index]) { index -= 1 }
                guard index >= 0, bytes[index] == byte else { return false }
                index -= 1
                return true
            }
            guard back(over: UInt8(ascii: "}")) else { return nil }
            while index >= 0, isSpace(bytes[index]) { index -= 1 }
            let digitsEnd = index + 1
            while index >= 0, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) {
                index -= 1
            }
            guard (1...9).contains(digitsEnd - index - 1),
                let version = Int(String(decoding: bytes[(index + 1)..<digitsEnd], as: UTF8.self)),
                back(over: UInt8(ascii: ":"))
            else { return nil }
            let key = Array("\"\(versionKey)\"".utf8)
            while index >= 0, isSpace(bytes[index]) { index -= 1 }
            guard index + 1 >= key.count,
                bytes[(index + 1 - key.count)...index].elementsEqual(key)
            else { return nil }
            index -= key.count
            guard back(over: UInt8(ascii: ",")), back(over: UInt8(ascii: "]")) else { return nil }
            return (index + 1, version)
        }

        /// The members of the JSON object that `bytes` hold whose keys are not in `known`, each
        /// as `"key":value` without the spaces outside its strings (so a pretty-printed file's
        /// read as JSONEncoder writes them), or nil when `bytes` are not one object.
        static func members(of bytes: ArraySlice<UInt8>, notIn known: Set<String>) -> [Data]? {
            keyedMembers(of: bytes, where: { !known.contains($0) })?.map(\.member)
        }

        /// The members of the JSON object that `bytes` hold whose keys `isIncluded` accepts,
        /// each with its key, as ``members(of:notIn:)`` gives them; nil when `bytes` are not
        /// one object.
        static func keyedMembers(
            of bytes: ArraySlice<UInt8>, where isIncluded: (String) -> Bool = { _ in true }
        ) -> [(key: String, member: Data)]? {
            var index = bytes.startIndex
            func skipSpace() {
                while index < bytes.endIndex, isSpace(bytes[index]) { index += 1 }
            }
            /// Moves past the string that starts at `index`; false when it does not end.
            func skipString() -> Bool {
                index += 1
                while index < bytes.endIndex {
                    switch bytes[index] {
                    case UInt8(ascii: "\\"): index += 2
                    case UInt8(ascii: "\""):
                        index += 1
                        return true
                    default: index += 1
                    }
                }
                return false
            }
            skipSpace()
            guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "{") else { return nil }
            index += 1
            var kept: [(key: String, member: Data)] = []
            while true {
                skipSpace()
                guard index < bytes.endIndex else { return nil }
                if bytes[index] == UInt8(ascii: "}") { return kept }
                if bytes[index] == UInt8(ascii: ",") {
                    index += 1
                    skipSpace()
                }
                let start = index
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: "\""), skipString()
                else { return nil }
                let quoted = bytes[start..<index]
                // A key with an escape is read as JSON; the others are their bytes.
                let key =
                    quoted.contains(UInt8(ascii: "\\"))
                    ? (try? JSONDecoder().decode(
                        [String].self, from: Data("[".utf8) + Data(quoted) + Data("]".utf8)))?
                        .first
                    : String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self)
                guard let key else { return nil }
                skipSpace()
                guard index < bytes.endIndex, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                skipSpace()
                // The value: up to the comma or brace that ends it, outside strings and
                // nesting, its spaces outside strings left out (a member not kept is only
                // passed over).
                let isKept = isIncluded(key)
                var member = Data()
                if isKept {
                    member.append(contentsOf: quoted)
                    member.append(UInt8(ascii: ":"))
                }
                var depth = 0
                while index < bytes.endIndex {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\"") {
                        let string = index
                        guard skipString() else { return nil }
                        if isKept { member.append(contentsOf: bytes[string..<index]) }
                        continue
                    }
                    if depth == 0, byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") { break }
                    if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { depth += 1 }
                    if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") { depth -= 1 }
                    if isKept, !isSpace(byte) { member.append(byte) }
                    index += 1
                }
                guard index < bytes.endIndex else { return nil }
                if isKept { kept.append((key, member)) }
            }
        }

        /// The members (`"key":value`, as ``keyedMembers(of:where:)`` gives them) of the JSON
        /// object `json` but its `id` (which SQL reads from a column of its own, every byte)
        /// whose value is a string that holds U+0000 (`\u0000`, as JSONEncoder writes it):
        /// JSON without that escape is passed over at `Data`'s search speed.
        static func textsHoldingNUL(_ json: Data) -> [(key: String, member: Data)] {
            guard json.range(of: Data(#"\u0000"#.utf8)) != nil else { return [] }
            let nul = Array(#"u0000"#.utf8)
            return (keyedMembers(of: ArraySlice(json), where: { $0 != "id" }) ?? []).filter {
                _, member in
                // Past the key's closing quote and the colon.
                var index = member.startIndex + 1
                while index < member.endIndex, member[index] != UInt8(ascii: "\"") {
                    index += member[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                index += 2
                guard index < member.endIndex, member[index] == UInt8(ascii: "\"") else {
                    return false
                }
                while index < member.endIndex {
                    guard member[index] == UInt8(ascii: "\\") else {
                        index += 1
                        continue
                    }
                    if member[(index + 1)...].starts(with: nul) { return true }
                    index += 2
                }
                return false
            }
        }

        /// The JSON object `json` (as JSONEncoder writes one) with `members` after its own,
        /// but for those whose key it has already (a field the model has, that its known keys
        /// do not list): its own value is the one to keep.
        static func object(_ json: Data, adding members: [Data]) -> Data {
            guard !members.isEmpty, json.last == UInt8(ascii: "}") else { return json }
            var own: Set<String> = []
            _ = keyedMembers(of: ArraySlice(json)) { key in
                own.insert(key)
                return false
            }
            let added = members.filter { member in
                // The key: the string the member starts with (one that does not read is kept).
                guard member.first == UInt8(ascii: "\"") else { return true }
                var end = member.startIndex + 1
                var isEscaped = false
                while end < member.endIndex, isEscaped || member[end] != UInt8(ascii: "\"") {
                    isEscaped = !isEscaped && member[end] == UInt8(ascii: "\\")
                    end += 1
                }
                guard end < member.endIndex else { return true }
                let quoted = member[member.startIndex...end]
                guard !quoted.contains(UInt8(ascii: "\\")) else {
                    let key = try? JSONDecoder().decode(
                        [String].self, from: Data("[".utf8) + quoted + Data("]".utf8))
                    return key.map { !own.contains($0[0]) } ?? true
                }
                return !own.contains(String(decoding: quoted.dropFirst().dropLast(), as: UTF8.self))
            }
            guard !added.isEmpty else { return json }
            var object = json.dropLast()
            if object.count > 1 { object.append(UInt8(ascii: ",")) }
            object.append(Data(added.joined(separator: [UInt8(ascii: ",")])))
            object.append(UInt8(ascii: "}"))
            return object
        }

        /// The index after the `[` of the array `key` of the object that `bytes` start; nil when
        /// the members before it do not read as JSON.
        static func arrayStart(in bytes: [UInt8], key: String) -> Int? {
            var index = 0
            func skipSpaces() {
                while index < bytes.count, isSpace(bytes[index]) { index += 1 }
            }
            func over(_ byte: UInt8) -> Bool {
                skipSpaces()
                guard index < bytes.count, bytes[index] == byte else { return false }
                index += 1
                return true
            }
            guard over(UInt8(ascii: "{")) else { return nil }
            while over(UInt8(ascii: "\"")) {
                let nameStart = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") { index += 1 }
                let name = bytes[nameStart..<min(index, bytes.count)]
                guard over(UInt8(ascii: "\"")), over(UInt8(ascii: ":")) else { return nil }
                if name.elementsEqual(key.utf8) {
                    return over(UInt8(ascii: "[")) ? index : nil
                }
                // Any other value (a generation, the fields a snapshot's values hold, or what a
                // later release adds before the array): up to the comma after it.
                var depth = 0
                var isInString = false
                var isEscaped = false
                while index < bytes.count {
                    let byte = bytes[index]
                    if isEscaped {
                        isEscaped = false
                    } else if isInString {
                        isEscaped = byte == UInt8(ascii: "\\")
                        isInString = byte != UInt8(ascii: "\"")
                    } else if byte == UInt8(ascii: "\"") {
                        isInString = true
                    } else if byte == UInt8(ascii: "[") || byte == UInt8(ascii: "{") {
                        depth += 1
                    } else if byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}") {
                        depth -= 1
                        guard depth >= 0 else { return nil }
                    } else if byte == UInt8(ascii: ","), depth == 0 {
                        break
                    }
                    index += 1
                }
                guard over(UInt8(ascii: ",")) else { return nil }
            }
            return nil
        }

        /// The elements of an array from `start` (after its `[`) to `end` (its `]`, or where
        /// the bytes end when that is not known), each without the spaces around it; `lostAt`,
        /// the start of the first element whose end could not be found (a bracket closing more
        /// than it opened, a string or a bracket left open), or the byte after a `]` before
        /// `end`, after which nothing is read.
        static func elements(in bytes: [UInt8], from start: Int, to end: Int)
            -> (ranges: [Range<Int>], lostAt: Int?)
        {
            var ranges: [Range<Int>] = []
            var index = start
            while true {
                while index < end, isSpace(bytes[index]) { index += 1 }
                guard index < end else { return (ranges, nil) }
                let first = index
                var depth = 0
                var isInString = false
                var isEscaped = false
                while index < end {
                    let byte = bytes[index]
                    if isInString {
                        if isEscaped {
                            isEscaped = false
                        } else if byte == UInt8(ascii: "\\") {
                            isEscaped = true
                        } else if byte == UInt8(ascii: "\"") {
                            isInString = false
                        }
                    } else if byte == UInt8(ascii: "\"") {
                        isInString = true
                    } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                        depth += 1
                    } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                        depth -= 1
                        guard depth < 0 else {
                            index += 1
                            continue
                        }
                        // A `]` that ends the array: the last element ends before it. Before
                        // `end`, the array's `]`, it is damage: what follows is read from the
                        // end (`lostAt`).
                        var last = index
                        while last > first, isSpace(bytes[last - 1]) { last -= 1 }
                        guard byte == UInt8(ascii: "]"), last > first else {
                            return (ranges, first)
                        }
                        return (ranges + [first..<last], index + 1)
                    } else if byte == UInt8(ascii: ","), depth == 0 {
                        break
                    }
                    index += 1
                }
                var last = index
                while last > first, isSpace(bytes[last - 1]) { last -= 1 }
                guard !isInString, depth == 0, last > first else { return (ranges, first) }
                ranges.append(first..<last)
                guard index < end else { return (ranges, nil) }
                index += 1
            }
        }

        /// The elements of an array that ends at `end` (its `]`), read from the end down to
        /// `start`, last first, as ``elements(in:from:to:)`` reads them; `lostAt`, the end of
        /// the first element whose start could not be found.
        static func elementsBackward(in bytes: [UInt8], from start: Int, to end: Int)
            -> (ranges: [Range<Int>], lostAt: Int?)
        {
            /// Whether the quote at `index` is escaped: an odd number of backslashes before it.
            func isEscaped(_ index: Int) -> Bool {
                var count = 0
                var before = index - 1
                while before >= start, bytes[before] == UInt8(ascii: "\\") {
                    count += 1
                    before -= 1
                }
                return count % 2 == 1
            }
            var ranges: [Range<Int>] = []
            var index = end - 1
            while true {
                while index >= start, isSpace(bytes[index]) { index -= 1 }
                guard index >= start else { return (ranges, nil) }
                let last = index + 1
                var depth = 0
                var isInString = false
                while index >= start {
                    let byte = bytes[index]
                    if byte == UInt8(ascii: "\""), !isEscaped(index) {
                        isInString.toggle()
                    } else if !isInString {
                        if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                            depth += 1
                        } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                            depth -= 1
                            if depth < 0 { return (ranges, last) }
                        } else if byte == UInt8(ascii: ","), depth == 0 {
                            break
                        }
                    }
                    index -= 1
                }
                var first = index + 1
                while first < last, isSpace(bytes[first]) { first += 1 }
                guard !isInString, depth == 0, first < last else { return (ranges, last) }
                ranges.append(first..<last)
                guard index >= start else { return (ranges, nil) }
                index -= 1
            }
        }
    }

    /// Copies `file` beside itself as it is, as `<name>.damaged` (or `.damaged-2`, … when that
    /// exists: an earlier copy is never replaced), synced; returns the copy. (Never a SQLite
    /// database that is open: closing a descriptor of it would drop SQLite's locks. See
    /// `SQLiteDatabase.keepCopy()`.)
    static func keepCopy<Reported: Failure>(
        of file: URL, reporting _: Reported.Type
    ) throws -> URL {
        var number = 0
        while true {
            number += 1
            let copy = file.appendingPathExtension(number == 1 ? "damaged" : "damaged-\(number)")
            do {
                try copyFile(file, to: copy)
            } catch is NameTaken {
                // Another process made that name meanwhile.
                continue
            } catch {
                throw Reported.unwritable(file: copy, reason: "\(error)")
            }
            syncFolder(file.deletingLastPathComponent())
            return copy
        }
    }

    /// Creates `file`, empty; false, and nothing made, when it exists.
    static func createEmptyFile<Reported: Failure>(
        _ file: URL, reporting _: Reported.Type
    ) throws -> Bool {
        do {
            closeDescriptor(try createNew(file))
            return true
        } catch is NameTaken {
            return false
        } catch {
            throw Reported.unwritable(file: file, reason: "\(error)")
        }
    }

    /// Creates `file` for writing, and returns its descriptor; throws `NameTaken`, and makes
    /// nothing, when it exists (another process may have made it).
    private static func createNew(_ file: URL) throws -> Int32 {
        let descriptor = open(file.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if descriptor < 0, errno == EEXIST { throw NameTaken() }
        guard descriptor >= 0 else { throw POSIXFailure(lastError()) }
        return descriptor
    }

    /// A file with the name a copy was to have exists already.
    private struct NameTaken: Error {}

    /// Copies `source` (empty when it does not exist) to the new file `target`, a block at a
    /// time, and syncs it; throws `NameTaken`, and makes nothing, when `target` exists.
    private static func copyFile(_ source: URL, to target: URL) throws {
        let descriptor = try createNew(target)
        defer { closeDescriptor(descriptor) }
        do {
            if FileManager.default.fileExists(atPath: source.path) {
                let reading = try openFile(source, forReading: true)
                defer { closeDescriptor(reading) }
                guard let size = size(of: reading) else {
                    throw POSIXFailure("its size could not be read: \(lastError())")
                }
                try copyBytes(from: reading, 0..<size, to: descriptor, at: 0)
            }
            try sync(descriptor)
        } catch {
            // Only the file this call made.
            _ = unlink(target.path)
            throw error
        }
    }

    // MARK: - System calls

    private static func openFile(_ url: URL, truncating: Bool = false, forReading: Bool = false)
        throws -> Int32
    {
        let flags = forReading ? O_RDONLY : O_RDWR | O_CREAT | (truncating ? O_TRUNC : 0)
        let descriptor = open(url.path, flags | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw POSIXFailure(lastError()) }
        return descriptor
    }

    private static func openFile<Reported: Failure>(
        _ url: URL, reporting _: Reported.Type, truncating: Bool = false
    ) throws -> Int32 {
        do {
            return try openFile(url, truncating: truncating)
        } catch {
            throw Reported.unwritable(file: url, reason: "\(error)")
        }
    }

    /// Cuts the open file `descriptor` (removed, and replaced durably) down 8 MiB at a time,
    /// then closes it. Freeing a large file's blocks at once holds up every other file's sync
    /// meanwhile, a save's among them; a few megabytes at a time, it does not. A reader in
    /// another process that is still reading it gets a short read, and reads again: both
    /// files' stamps tell it the files were replaced.
    static func freeGradually(_ descriptor: Int32) {
        var size = lseek(descriptor, 0, SEEK_END)
        while size > 0 {
            size = max(0, size - 8 << 20)
            guard ftruncate(descriptor, size) == 0 else { break }
        }
        closeDescriptor(descriptor)
    }

    /// The size of the open file `descriptor`: nil when it cannot be read, or does not fit an
    /// `Int` (past 2 GiB where `Int` has 32 bits, as on an Apple Watch), where `Int(_:)` traps.
    static func size(of descriptor: Int32) -> Int? {
        let end = lseek(descriptor, 0, SEEK_END)
        return end < 0 ? nil : Int(exactly: end)
    }

    /// Copies the bytes `range` of the file `source` to `target`, from `offset` on; with
    /// `syncingEvery`, `fsync`s `target` each time that many more bytes are written.
    private static func copyBytes(
        from source: Int32, _ range: Range<Int>, to target: Int32, at offset: Int,
        syncingEvery interval: Int? = nil
    ) throws {
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var position = range.lowerBound
        var synced = position
        while position < range.upperBound {
            let count = buffer.withUnsafeMutableBytes { bytes in
                pread(
                    source, bytes.baseAddress, min(bytes.count, range.upperBound - position),
                    off_t(position))
            }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                throw POSIXFailure(count == 0 ? "the file ended early" : lastError())
            }
            try write(Data(buffer[0..<count]), to: target, at: offset + position - range.lowerBound)
            position += count
            if let interval, position - synced >= interval {
                guard fsync(target) == 0 else { throw POSIXFailure(lastError()) }
                synced = position
            }
        }
    }

    /// Writes all of `data` into the open file `descriptor` at `offset`.
    static func write(_ data: Data, to descriptor: Int32, at offset: Int) throws {
        try data.withUnsafeBytes { buffer in
            var written = 0
            while written < buffer.count, let base = buffer.baseAddress {
                let result = pwrite(
                    descriptor, base + written, buffer.count - written, off_t(offset + written))
                if result < 0 {
                    guard errno == EINTR else { throw POSIXFailure(lastError()) }
                    continue
                }
                written += result
            }
        }
    }

    /// Flushes to the storage device: `F_FULLFSYNC` on Apple platforms, where `fsync` only
    /// reaches the drive's cache; `fsync` elsewhere.
    static func sync(_ descriptor: Int32) throws {
        #if canImport(Darwin)
            if fcntl(descriptor, F_FULLFSYNC) == 0 { return }
        #endif
        guard fsync(descriptor) == 0 else { throw POSIXFailure(lastError()) }
    }

    /// `close(2)`, under a name that a repository's own `close()` does not hide.
    private static func closeDescriptor(_ descriptor: Int32) {
        _ = close(descriptor)
    }

    private static func lastError() -> String {
        String(cString: strerror(errno))
    }

    private nonisolated struct POSIXFailure: Error, CustomStringConvertible {
        let description: String

        init(_ description: String) {
            self.description = description
        }
    }
}

/// What recovering a damaged journal or snapshot store did (`recover(directory:)` of a
/// repository): the values it kept, what it set aside, and where the damaged files are now.
public nonisolated struct StoreRecovery: Sendable, Equatable, CustomStringConvertible {
    /// A damaged record (or a whole file, or a database row, at offset 0) whose values are not
    /// in the store.
    public struct Damage: Sendable, Equatable {
        public let file: URL
        /// Where the damaged bytes start: the record's first byte, or 0 for a whole file or a
        /// database row (whose reason names its table and id).
        public let offset: Int
        public let reason: String

        /// The reason for a file set aside whole.
        static let undecodable = "wrong checksum, and its values do not decode"
    }

    /// How many values the store holds now.
    public let valuesKept: Int
    /// The records (or whole files, or the bytes of a snapshot's or a record's values, or database
    /// rows) that could not be read: what they did is not in the store (the values a record saved
    /// are as before it, those it deleted are back; a row's value is gone). A file's bytes are in
    /// ``copies``; a row's, in the database's table `store_damaged_rows`.
    public let setAside: [Damage]
    /// The files with a snapshot or journal records whose checksum failed but whose values
    /// decoded (all of them, or all but those in ``setAside``): kept as read, so one of those
    /// values may hold the damaged byte. Their bytes as they were are in ``copies``.
    public let keptUnverified: [URL]
    /// Damage that lost nothing: a journal record whose newline was damaged, read (its checksum
    /// matches) and kept; a record or a snapshot whose one damaged bit was put back from its
    /// checksum (the offset is that bit's byte in a snapshot, the record's first byte).
    public let repaired: [Damage]
    /// The damaged files as they were, copied beside them (`<name>.damaged`, `.damaged-2`, …)
    /// before the store was written again. For a database, a copy of it when a row SQLite
    /// cannot read was set aside or the database was made again; a row whose checksum fails is
    /// kept in its table `store_damaged_rows` instead.
    public let copies: [URL]

    /// Whether the store was sound and nothing was written.
    public var wasSound: Bool { setAside.isEmpty && keptUnverified.isEmpty && repaired.isEmpty }

    public var description: String {
        guard !wasSound else { return "the store was sound: \(valuesKept) values, nothing changed" }
        let parts =
            setAside.map {
                "set aside \($0.file.lastPathComponent) at byte \($0.offset): \($0.reason)"
            }
            + keptUnverified.map { "kept \($0.lastPathComponent) as read, unverified" }
            + repaired.map {
                "repaired \($0.file.lastPathComponent) at byte \($0.offset): \($0.reason)"
            }
            + (copies.isEmpty
                ? []
                : ["copied as it was to " + copies.map(\.lastPathComponent).joined(separator: ", ")])
        return "kept \(valuesKept) values; " + parts.joined(separator: "; ")
    }
}

nonisolated extension StoreRecovery {
    /// One store's recovery made of `parts` (its former storage's files, then its own): what
    /// each set aside, kept unverified, repaired and copied, with `valuesKept` for the whole.
    init(_ parts: [StoreRecovery], valuesKept: Int) {
        self.init(
            valuesKept: valuesKept, setAside: parts.flatMap(\.setAside),
            keptUnverified: parts.flatMap(\.keptUnverified), repaired: parts.flatMap(\.repaired),
            copies: parts.flatMap(\.copies))
    }
}
