import TravelogCore
/// Gives each epoch its UTC date: a state machine fed closed epochs in stream order.
///
/// GGA, GLL and GNS carry only the time of day; RMC and ZDA also carry the date. The dater keeps
/// the last date it learned and moves it forward a day whenever the time of day goes back by more
/// than half a day (23:59:59 → 00:00:00). Before any date is known (and without an initial date,
/// what `--date` sets) fixes are held back, up to `maximumHeldFixes`, and dated once the first
/// date arrives, counting back across the midnights crossed in between, as GPSBabel back-fills.
/// Fixes still undated at the end, or pushed out of a full buffer, come out with `date == nil`.
///
/// GPS week-number rollover: a receiver whose week counter has wrapped writes dates 1024 weeks
/// (19.6 years) too early (`220899`, 1999-08-22, from a Telit in April 2019). gpsd reports such
/// dates as they are, and so does the dater by default; with `gpsWeekRolloverCutoff` set, a date
/// from the stream that is earlier than it is moved forward by 1024 weeks until it is not.
/// - Complexity: O(1) amortised per epoch; memory holds at most `maximumHeldFixes` epochs.
public struct NMEAEpochDater: Sendable {
    /// An epoch and the date it was found to be on (`nil`: no date could be found).
    public struct Output: Hashable, Sendable {
        public var epoch: NMEAEpoch
        public var date: CivilDate?
    }

    public let gpsWeekRolloverCutoff: CivilDate?
    public let maximumHeldFixes: Int

    /// The date of the last epoch with one, and the day count at that epoch.
    private var anchor: (date: CivilDate, day: Int)?
    /// Midnights crossed since the first epoch.
    private var day = 0
    private var lastTimeOfDay: NMEATimeOfDay?
    /// Fixes waiting for a date, with their day count; `held[heldStart...]` are live.
    private var held: [(epoch: NMEAEpoch, day: Int)] = []
    private var heldStart = 0

    /// - Parameters:
    ///   - initialDate: the UTC date of the first epoch, for streams that carry none; the stream's
    ///     own dates take over when they come.
    ///   - gpsWeekRolloverCutoff: the earliest plausible date, or `nil` to take dates as written.
    ///   - maximumHeldFixes: how many fixes may wait for a date (negative counts as 0).
    public init(initialDate: CivilDate? = nil, gpsWeekRolloverCutoff: CivilDate? = nil, maximumHeldFixes: Int) {
        self.anchor = initialDate.map { ($0, 0) }
        self.gpsWeekRolloverCutoff = gpsWeekRolloverCutoff
        self.maximumHeldFixes = max(0, maximumHeldFixes)
    }

    /// Takes the next closed epoch. - Returns: the fixes that can now be dated (held ones first), or
    /// that leave a full buffer undated; epochs that are not fixes only teach the date.
    public mutating func ingest(_ epoch: NMEAEpoch) -> [Output] {
        guard let time = epoch.timeOfDay else { return [] }
        if let lastTimeOfDay, time.hasWrappedPastMidnight(since: lastTimeOfDay) { day += 1 }
        lastTimeOfDay = time
        var outputs: [Output] = []
        if let written = epoch.date {
            let date = gpsWeekRolloverCutoff.map { written.correctingWeekRollover(notBefore: $0) } ?? written
            anchor = (date, day)
            for index in heldStart..<held.count {
                outputs.append(Output(epoch: held[index].epoch, date: date.adding(days: held[index].day - day)))
            }
            held.removeAll()
            heldStart = 0
        }
        guard epoch.isFix else { return outputs }
        if let anchor {
            outputs.append(Output(epoch: epoch, date: anchor.date.adding(days: day - anchor.day)))
        } else {
            held.append((epoch, day))
            if held.count - heldStart > maximumHeldFixes {
                outputs.append(Output(epoch: held[heldStart].epoch, date: nil))
                heldStart += 1
                if heldStart * 2 >= held.count {
                    held.removeFirst(heldStart)
                    heldStart = 0
                }
            }
        }
        return outputs
    }

    /// Ends the stream. - Returns: the fixes still waiting, undated.
    public mutating func finish() -> [Output] {
        defer {
            held.removeAll()
            heldStart = 0
        }
        return held[heldStart...].map { Output(epoch: $0.epoch, date: nil) }
    }
}
