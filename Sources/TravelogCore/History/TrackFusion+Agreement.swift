import Foundation

/// Whether two devices were together: their fixes compared at each other's times.
extension TrackFusion {
    /// A fix's accuracy, metres (`assumedAccuracyMeters` when it has none).
    static func accuracy(_ location: Location) -> Double {
        location.horizontalAccuracyIfValid ?? assumedAccuracyMeters
    }

    /// Whether two devices' fixes of one window agree (see the type's rule).
    static func together(_ a: [Location], _ b: [Location]) -> Bool {
        let (comparedAB, agreedAB) = agreement(of: a, with: b)
        let (comparedBA, agreedBA) = agreement(of: b, with: a)
        let compared = comparedAB + comparedBA
        return compared > 0 && Double(agreedAB + agreedBA) >= agreementFraction * Double(compared)
    }

    /// How many of `fixes` (at most `maximumComparisonsPerDevice`, evenly spread) could be compared
    /// with `other`'s position at their time, and how many of those agreed.
    static func agreement(of fixes: [Location], with other: [Location]) -> (compared: Int, agreed: Int) {
        let stride = max(1, (fixes.count + maximumComparisonsPerDevice - 1) / maximumComparisonsPerDevice)
        var compared = 0, agreed = 0
        for index in Swift.stride(from: 0, to: fixes.count, by: stride) {
            let fix = fixes[index]
            guard let (position, accuracy) = position(of: other, at: fix.timestamp) else { continue }
            compared += 1
            let limit = max(minimumAgreementMeters, accuracyAgreementFactor * (Self.accuracy(fix) + accuracy))
            if fix.coordinate.distanceMeters(to: position) <= limit { agreed += 1 }
        }
        return (compared, agreed)
    }

    /// Where a device was at `time` by its fixes: interpolated between the fixes around it when
    /// they are at most `2 × concurrencySeconds` apart, else its nearest fix within
    /// `concurrencySeconds`; with the accuracy of the worse fix used.
    static func position(of fixes: [Location], at time: Date) -> (Coordinate, Double)? {
        let index = fixes.partitioningIndex { $0.timestamp >= time }
        let after = index < fixes.count ? fixes[index] : nil
        let before = index > 0 ? fixes[index - 1] : nil
        if let before, let after {
            let span = after.timestamp.timeIntervalSince(before.timestamp)
            if span <= 2 * concurrencySeconds, abs(after.coordinate.longitude - before.coordinate.longitude) < 180 {
                let fraction = span > 0 ? time.timeIntervalSince(before.timestamp) / span : 0
                let latitude = before.coordinate.latitude + fraction * (after.coordinate.latitude - before.coordinate.latitude)
                let longitude = before.coordinate.longitude + fraction * (after.coordinate.longitude - before.coordinate.longitude)
                if let coordinate = try? Coordinate(latitude: latitude, longitude: longitude) {
                    return (coordinate, max(accuracy(before), accuracy(after)))
                }
            }
        }
        let nearest = [before, after].compactMap { $0 }.min { abs($0.timestamp.timeIntervalSince(time)) < abs($1.timestamp.timeIntervalSince(time)) }
        guard let nearest, abs(nearest.timestamp.timeIntervalSince(time)) <= concurrencySeconds else { return nil }
        return (nearest.coordinate, accuracy(nearest))
    }
}
