import Foundation
import TravelogFormats
import TravelogCore
import TravelogStore

/// Distance and locations per local day, week, month or year for a user's devices, computed from
/// the store in batches. `travelog stats` and the statistics API share it.
public enum HistoryStatistics {
    /// Kilometres or miles, for people.
    public enum UnitSystem: String, CaseIterable, Sendable {
        case metric, imperial

        /// `meters` in this system's distance unit.
        public func distance(meters: Double) -> Double {
            self == .metric ? meters / 1000 : Units.miles(meters: meters)
        }

        public var distanceUnit: String { self == .metric ? "km" : "mi" }
    }

    /// The periods (oldest first) and the total, of the person's fused track over `devices`
    /// (`TrackFusion`: devices recording the same movement count it once; one device gives its own
    /// track).
    /// - Parameters:
    ///   - placeOffsetSeconds: the UTC offset of the place a location was at, at its time (from the
    ///     gazetteer's time zones): a day in Tokyo is a Tokyo day. When it has no answer, the offset
    ///     the source wrote is used, then `timeZone`.
    ///   - timeZone: the zone of days for locations with neither.
    ///   - area: only the fixes inside it (the path of a map's view).
    public static func compute(store: any LocationStore, userID: UserID, devices: [Device], from: Date?, to: Date?,
                               area: CoordinateBox? = nil, period: CalendarPeriod, timeZone: TimeZone,
                               placeOffsetSeconds: (@Sendable (Location) -> Int?)? = nil) async throws
        -> (periods: [TravelStatistics.Period], total: TravelStatistics.Period) {
        let offset = localOffset(placeOffsetSeconds: placeOffsetSeconds, timeZone: timeZone)
        let box = StatisticsBox(TravelStatistics(period: period, utcOffset: offset))
        guard !devices.isEmpty else { return (box.statistics.periods, box.statistics.total) }
        let query = LocationQuery(userID: userID, deviceIDs: Set(devices.map(\.id)), from: from, to: to, area: area)
        try await store.forEachFusedBatch(query, utcOffset: offset) { batch in
            for fused in batch { box.statistics.ingest(fused.fix.location, device: fused.lane) }
        }
        return (box.statistics.periods, box.statistics.total)
    }

    /// The local offset of a location's day, seconds, as the statistics, the path and the trips
    /// read it: the place's zone, else the offset the source wrote, else `timeZone`.
    public static func localOffset(placeOffsetSeconds: (@Sendable (Location) -> Int?)?,
                                   timeZone: TimeZone) -> @Sendable (Location) -> Int {
        { location in
            placeOffsetSeconds?(location) ?? location.utcOffsetSeconds ?? timeZone.secondsFromGMT(for: location.timestamp)
        }
    }

    /// A period as a JSON object (for `JSONSerialization`): label, distance in metres and in `units`,
    /// locations, active days, first and last fix (ISO 8601), and the unrecorded movement across
    /// gaps (how many, and the straight lines in metres and in `units`), which the distance leaves out.
    public static func jsonObject(_ period: TravelStatistics.Period, units: UnitSystem) -> [String: Any] {
        [
            "period": period.label,
            "distanceMeters": (period.distanceMeters * 1000).rounded() / 1000,
            "distance": (units.distance(meters: period.distanceMeters) * 1000).rounded() / 1000,
            "unit": units.distanceUnit,
            "locations": period.locationCount,
            "activeDays": period.activeDays,
            "first": period.first.map(ISO8601TimeFormatter.string) ?? NSNull(),
            "last": period.last.map(ISO8601TimeFormatter.string) ?? NSNull(),
            "unrecordedMovements": period.unrecordedMovement.count,
            "unrecordedMovementMeters": (period.unrecordedMovement.straightLineMeters * 1000).rounded() / 1000,
            "unrecordedMovement": (units.distance(meters: period.unrecordedMovement.straightLineMeters) * 1000).rounded() / 1000,
        ]
    }

    /// The periods and the total as a JSON document.
    public static func json(_ periods: [TravelStatistics.Period], total: TravelStatistics.Period, units: UnitSystem) -> Data {
        let document: [String: Any] = ["periods": periods.map { jsonObject($0, units: units) },
                                       "total": jsonObject(total, units: units)]
        return (try? JSONSerialization.data(withJSONObject: document,
                                            options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
    }
}

/// The statistics being computed, touched only from the store's reading thread, one batch at a time.
private final class StatisticsBox: @unchecked Sendable {
    var statistics: TravelStatistics
    init(_ statistics: TravelStatistics) { self.statistics = statistics }
}
