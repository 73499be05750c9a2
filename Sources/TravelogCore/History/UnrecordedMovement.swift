import Foundation

/// Movement across gaps: how many times a device was somewhere else after a silence longer than
/// the bound, and the straight lines between where it was before and after, summed. Reported beside
/// the distance traveled, never added to it.
public struct UnrecordedMovement: Hashable, Sendable {
    /// A gap whose ends lie farther apart than this is movement, metres: beyond any visit's radius
    /// (100 m) and the jitter of two poor fixes, so a phone switched off at home for a month is not.
    public static let minimumMeters: Double = 500

    /// Gaps after which the device was elsewhere.
    public var count = 0
    /// The sum of their straight lines, metres.
    public var straightLineMeters = 0.0

    public init(count: Int = 0, straightLineMeters: Double = 0) {
        self.count = count
        self.straightLineMeters = straightLineMeters
    }

    /// Adds a gap when it is movement.
    public mutating func add(_ gap: HistoryGap) {
        guard gap.isMovement else { return }
        count += 1
        straightLineMeters += gap.straightLineMeters
    }

    /// Adds another tally.
    public mutating func add(_ other: UnrecordedMovement) {
        count += other.count
        straightLineMeters += other.straightLineMeters
    }
}
