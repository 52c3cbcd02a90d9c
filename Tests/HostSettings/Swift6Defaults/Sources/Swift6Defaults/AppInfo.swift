// The app's own code, written by hand: it imports Foundation at the internal level, and SQLite
// without a level. scaffold-repo reads how this target imports, and the files it generates
// import the same way (two levels of one module's import in one target do not compile).
internal import Foundation

#if canImport(SQLite3)
    import SQLite3
#else
    import CSQLite
#endif

/// What the app's About screen shows.
enum AppInfo {
    /// When this process started.
    static let launched = Date()

    /// The version of the SQLite library the stores use.
    static var sqliteVersion: String { String(cString: sqlite3_libversion()) }
}
