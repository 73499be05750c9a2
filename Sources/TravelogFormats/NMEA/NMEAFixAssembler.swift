/// Merges the sentences of one epoch into one fix: a state machine fed one decoded sentence at a
/// time, which hands out an epoch when the next one begins.
///
/// Sentences with a time (GGA, RMC, GLL, GNS, GST, ZDA) belong to the epoch of that time of day;
/// a new time closes the open epoch. Sentences without one (VTG, GSA) belong to the open epoch,
/// the way receivers send them right after the sentences they complete; ones that come before
/// any timed sentence wait for it. A "no fix" report without a time (`$GPRMC,,V,…`) closes the
/// open epoch and opens a timeless one, so that it cannot spoil a fix.
///
/// A fix that follows a lost fix starts a new track segment (`NMEAEpoch.segment`).
/// - Complexity: O(1) per sentence.
public struct NMEAFixAssembler: Sendable {
    /// The epoch being assembled, valid when `isOpen` (kept in place, so merging does not copy it).
    private var open = NMEAEpoch(timeOfDay: nil)
    private var isOpen = false
    private var segment = 0
    private var hadFix = false
    private var lostSinceFix = false

    public init() {}

    /// Adds a sentence. - Returns: the epoch it closed, if it began a new one.
    public mutating func ingest(_ message: NMEAMessage) -> NMEAEpoch? {
        guard let time = message.timeOfDay else { return ingestUntimed(message) }
        if isOpen {
            let adoptsPending = open.timeOfDay == nil && !open.reportsPosition
            if open.timeOfDay == time || adoptsPending {
                open.timeOfDay = time
                open.merge(message)
                return nil
            }
        }
        return replaceOpen(with: message, at: time)
    }

    /// Closes the open epoch at the end of the input. - Returns: it, if there is one.
    public mutating func finish() -> NMEAEpoch? {
        guard isOpen else { return nil }
        isOpen = false
        return closed(open)
    }

    private mutating func ingestUntimed(_ message: NMEAMessage) -> NMEAEpoch? {
        switch message {
        case .vtg, .gsa:
            if !isOpen {
                open = NMEAEpoch(timeOfDay: nil)
                isOpen = true
            }
            open.merge(message)
            return nil
        case .gga, .rmc, .gll, .gns:
            // A fix without a time cannot be placed (an NMEA 1.5 GLL); a "no fix" still says the fix is lost.
            guard message.fixReport == .noFix else { return nil }
            if isOpen && open.timeOfDay == nil {
                open.merge(message)
                return nil
            }
            return replaceOpen(with: message, at: nil)
        case .gst, .zda:
            return nil
        }
    }

    private mutating func replaceOpen(with message: NMEAMessage, at time: NMEATimeOfDay?) -> NMEAEpoch? {
        let previous = isOpen ? closed(open) : nil
        open = NMEAEpoch(timeOfDay: time)
        isOpen = true
        open.merge(message)
        return previous
    }

    private mutating func closed(_ epoch: NMEAEpoch) -> NMEAEpoch {
        var epoch = epoch
        if epoch.isFix {
            if hadFix && lostSinceFix { segment += 1 }
            hadFix = true
            lostSinceFix = false
        } else if epoch.reportsLostFix {
            lostSinceFix = true
        }
        epoch.segment = segment
        return epoch
    }
}
