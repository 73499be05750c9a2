import Foundation

/// The state machine of one monitored region: its state, and a crossing that is waiting for its
/// dwell time.
struct RegionTracker: Sendable {
    /// The confirmed state.
    private(set) var state: RegionState = .unknown
    /// The first fix of the current run of fixes on the other side of the boundary (by the
    /// cushion), while a crossing waits to be confirmed.
    private(set) var crossingTime: Date?

    /// A tracker in a given state (a new region's is unknown, with no crossing pending).
    init(state: RegionState = .unknown, crossingTime: Date? = nil) {
        self.state = state
        self.crossingTime = crossingTime
    }

    /// Whether the monitor must look at this region on every fix, not only on fixes near it: it
    /// is not known to be outside, or a crossing into it is pending.
    var needsEveryFix: Bool { state != .outside || crossingTime != nil }

    /// Advances with a fix that could resolve the region. Returns the crossing this fix confirms.
    ///
    /// The first decisive fix after registration sets the state without an event (a region the
    /// device is already in produces no entry). After that, a fix on the other side starts a
    /// pending crossing, a fix within the cushion or back on the own side cancels it, and a fix
    /// still on the other side at least `dwellSeconds` after the first confirms it.
    mutating func step(_ side: RegionSide, time: Date, dwellSeconds: Double) -> (kind: RegionEvent.Kind, crossingTime: Date)? {
        let other: RegionSide
        switch state {
        case .unknown:
            switch side {
            case .inside: state = .inside
            case .outside: state = .outside
            case .withinCushion: break
            }
            return nil
        case .inside: other = .outside
        case .outside: other = .inside
        }
        guard side == other else {
            crossingTime = nil
            return nil
        }
        let start = crossingTime ?? time
        guard time.timeIntervalSince(start) >= dwellSeconds else {
            crossingTime = start
            return nil
        }
        crossingTime = nil
        state = side == .inside ? .inside : .outside
        return (side == .inside ? .entry : .exit, start)
    }
}
