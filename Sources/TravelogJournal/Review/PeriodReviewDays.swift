import Foundation
import TravelogCore
import TravelogStore

/// The review's local days and weeks of trips: read from the kept figures (``FigureCacheStore``)
/// where their inputs have not changed, computed from the fixes where they have, then kept.
///
/// A kept figure's key digests everything it was computed from: the computation's version, the
/// zones that make local days (``PeriodReviewBuilder/offsetIdentity``), the user's count of
/// deletions (`HistoryRemovalStore`), the fixes per device and UTC day over the days it read, and for
/// a week of trips its devices and visits (times, places, decisions). Fixes are only ever added or
/// deleted, and both move the counts.
struct PeriodReviewDays: Sendable {
    static let dayKind = "review-day"
    static let tripKind = "review-trips"
    static let lineKind = "review-lines"
    /// Bump when a kept figure's computation changes: every kept figure is then stale.
    static let version = 2
    /// UTC days counted around the period: a local day reads one either side, a week of trips
    /// ``PeriodReviewBuilder/tripMarginDays`` more and one for the zone of the week's bounds.
    static let countedMarginDays = PeriodReviewBuilder.tripMarginDays + 4

    /// What a local day's figures hold.
    struct DayFigures: Codable, Hashable, Sendable {
        var distanceMeters = 0.0
        var locations = 0
        /// The box of the day's fixes, `[south, north, west, east]` in degrees.
        var box: [Double]?
        /// The day's outermost fixes (north, south, east, west and the four diagonals),
        /// `[latitude, longitude, milliseconds]`.
        var edges: [[Double]] = []
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
        var byDay: [Int: [(Int64, Int)]] = [:]
        for row in try await kept.dailyFixCounts(userID: userID, days: utcDays) {
            byDay[row.day, default: []].append((row.deviceID.rawValue, row.count))
        }
        counts = byDay.mapValues { $0.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",") }
        let removals = try await (builder.reader.store as? any HistoryRemovalStore)?.historyRemovals()[userID] ?? 0
        base = "v\(Self.version)|\(builder.offsetIdentity)|removed:\(removals)|"
    }

    // MARK: Days

    /// The figures of `days`, their lines when asked (``DayLines``, joined across midnights), and
    /// whether every day was read (nothing kept) with the fix furthest from `home` then.
    func figures(_ days: ClosedRange<Int>, home: Coordinate?, lines: Bool) async throws
        -> (figures: [Int: DayFigures], lines: PeriodReviewBuilder.Lines, allRead: Bool, far: FarPoint?) {
        guard let kept else {
            let pass = try await read(days, home: home, lines: lines)
            var figures: [Int: DayFigures] = [:]
            for day in days { figures[day] = pass.figures(day) }
            return (figures, DayLines.joined(days.map { pass.dayLines[$0] ?? [:] }), true, pass.far)
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
                guard let foundLines = storedLines[day], foundLines.key == key, let pieces = DayLines.decode(foundLines.payload) else {
                    missing.append(day)
                    continue
                }
                lineDays[day] = pieces
            }
            figures[day] = decoded
        }
        for run in Self.runs(missing) {
            let pass = try await read(run, home: nil, lines: lines)
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
        let joined = lines ? DayLines.joined(days.map { lineDays[$0] ?? [:] }) : PeriodReviewBuilder.Lines()
        return (figures, joined, false, nil)
    }

    /// The fix furthest from `home` among the days' kept figures: the best of their outermost fixes,
    /// then the days whose box could hold a fix further than that read again (exact, whatever the
    /// shape of a day).
    func furthest(from home: Coordinate, figures: [Int: DayFigures]) async throws -> FarPoint? {
        var best: FarPoint?
        func consider(_ point: FarPoint) {
            guard let current = best else { best = point; return }
            if (point.meters, current.time) > (current.meters, point.time) { best = point }
        }
        for (day, figure) in figures where figure.locations > 0 {
            for edge in figure.edges {
                guard edge.count == 3, let coordinate = Coordinate(validLatitude: edge[0], longitude: edge[1]) else { continue }
                consider(FarPoint(coordinate: coordinate, time: StoragePrecision.date(milliseconds: Int64(edge[2])), day: day,
                                  meters: coordinate.haversineDistanceMetersApproximate(to: home)))
            }
        }
        guard let found = best else { return nil }
        let again = figures.filter { _, figure in
            guard figure.locations > 0 else { return false }
            guard let box = figure.box, box.count == 4, let reach = Self.farthest(from: home, inBox: box) else { return true }
            // Room for rounding: the bound and the fixes are measured by the same formula.
            return reach * (1 + 1e-9) + 0.01 > found.meters
        }.keys.sorted()
        for run in Self.runs(again) {
            let pass = try await read(run, home: home, lines: false)
            if let far = pass.far { consider(far) }
        }
        return best
    }

    /// The greatest haversine distance from `home` to a point of a box `[south, north, west, east]`
    /// (degrees), `nil` for a box wider than 180° of longitude. Along a parallel the distance grows
    /// with the difference of longitude up to 180°, so the farthest point lies on the box's west or
    /// east meridian, or on home's antimeridian where the box holds it; along a meridian it has one
    /// turning point (where d/dφ of the spherical law of cosines is 0: tan φ = tan φ₀ / cos Δλ),
    /// so the ends and that point are all there is to measure.
    static func farthest(from home: Coordinate, inBox box: [Double]) -> Double? {
        let (south, north, west, east) = (box[0], box[1], box[2], box[3])
        guard east - west <= 180, south <= north else { return nil }
        var meridians = [west, east]
        for antimeridian in [home.longitude + 180, home.longitude - 180] where antimeridian > west && antimeridian < east {
            meridians.append(antimeridian)
        }
        let φ0 = home.latitude * .pi / 180
        var best = 0.0
        for longitude in meridians {
            var latitudes = [south, north]
            let cosΔλ = cos((longitude - home.longitude) * .pi / 180)
            if abs(cosΔλ) > 1e-12 {
                let turning = atan(tan(φ0) / cosΔλ) * 180 / .pi
                if turning > south && turning < north { latitudes.append(turning) }
            }
            let wrapped = longitude > 180 ? longitude - 360 : longitude < -180 ? longitude + 360 : longitude
            for latitude in latitudes {
                guard let point = Coordinate(validLatitude: latitude, longitude: wrapped) else { return nil }
                best = max(best, point.haversineDistanceMetersApproximate(to: home))
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
    private func read(_ days: ClosedRange<Int>, home: Coordinate?, lines: Bool) async throws -> DayPass {
        let from = Date(timeIntervalSince1970: Double(days.lowerBound - 1) * 86_400)
        let to = Date(timeIntervalSince1970: Double(days.upperBound + 2) * 86_400)
        let pass = DayPass(days: days, utcOffset: builder.utcOffset, home: home, lines: lines)
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
    /// the kept figures when its fixes, devices and visits are those it was computed from.
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
        var stored: [Int: CachedFigures] = [:]
        var devices = ""
        if let kept {
            stored = try await kept.cachedFigures(userID: userID, kind: Self.tripKind,
                                                  slots: Self.slot(firstWeek.start)...Self.slot(lastWeek.start))
            devices = try await store.devices(userID: userID).map { String($0.id.rawValue) }.sorted().joined(separator: ",")
        }
        let (fromMS, toMS) = (StoragePrecision.milliseconds(from), StoragePrecision.milliseconds(to))
        var all: [TripFigure] = []
        for week in weeks {
            let lower = week.start.addingTimeInterval(-margin), upper = week.end.addingTimeInterval(margin)
            var figures: [TripFigure]?
            var key: String?
            if let kept {
                let visits = try await store.visits(userID: userID, deviceIDs: nil, from: lower, to: upper, includeHidden: true)
                key = tripKey(week, read: lower...upper, devices: devices, visits: visits)
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

    private func tripKey(_ week: (start: Date, end: Date), read: ClosedRange<Date>, devices: String, visits: [StoredVisit]) -> String {
        var hash = FNV1a()
        let utcDay = { (date: Date) in Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }
        hash.mix(base + "trips:\(StoragePrecision.milliseconds(week.start))-\(StoragePrecision.milliseconds(week.end))|devices:\(devices)|")
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

/// One read of some local days' fixes: each day's statistics, cap and outermost fixes and lines,
/// the fix furthest from home. Touched only from the store's reading thread, a batch at a time.
private final class DayPass: @unchecked Sendable {
    let days: ClosedRange<Int>
    let utcOffset: @Sendable (Location) -> Int
    let home: Coordinate?
    let collectLines: Bool
    var statistics: TravelStatistics
    var shapes: [Int: DayShape] = [:]
    /// The fix furthest from home (the earliest of equals).
    var far: PeriodReviewDays.FarPoint?
    /// Each day's lines by device (a day's own: they start afresh at its midnight).
    var dayLines: [Int: [Int64: [DayLines.Piece]]] = [:]
    private var lastKept: [DayLines.Lane: Location] = [:]
    private var lastSeen: [DayLines.Lane: Date] = [:]
    private lazy var periods = Dictionary(uniqueKeysWithValues: statistics.periods.map { ($0.label, $0) })

    init(days: ClosedRange<Int>, utcOffset: @escaping @Sendable (Location) -> Int, home: Coordinate?, lines: Bool) {
        self.days = days
        self.utcOffset = utcOffset
        self.home = home
        collectLines = lines
        statistics = TravelStatistics(period: .day, utcOffset: utcOffset)
    }

    func add(_ fused: TrackFusion.Fused) {
        let location = fused.fix.location
        let day = CivilDate(secondsSince1970: location.timestamp.timeIntervalSince1970, utcOffsetSeconds: utcOffset(location)).daysSince1970
        guard days.contains(day) else { return }
        statistics.ingest(location, device: fused.lane)
        shapes[day, default: DayShape()].add(location)
        if let home {
            let meters = location.coordinate.haversineDistanceMetersApproximate(to: home)
            if meters > far?.meters ?? -1 {
                far = PeriodReviewDays.FarPoint(coordinate: location.coordinate, time: location.timestamp, day: day, meters: meters)
            }
        }
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
        var figures = shapes[day]?.figures ?? PeriodReviewDays.DayFigures()
        if let period = periods[CivilDate(daysSince1970: day).description] {
            figures.distanceMeters = period.distanceMeters
            figures.locations = period.locationCount
        }
        return figures
    }
}

/// A day's box and outermost fixes.
private struct DayShape {
    var box: [Double]?
    var best: [(score: Double, location: Location)?] = Array(repeating: nil, count: 8)

    mutating func add(_ location: Location) {
        let φ = location.coordinate.latitude, λ = location.coordinate.longitude
        if let old = box {
            box = [min(old[0], φ), max(old[1], φ), min(old[2], λ), max(old[3], λ)]
        } else {
            box = [φ, φ, λ, λ]
        }
        let scores = [φ, -φ, λ, -λ, φ + λ, φ - λ, λ - φ, -φ - λ]
        for (index, score) in scores.enumerated() where score > best[index]?.score ?? -.infinity {
            best[index] = (score, location)
        }
    }

    var figures: PeriodReviewDays.DayFigures {
        var figures = PeriodReviewDays.DayFigures()
        figures.box = box
        var seen = Set<[Double]>()
        for case let (_, location)? in best {
            let edge = [location.coordinate.latitude, location.coordinate.longitude,
                        Double(StoragePrecision.milliseconds(location.timestamp))]
            if seen.insert(edge).inserted { figures.edges.append(edge) }
        }
        return figures
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
