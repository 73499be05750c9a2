import Foundation

/// Percentiles of request latencies (nearest rank on the sorted sample), printed in milliseconds.
struct LatencySummary {
    let sortedMilliseconds: [Double]

    init(nanoseconds: [UInt64]) {
        sortedMilliseconds = nanoseconds.map { Double($0) / 1e6 }.sorted()
    }

    var count: Int { sortedMilliseconds.count }

    /// The smallest sample with at least `fraction` of the samples at or below it.
    func percentile(_ fraction: Double) -> Double {
        guard !sortedMilliseconds.isEmpty else { return .nan }
        let rank = Int((fraction * Double(sortedMilliseconds.count)).rounded(.up))
        return sortedMilliseconds[min(max(rank, 1), sortedMilliseconds.count) - 1]
    }

    /// `p50 1.23 ms  p99 4.56 ms …` for the given percentiles (in %) and the maximum.
    func line(_ percents: [Double]) -> String {
        var parts = percents.map { percent in
            "p\(percent.rounded() == percent ? String(Int(percent)) : String(percent)) \(Self.milliseconds(percentile(percent / 100)))"
        }
        parts.append("max \(Self.milliseconds(sortedMilliseconds.last ?? .nan))")
        return parts.joined(separator: "  ")
    }

    static func milliseconds(_ value: Double) -> String { String(format: "%.2f ms", value) }
}
