import Foundation

/// SplitMix64 (Steele, Lea and Flood 2014): a small seeded generator, so every random test sees
/// the same values on every run and a failure can be replayed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A double in [0, 1).
    public mutating func nextUnit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// A standard normal sample (Box–Muller).
    public mutating func gaussian() -> Double {
        let u = Double.random(in: Double.leastNonzeroMagnitude..<1, using: &self)
        let v = Double.random(in: 0..<1, using: &self)
        return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
    }
}
