import TravelogCore

extension CivilDate {
    /// Days in 1024 GPS weeks: how far back a receiver with a week-number rollover bug dates its fixes.
    static let gpsWeekRolloverDays = 1024 * 7

    /// The date moved forward by whole GPS week-number rollovers (1024 weeks each) until it is not
    /// before `cutoff`; unchanged when it is not before `cutoff` already.
    func correctingWeekRollover(notBefore cutoff: CivilDate) -> CivilDate {
        guard self < cutoff else { return self }
        let behind = cutoff.daysSince1970 - daysSince1970
        let rollovers = (behind + Self.gpsWeekRolloverDays - 1) / Self.gpsWeekRolloverDays
        return adding(days: rollovers * Self.gpsWeekRolloverDays)
    }
}
