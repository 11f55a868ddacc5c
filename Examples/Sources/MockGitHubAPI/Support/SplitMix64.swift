/// A small, fast, seedable pseudo-random generator (SplitMix64).
///
/// The mock server draws every random decision (injected failures, latency, malformed
/// bodies) from generators seeded by ``MockGitHubConfiguration/seed``, and the fixture
/// generator draws the whole fixture set from one, so that runs are reproducible.
///
/// The helpers below (``uniform(_:)``, ``unit()``, ``chance(_:)``) are implemented
/// here rather than through the standard library's `random(in:using:)`, whose exact
/// algorithm is not guaranteed to stay the same between Swift releases: the same seed
/// gives the same sequence everywhere.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// Returns the next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniformly distributed integer in `0..<upperBound` (`0` when `upperBound <= 0`).
    public mutating func uniform(_ upperBound: Int) -> Int {
        guard upperBound > 0 else { return 0 }
        // Lemire's multiply-shift; the tiny bias is irrelevant for test data.
        return Int(next().multipliedFullWidth(by: UInt64(upperBound)).high)
    }

    /// A uniformly distributed integer in `range`.
    public mutating func uniform(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + uniform(range.upperBound - range.lowerBound + 1)
    }

    /// A uniformly distributed `Double` in `0..<1`.
    public mutating func unit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }

    /// `true` with probability `probability` (clamped to `0...1`).
    public mutating func chance(_ probability: Double) -> Bool {
        if probability <= 0 { return false }
        if probability >= 1 { return true }
        return unit() < probability
    }

    /// One element of `elements`, uniformly.
    public mutating func pick<C: RandomAccessCollection>(_ elements: C) -> C.Element where C.Index == Int {
        elements[elements.startIndex + uniform(elements.count)]
    }

    /// One element of `choices`, with probability proportional to its weight.
    public mutating func weighted<T>(_ choices: [(T, Double)]) -> T {
        let total = choices.reduce(0) { $0 + $1.1 }
        var target = unit() * total
        for (value, weight) in choices {
            if target < weight { return value }
            target -= weight
        }
        return choices[choices.count - 1].0
    }
}
