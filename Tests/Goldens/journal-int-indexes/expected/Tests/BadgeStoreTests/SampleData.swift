import Foundation

/// The sample values that every model's tests in this target build, field by field: the same
/// field, `number` and `revision` give the same value on every run and machine.
///
/// scaffold-repo writes one copy of this file per test target, however many models the target
/// tests, and `scaffold-repo destroy` removes it with the last of them.
nonisolated enum SampleData {
    /// The value for the field `name` of sample `number`. Another `revision` gives another value;
    /// an id's is nil, so that every revision of a sample keeps its id.
    static func value<Value: SampleValue>(
        _ name: String, _ number: Int, _ revision: Int?
    ) -> Value {
        Value.sample(name, number: number, revision: revision)
    }

    /// A UUID made from a number, so sample ids are the same on every run.
    static func uuid(_ number: Int) -> UUID {
        let hex = String(number, radix: 16)
        let digits = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return UUID(uuidString: "00000000-0000-4000-8000-\(digits)")!
    }
}

/// A type a field can have, which builds its own sample value.
nonisolated protocol SampleValue {
    /// The value for the field `name` of sample `number` in `revision` (nil for an id).
    static func sample(_ name: String, number: Int, revision: Int?) -> Self
}

nonisolated extension SampleValue {
    /// The number a sample's value is made from: `number` for an id, so it stays the same;
    /// otherwise one that changes with the revision too, and whose last digit follows `number`,
    /// so that neighbouring samples differ even in a `Bool` or a two-case enum.
    static func seed(_ number: Int, _ revision: Int?) -> Int {
        revision.map { number * 1_001 + $0 } ?? number
    }
}

nonisolated extension String: SampleValue {
    static func sample(_ name: String, number: Int, revision: Int?) -> String {
        revision.map { "\(name)-\(number)-\($0)" } ?? "\(name)-\(number)"
    }
}

nonisolated extension Int: SampleValue {
    static func sample(_ name: String, number: Int, revision: Int?) -> Int {
        seed(number, revision)
    }
}

nonisolated extension Optional: SampleValue where Wrapped: SampleValue {
    /// Always a value: the tests check that optional fields are stored, not only nil.
    static func sample(_ name: String, number: Int, revision: Int?) -> Wrapped? {
        Wrapped.sample(name, number: number, revision: revision)
    }
}

nonisolated extension Array: SampleValue where Element: SampleValue {
    static func sample(_ name: String, number: Int, revision: Int?) -> [Element] {
        [Element.sample(name, number: number, revision: revision)]
    }
}

nonisolated extension Dictionary: SampleValue where Key == String, Value: SampleValue {
    static func sample(_ name: String, number: Int, revision: Int?) -> [String: Value] {
        ["\(name)-\(number)": Value.sample(name, number: number, revision: revision)]
    }
}

/// A field's enum: its cases in turn. Each model's test support declares the conformance.
nonisolated extension SampleValue where Self: CaseIterable {
    static func sample(_ name: String, number: Int, revision: Int?) -> Self {
        let cases = Array(allCases)
        return cases[seed(number, revision) % cases.count]
    }
}
