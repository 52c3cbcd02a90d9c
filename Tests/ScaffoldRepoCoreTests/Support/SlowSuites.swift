/// The suites that build packages, run processes or crash stores: they take minutes, the rest
/// seconds. Each is declared inside this namespace, so its test IDs start with `SlowSuites`,
/// and the fast loop skips them all: `swift test --filter ScaffoldRepoCoreTests --skip
/// SlowSuites`.
enum SlowSuites {}
