/// The largest of a sequence of samples that a single wild sample cannot set: the maximum, over
/// every three consecutive samples, of their median.
///
/// With fewer than three samples nothing can outvote a wild one, so the smaller of the samples
/// is reported.
struct MedianOfThreeMaximum: Sendable, Equatable {
    private var older = 0.0, newer = 0.0
    private var best = -Double.infinity
    private(set) var count = 0

    mutating func add(_ sample: Double) {
        if count >= 2 {
            let median = max(min(older, newer), min(max(older, newer), sample))
            best = max(best, median)
        }
        older = newer
        newer = sample
        count += 1
    }

    /// The robust maximum, or `nil` before the first sample.
    var value: Double? {
        switch count {
        case 0: nil
        case 1: newer
        case 2: min(older, newer)
        default: best
        }
    }
}
