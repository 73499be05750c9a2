import Foundation

/// The wait before the next upload after failures: 5 s doubling to 5 minutes, so a server that
/// is down for days costs one request every five minutes.
public struct UploadBackoff: Hashable, Sendable {
    public static let initialSeconds: Double = 5
    public static let maximumSeconds: Double = 300
    public private(set) var failures = 0

    public init() {}

    /// The wait after one more failure, in seconds.
    public mutating func failed() -> Double {
        failures += 1
        return min(Self.maximumSeconds, Self.initialSeconds * pow(2, Double(failures - 1)))
    }

    public mutating func succeeded() { failures = 0 }
}
