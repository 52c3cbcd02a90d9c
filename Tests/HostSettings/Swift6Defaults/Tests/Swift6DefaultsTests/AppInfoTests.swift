// The app's own test, written by hand, with an import at the internal level.
internal import Foundation
import Testing

@testable import Swift6Defaults

@Test func theAppKnowsWhenItStartedAndItsSQLiteVersion() {
    #expect(AppInfo.launched <= Date())
    #expect(AppInfo.sqliteVersion.hasPrefix("3."))
}
