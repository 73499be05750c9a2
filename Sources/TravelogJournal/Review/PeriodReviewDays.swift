import Foundation
import TravelogCore
import TravelogStore

/// The review's local days and weeks of trips: read from the kept figures (``FigureCacheStore``)
/// where their inputs have not changed, computed from the fixes where they have, then kept.
///
/// A kept figure's key digests everything it was computed from: the computation's version, the
/// zones that make local days (``PeriodReviewBuilder/offsetIdentity``), the fixes per device and UTC
/// day over the days it read with their deletions (`DailyFixCount`), and for a week of trips its
/// visits (times, places, decisions). Fixes are only ever added or deleted, and both move those.
struct PeriodReviewDays: Sendable {
    static let dayKind = "review-day"
    static let tripKind = "review-trips"
    static let lineKind = "review-lines"
    /// Bump when a kept figure's computation changes: every kept figure is then stale.
    static let version = 4
    /// UTC days counted around the period's local days: a local day reads one either side; a week of
    /// trips (on a grid: the first may begin up to seven days before the period's first UTC day, which
    /// is up to a day before its first local day, and the last end as far after) reads
    /// ``PeriodReviewBuilder/tripMarginDays`` more, and its key one more either side.
    static let countedMarginDays = PeriodReviewBuilder.tripChunkDays + PeriodReviewBuilder.tripMarginDays + 4

    /// What a local day's figures hold.
    struct DayFigures: Codable, Hashable, Sendable {
        var distanceMeters = 0.0
        var locations = 0
        /// The corners of the convex hull of the day's fixes (`DayHull`), `[latitude, longitude,
        /// milliseconds]`: the furthest of them from home is the day's furthest fix.
        var hull: [[Double]] = []
    }

    /// What the review reads of a trip.
    struct TripFigure: Codable, Hashable, Sendable {
        /// The departure, milliseconds since 1970.
        var start: Int64
        var mode: String
        var distanceMeters: Double
        var durationSeconds: Double
        var localStart: String
        var localEnd: String
    }

    /// A fix as the furthest from home.
    struct FarPoint: Sendable {
        var coordinate: Coordinate
        var time: Date
        var day: Int
        /// Haversine metres from home (what is compared; the review states the exact distance).
        var meters: Double
    }

    let builder: PeriodReviewBuilder
    let userID: UserID
    let kept: (any FigureCacheStore)?
    /// The fixes per device on each UTC day around the period, `device:count,…` (kept figures only).
    private let counts: [Int: String]
    private let base: String

    /// - Parameter around: the period's local days (the fixes are counted on the UTC days around them).
    init(builder: PeriodReviewBuilder, userID: UserID, kept: (any FigureCacheStore)?, around days: ClosedRange<Int>) async throws {
        self.builder = builder
        self.userID = userID
        self.kept = kept
        guard let kept else {
            counts = [:]
            base = ""
            return
        }
        let utcDays = days.lowerBound - Self.countedMarginDays...days.upperBound + Self.countedMarginDays
        var byDay: [Int: [DailyFixCount]] = [:]
        for row in try await kept.dailyFixCounts(userID: userID, days: utcDays) { byDay[row.day, default: []].append(row) }
        counts = byDay.mapValues { rows in
            rows.sorted { $0.deviceID.rawValue < $1.deviceID.rawValue }.map { "\($0.deviceID.rawValue):\($0.count):\($0.version)" }
                .joined(separator: ",")
        }
        base = "v\(Self.version)|\(builder.offsetIdentity)|"
    }

    // MARK: Days

    /// The figures of `days` and their lines when asked (``DayLines``, joined across midnights).
    /// - Parameter decodeLines: `false` only makes sure the lines are kept (what the background keeper
    ///   asks): the kept ones are not decoded, and no lines come back.
    func figures(_ days: ClosedRange<Int>, lines: Bool, decodeLines: Bool = true) async throws
        -> (figures: [Int: DayFigures], lines: PeriodReviewBuilder.Lines) {
        guard let kept else {
            let pass = try await read(days, lines: lines)
            var figures: [Int: DayFigures] = [:]
            for day in days { figures[day] = pass.figures(day) }
            return (figures, DayLines.joined(days.map { pass.dayLines[$0] ?? [:] }))
        }
        let storedFigures = try await kept.cachedFigures(userID: userID, kind: Self.dayKind, slots: days)
        let storedLines = lines ? try await kept.cachedFigures(userID: userID, kind: Self.lineKind, slots: days) : [:]
        var figures: [Int: DayFigures] = [:]
        var lineDays: [Int: [Int64: [DayLines.Piece]]] = [:]
        var missing: [Int] = []
        for day in days {
            let key = dayKey(day)
            guard let found = storedFigures[day], found.key == key,
                  let decoded = try? JSONDecoder().decode(DayFigures.self, from: found.payload) else {
                missing.append(day)
                continue
            }
            if lines {
                guard let foundLines = storedLines[day], foundLines.key == key else {
                    missing.append(day)
                    continue
                }
                if decodeLines {
                    guard let pieces = DayLines.decode(foundLines.payload) else {
                        missing.append(day)
                        continue
                    }
                    lineDays[day] = pieces
                }
            }
            figures[day] = decoded
        }
        for run in Self.runs(missing) {
            let pass = try await read(run, lines: lines)
            var fresh: [Int: CachedFigures] = [:], freshLines: [Int: CachedFigures] = [:]
            let encoder = JSONEncoder()
            for day in run {
                figures[day] = pass.figures(day)
                fresh[day] = CachedFigures(key: dayKey(day), payload: try encoder.encode(figures[day]))
                if lines {
                    lineDays[day] = pass.dayLines[day] ?? [:]
                    freshLines[day] = CachedFigures(key: dayKey(day), payload: DayLines.encode(lineDays[day]!))
                }
            }
            try await kept.storeCachedFigures(userID: userID, kind: Self.dayKind, fresh)
            try await kept.storeCachedFigures(userID: userID, kind: Self.lineKind, freshLines)
        }
        let joined = lines && decodeLines ? DayLines.joined(days.map { lineDays[$0] ?? [:] }) : PeriodReviewBuilder.Lines()
        return (figures, joined)
    }

    /// The fix furthest from `home` among the days' kept hulls (the earliest of equals).
    func furthest(from home: Coordinate, figures: [Int: DayFigures]) -> FarPoint? {
        var best: FarPoint?
        for (day, figure) in figures where figure.locations > 0 {
            for corner in figure.hull {
                guard corner.count == 3, let coordinate = Coordinate(validLatitude: corner[0], longitude: corner[1]) else { continue }
                let point = FarPoint(coordinate: coordinate, time: StoragePrecision.date(milliseconds: Int64(corner[2])), day: day,
                                     meters: coordinate.haversineDistanceMetersApproximate(to: home))
                if best.map({ (point.meters, $0.time) > ($0.meters, point.time) }) ?? true { best = point }
            }
        }
        return best
    }

    /// A local day reads the fixes of the UTC day before and after it too (offsets of -12 to +14 hours).
    private func dayKey(_ day: Int) -> String {
        var hash = FNV1a()
        hash.mix(base + "day:\(day)|" + countsKey(day - 1...day + 1))
        return hash.hex
    }

    private func countsKey(_ days: ClosedRange<Int>) -> String { days.map { counts[$0] ?? "" }.joined(separator: ";") }

    /// Reads the fixes of the local days `days` (the UTC day either side holds their ends) once.
    private func read(_ days: ClosedRange<Int>, lines: Bool) async throws -> DayPass {
        let from = Date(timeIntervalSince1970: Double(days.lowerBound - 1) * 86_400)
        let to = Date(timeIntervalSince1970: Double(days.upperBound + 2) * 86_400)
        let pass = DayPass(days: days, utcOffset: builder.utcOffset, lines: lines)
        try await builder.reader.store.forEachFusedBatch(LocationQuery(userID: userID, from: from, to: to),
                                                         utcOffset: builder.utcOffset) { batch in
            for fused in batch { pass.add(fused) }
        }
        return pass
    }

    /// Consecutive days together.
    static func runs(_ days: [Int]) -> [ClosedRange<Int>] {
        var runs: [ClosedRange<Int>] = []
        for day in days.sorted() {
            if let last = runs.last, last.upperBound + 1 == day {
                runs[runs.count - 1] = last.lowerBound...day
            } else {
                runs.append(day...day)
            }
        }
        return runs
    }

    // MARK: Trips

    /// The trips that start in `[from, to)`, oldest first, read a week at a time: weeks of a fixed grid
    /// (seven days from 1970-01-01T00:00Z), so a year's review and its months' share them, each from
    /// the kept figures when its fixes and visits are those it was computed from.
    func trips(from: Date, to: Date) async throws -> [TripFigure] {
        let store = builder.reader.store
        let margin = Double(PeriodReviewBuilder.tripMarginDays) * 86_400
        let length = Double(PeriodReviewBuilder.tripChunkDays) * 86_400
        var weeks: [(start: Date, end: Date)] = []
        var start = Date(timeIntervalSince1970: (from.timeIntervalSince1970 / length).rounded(.down) * length)
        while start < to {
            weeks.append((start, start.addingTimeInterval(length)))
            start = start.addingTimeInterval(length)
        }
        guard let firstWeek = weeks.first, let lastWeek = weeks.last else { return [] }
        // A device that has no fix nor visit in a week changes nothing of it: only those count.
        var stored: [Int: CachedFigures] = [:]
        if let kept {
            stored = try await kept.cachedFigures(userID: userID, kind: Self.tripKind,
                                                  slots: Self.slot(firstWeek.start)...Self.slot(lastWeek.start))
        }
        let (fromMS, toMS) = (StoragePrecision.milliseconds(from), StoragePrecision.milliseconds(to))
        var all: [TripFigure] = []
        for week in weeks {
            let lower = week.start.addingTimeInterval(-margin), upper = week.end.addingTimeInterval(margin)
            var figures: [TripFigure]?
            var key: String?
            if let kept {
                let visits = try await store.visits(userID: userID, deviceIDs: nil, from: lower, to: upper, includeHidden: true)
                key = tripKey(week, read: lower...upper, visits: visits)
                if let found = stored[Self.slot(week.start)], found.key == key {
                    figures = try? JSONDecoder().decode([TripFigure].self, from: found.payload)
                }
            }
            if figures == nil {
                let trips = try await builder.reader.trips(userID: userID, from: lower, to: upper, utcOffset: builder.utcOffset)
                let found = trips.filter { $0.startTime >= week.start && $0.startTime < week.end }.map {
                    TripFigure(start: StoragePrecision.milliseconds($0.startTime), mode: $0.mode, distanceMeters: $0.distanceMeters,
                               durationSeconds: $0.durationSeconds, localStart: $0.localStart, localEnd: $0.localEnd)
                }
                if let kept, let key {
                    try await kept.storeCachedFigures(userID: userID, kind: Self.tripKind,
                                                      [Self.slot(week.start): CachedFigures(key: key, payload: try JSONEncoder().encode(found))])
                }
                figures = found
            }
            all += (figures ?? []).filter { $0.start >= fromMS && $0.start < toMS }
        }
        return all
    }

    /// A week is kept under its first second (UTC).
    private static func slot(_ start: Date) -> Int { Int(start.timeIntervalSince1970.rounded(.down)) }

    private func tripKey(_ week: (start: Date, end: Date), read: ClosedRange<Date>, visits: [StoredVisit]) -> String {
        var hash = FNV1a()
        let utcDay = { (date: Date) in Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }
        hash.mix(base + "trips:\(StoragePrecision.milliseconds(week.start))-\(StoragePrecision.milliseconds(week.end))|")
        hash.mix(countsKey(utcDay(read.lowerBound) - 1...utcDay(read.upperBound) + 1))
        let ms = { (date: Date?) in date.map { String(StoragePrecision.milliseconds($0)) } ?? "-" }
        for stored in visits {
            let visit = stored.visit
            hash.mix("|\(stored.id.rawValue),\(visit.deviceID.rawValue),\(ms(visit.arrival)),\(ms(visit.departure)),")
            hash.mix("\(StoragePrecision.e7(visit.center.latitude)),\(StoragePrecision.e7(visit.center.longitude)),\(visit.radiusMeters),")
            hash.mix("\(visit.locationCount),\(stored.hidden),\(ms(stored.mergedUntil)),\(visit.placemark?.timeZone ?? "-")")
        }
        return hash.hex
    }
}

/// One read of some local days' fixes: each day's statistics, hull and lines. Touched only from the store's reading thread, a batch at a time.
private final class DayPass: @unchecked Sendable {
    let days: ClosedRange<Int>
    let utcOffset: @Sendable (Location) -> Int
    let collectLines: Bool
    var statistics: TravelStatistics
    var hulls: [Int: DayHull] = [:]
    /// Each day's lines by device (a day's own: they start afresh at its midnight).
    var dayLines: [Int: [Int64: [DayLines.Piece]]] = [:]
    private var lastKept: [DayLines.Lane: Location] = [:]
    private var lastSeen: [DayLines.Lane: Date] = [:]
    private lazy var periods = Dictionary(uniqueKeysWithValues: statistics.periods.map { ($0.label, $0) })

    init(days: ClosedRange<Int>, utcOffset: @escaping @Sendable (Location) -> Int, lines: Bool) {
        self.days = days
        self.utcOffset = utcOffset
        collectLines = lines
        statistics = TravelStatistics(period: .day, utcOffset: utcOffset)
    }

    func add(_ fused: TrackFusion.Fused) {
        let location = fused.fix.location
        let day = CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970, utcOffsetSeconds: utcOffset(location)).daysSince1970
        guard days.contains(day) else { return }
        statistics.ingest(location, device: fused.lane)
        hulls[day, default: DayHull()].add(location)
        guard collectLines else { return }
        let device = fused.fix.device, lane = DayLines.Lane(day: day, device: device)
        let seen = lastSeen.updateValue(location.timestamp, forKey: lane)
        if let last = lastKept[lane], let seen, location.timestamp.timeIntervalSince(seen) <= PeriodReviewBuilder.lineGapSeconds {
            guard location.coordinate.haversineDistanceMetersApproximate(to: last.coordinate) >= PeriodReviewBuilder.lineStepMeters else { return }
            let index = dayLines[day]![device]!.count - 1
            dayLines[day]![device]![index].points.append(location.coordinate)
            dayLines[day]![device]![index].lastTime = location.timestamp
        } else {
            dayLines[day, default: [:]][device, default: []].append(DayLines.Piece(firstTime: location.timestamp, lastTime: location.timestamp,
                                                                                    points: [location.coordinate]))
        }
        lastKept[lane] = location
    }

    /// A day's figures, once the read is over.
    func figures(_ day: Int) -> PeriodReviewDays.DayFigures {
        var figures = PeriodReviewDays.DayFigures()
        figures.hull = hulls[day]?.corners ?? []
        if let period = periods[CivilDate(daysSince1970: day).description] {
            figures.distanceMeters = period.distanceMeters
            figures.locations = period.locationCount
        }
        return figures
    }
}

/// The convex hull of a day's fixes, in a plane about its first fix (longitude differences scaled by
/// the cosine of its latitude, wrapped at the antimeridian): the fix furthest from any home is one
/// of its corners (for a day's extent the plane's distortion is far below the fixes' accuracy). Kept
/// by Andrew's monotone chain (A. M. Andrew, "Another efficient algorithm for convex hulls in two
/// dimensions", 1979), the points folded into their hull every ``foldCount``, so a day of a fix a
/// second holds a thousand points or so, not 86,400.
struct DayHull {
    struct Corner {
        var latitude: Double
        var longitude: Double
        var milliseconds: Int64
    }

    static let foldCount = 1_024
    private var origin: (latitude: Double, longitude: Double, scale: Double)?
    private var points: [Corner] = []

    mutating func add(_ location: Location) {
        let coordinate = location.coordinate
        if origin == nil {
            origin = (coordinate.latitude, coordinate.longitude, cos(coordinate.latitude * .pi / 180))
        }
        points.append(Corner(latitude: coordinate.latitude, longitude: coordinate.longitude,
                             milliseconds: StoragePrecision.milliseconds(location.timestamp)))
        if points.count >= Self.foldCount { points = folded() }
    }

    /// The corners, `[latitude, longitude, milliseconds]`, counter-clockwise from the west.
    var corners: [[Double]] { folded().map { [$0.latitude, $0.longitude, Double($0.milliseconds)] } }

    private func folded() -> [Corner] {
        guard let origin, points.count > 2 else { return points }
        func plane(_ corner: Corner) -> (x: Double, y: Double) {
            var difference = corner.longitude - origin.longitude
            if difference > 180 { difference -= 360 } else if difference < -180 { difference += 360 }
            return (difference * origin.scale, corner.latitude - origin.latitude)
        }
        // Equal points: the earliest first, so the kept corner is the earliest fix there.
        let sorted = points.map { (point: plane($0), corner: $0) }
            .sorted { ($0.point.x, $0.point.y, $0.corner.milliseconds) < ($1.point.x, $1.point.y, $1.corner.milliseconds) }
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double {
            (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
        }
        var lower: [(point: (x: Double, y: Double), corner: Corner)] = []
        for entry in sorted {
            while lower.count >= 2 && cross(lower[lower.count - 2].point, lower[lower.count - 1].point, entry.point) <= 0 { lower.removeLast() }
            lower.append(entry)
        }
        var upper: [(point: (x: Double, y: Double), corner: Corner)] = []
        for entry in sorted.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2].point, upper[upper.count - 1].point, entry.point) <= 0 { upper.removeLast() }
            upper.append(entry)
        }
        return (Array(lower.dropLast()) + Array(upper.dropLast())).map(\.corner)
    }
}

/// The lines of the review's image, kept per local day: each device's fixes of the day thinned to
/// ``PeriodReviewBuilder/lineStepMeters`` and broken at silences of ``PeriodReviewBuilder/lineGapSeconds``,
/// then joined across midnights where the silence is shorter (``joined(_:)``), so the lines of a
/// period are the same whether its days were kept or read.
enum DayLines {
    /// A device on a local day.
    struct Lane: Hashable {
        var day: Int
        var device: Int64
    }

    /// A piece of line and the times of its ends.
    struct Piece: Hashable {
        var firstTime: Date
        var lastTime: Date
        var points: [Coordinate]
    }

    /// The days' lines (oldest day first) as the image draws them.
    static func joined(_ days: [[Int64: [Piece]]]) -> PeriodReviewBuilder.Lines {
        var lines = PeriodReviewBuilder.Lines()
        var lastTime: [Int64: Date] = [:]
        for day in days {
            for (device, pieces) in day {
                let id = DeviceID(rawValue: device)
                for piece in pieces {
                    if let last = lastTime[device], piece.firstTime.timeIntervalSince(last) <= PeriodReviewBuilder.lineGapSeconds,
                       let count = lines.byDevice[id]?.count, count > 0 {
                        lines.byDevice[id]![count - 1] += piece.points
                    } else {
                        lines.byDevice[id, default: []].append(piece.points)
                    }
                    lastTime[device] = piece.lastTime
                }
            }
        }
        return lines
    }

    /// Binary, little-endian: per device its id (Int64) and piece count (UInt32); per piece its end
    /// times (Int64 milliseconds), point count (UInt32) and points (Int32 latitude and longitude in 1e-7°).
    static func encode(_ day: [Int64: [Piece]]) -> Data {
        var data = Data()
        func put<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) } }
        for device in day.keys.sorted() {
            let pieces = day[device]!
            put(device)
            put(UInt32(pieces.count))
            for piece in pieces {
                put(StoragePrecision.milliseconds(piece.firstTime))
                put(StoragePrecision.milliseconds(piece.lastTime))
                put(UInt32(piece.points.count))
                for point in piece.points {
                    put(Int32(StoragePrecision.e7(point.latitude)))
                    put(Int32(StoragePrecision.e7(point.longitude)))
                }
            }
        }
        return data
    }

    /// The lines `encode` wrote, `nil` for anything else.
    static func decode(_ data: Data) -> [Int64: [Piece]]? {
        let bytes = [UInt8](data)
        var offset = 0
        func take<T: FixedWidthInteger>(_: T.Type) -> T? {
            guard offset + MemoryLayout<T>.size <= bytes.count else { return nil }
            var value: T = 0
            for index in 0..<MemoryLayout<T>.size { value |= T(truncatingIfNeeded: bytes[offset + index]) << (8 * index) }
            offset += MemoryLayout<T>.size
            return value
        }
        var day: [Int64: [Piece]] = [:]
        while offset < bytes.count {
            guard let device = take(Int64.self), let count = take(UInt32.self) else { return nil }
            var pieces: [Piece] = []
            for _ in 0..<count {
                guard let first = take(Int64.self), let last = take(Int64.self), let points = take(UInt32.self),
                      Int(points) * 8 <= bytes.count - offset else { return nil }
                var piece = Piece(firstTime: StoragePrecision.date(milliseconds: first), lastTime: StoragePrecision.date(milliseconds: last),
                                  points: [])
                piece.points.reserveCapacity(Int(points))
                for _ in 0..<points {
                    guard let latitude = take(Int32.self), let longitude = take(Int32.self),
                          let point = Coordinate(validLatitude: StoragePrecision.degrees(e7: Int64(latitude)),
                                                 longitude: StoragePrecision.degrees(e7: Int64(longitude))) else { return nil }
                    piece.points.append(point)
                }
                pieces.append(piece)
            }
            day[device] = pieces
        }
        return day
    }
}
