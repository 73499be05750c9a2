import Foundation
import TravelogCore
import TravelogRouting
import TravelogStore

/// The journal's trips matched to the roads of the OSM extracts added (issue 29 item 3): each trip's
/// length along the roads (`matchedDistance`), the streets in order (`roads`) and the matched line,
/// by the map matcher (``RoadNetwork/match(_:mode:)``) with the profile of the trip's transport mode.
///
/// Trips are derived from the visits, never stored, so a match is stored under a key that digests
/// what it depends on (``key(_:)``): the device, the trip's times, mode and fixes, and the road
/// graphs. An edit of the journal (merge, split, delete) or a new or removed extract gives the trip
/// another key: it reads as `pending` until matched again, whatever the sequence of edits. Reading
/// (``attach(_:)``) never matches; the server's background service and the CLI match what is
/// pending (``match(_:userID:)``), one trip at a time.
public struct TripRoads: Sendable {
    /// Where a trip stands.
    public enum Status: String, Sendable {
        case matched, pending, unmatched
    }

    /// A trip with more fixes than this is matched on this many, evenly taken (the work of one
    /// step stays bounded: about a second in a release build).
    public static let maximumFixes = 5_000
    /// A trip is matched only when at least this share of its points lies in an extract.
    public static let minimumCoveredShare = 0.9
    /// Changes when the matching does, so that stored matches are made anew.
    static let version = "1"

    public let network: RoadNetwork?
    public let store: (any TripMatchStore)?
    /// The road graphs as part of every key: their files and sizes.
    let fingerprint: String

    public init(network: RoadNetwork?, store: (any TripMatchStore)?) {
        self.network = network
        self.store = store
        fingerprint = (network?.graphs ?? []).map { "\($0.path):\($0.nodeCount):\($0.segmentCount)" }.joined(separator: ";")
    }

    /// Whether there are roads to match on.
    public var hasRoads: Bool { !(network?.graphs.isEmpty ?? true) }

    /// The profile a trip is matched with, or why it is not matched at all: walking (and running)
    /// on foot, cycling by bicycle, a car's trip driving; a flight is not. A trip whose mode is not
    /// known (too few fixes) or that reads stationary takes the profile of its average speed.
    public static func profile(of trip: TripEntry) -> Result<DirectionsMode, TripRoadsUnmatched> {
        switch TransportMode(rawValue: trip.mode) ?? .unknown {
        case .walking, .running: return .success(.walking)
        case .cycling: return .success(.cycling)
        case .automotive: return .success(.driving)
        case .airborne: return .failure(.flight)
        case .unknown, .stationary:
            let speed = trip.durationSeconds > 0 ? trip.distanceMeters / trip.durationSeconds : 0
            return .success(speed < 2.5 ? .walking : speed < 7 ? .cycling : .driving)
        }
    }

    /// The key a trip's match is stored under: FNV-1a (64 bits) of the device, times, mode, points
    /// and road graphs, hex.
    public func key(_ trip: TripEntry) -> String {
        var hash = FNV1a()
        hash.mix("v\(Self.version)|\(trip.deviceID)|\(StoragePrecision.milliseconds(trip.startTime))|\(StoragePrecision.milliseconds(trip.endTime))|\(trip.mode)|\(fingerprint)|")
        for point in trip.coordinates {
            for value in point { hash.mix(String(Int64((value * 1e6).rounded())) + ",") }
        }
        return hash.hex
    }

    /// The trips with their stored matches filled in, and those still to match (`pending`).
    /// Without roads every trip is `unmatched`, saying so; a flight is `unmatched` without a match.
    public func attach(_ trips: [TripEntry]) async throws -> (trips: [TripEntry], pending: [TripEntry]) {
        guard hasRoads else {
            return (trips.map { trip in
                var trip = trip
                trip.roadsStatus = Status.unmatched.rawValue
                trip.roadsNote = TripRoadsUnmatched.noRoads.description
                return trip
            }, [])
        }
        var keys: [String] = []
        for trip in trips where (try? Self.profile(of: trip).get()) != nil { keys.append(key(trip)) }
        let stored = try await store?.tripMatches(keys: keys) ?? [:]
        var result: [TripEntry] = []
        var pending: [TripEntry] = []
        for var trip in trips {
            if case .failure(let reason) = Self.profile(of: trip) {
                trip.roadsStatus = Status.unmatched.rawValue
                trip.roadsNote = reason.description
            } else if let record = stored[key(trip)] {
                Self.fill(&trip, record)
            } else {
                trip.roadsStatus = Status.pending.rawValue
                trip.roadsNote = "not matched to the roads yet"
                pending.append(trip)
            }
            result.append(trip)
        }
        return (result, pending)
    }

    /// A trip's fields from its stored match.
    static func fill(_ trip: inout TripEntry, _ record: TripMatchRecord) {
        if let meters = record.matchedDistanceMeters {
            trip.roadsStatus = Status.matched.rawValue
            trip.matchedDistance = (meters * 10).rounded() / 10
            trip.roads = record.roads
            trip.matchedLine = record.line
            trip.roadsNote = nil
        } else {
            trip.roadsStatus = Status.unmatched.rawValue
            trip.roadsNote = record.unmatchedReason
        }
    }

    /// Matches one trip to the roads: seconds of CPU for the longest, so callers run it off the
    /// concurrency pool that requests share (the server on its matching queue).
    public func match(_ trip: TripEntry, userID: UserID) -> TripMatchRecord {
        var record = TripMatchRecord(key: key(trip), userID: userID, deviceID: DeviceID(rawValue: trip.deviceID),
                                     start: trip.startTime, end: trip.endTime,
                                     matchedDistanceMeters: nil, roads: [], line: [], unmatchedReason: nil)
        let mode: DirectionsMode
        switch Self.profile(of: trip) {
        case .success(let profile): mode = profile
        case .failure(let reason):
            record.unmatchedReason = reason.description
            return record
        }
        guard let network, !network.graphs.isEmpty else {
            record.unmatchedReason = TripRoadsUnmatched.noRoads.description
            return record
        }
        var points = trip.coordinates.compactMap { point in
            point.count == 2 ? try? Coordinate(latitude: point[1], longitude: point[0]) : nil
        }
        let covered = network.graphs.map { graph in points.count(where: graph.covers) }.max() ?? 0
        if points.isEmpty || Double(covered) < Self.minimumCoveredShare * Double(points.count) {
            record.unmatchedReason = (covered == 0 ? TripRoadsUnmatched.outside
                : .partlyOutside(percent: Int((100 * Double(covered) / Double(points.count)).rounded(.down)))).description
            return record
        }
        if points.count > Self.maximumFixes {
            let step = Double(points.count - 1) / Double(Self.maximumFixes - 1)
            points = (0..<Self.maximumFixes).map { points[Int((Double($0) * step).rounded())] }
        }
        do {
            let matched = try network.match(points, mode: mode)
            record.matchedDistanceMeters = matched.distanceMeters
            record.roads = matched.roads
            record.line = matched.pieces.map { piece in
                piece.map { [($0.longitude * 1e6).rounded() / 1e6, ($0.latitude * 1e6).rounded() / 1e6] }
            }
        } catch {
            record.unmatchedReason = "\(error)"
        }
        return record
    }

    /// Matches the pending trips one by one and stores each (the CLI; the server does the same in
    /// the background, on its matching queue).
    /// - Returns: the trips with their matches.
    public func matchPending(_ trips: [TripEntry], userID: UserID) async throws -> [TripEntry] {
        let (attached, pending) = try await attach(trips)
        guard !pending.isEmpty else { return attached }
        var records: [String: TripMatchRecord] = [:]
        for trip in pending {
            let record = match(trip, userID: userID)
            try await store?.storeTripMatch(record)
            records[record.key] = record
        }
        return attached.map { trip in
            var trip = trip
            if trip.roadsStatus == Status.pending.rawValue, let record = records[key(trip)] { Self.fill(&trip, record) }
            return trip
        }
    }
}

/// Why a trip is not matched to the roads.
public enum TripRoadsUnmatched: Error, Sendable, Equatable, CustomStringConvertible {
    case noRoads
    case flight
    case outside
    case partlyOutside(percent: Int)

    public var description: String {
        switch self {
        case .noRoads: "no OSM extract with roads has been added (travelog osm add)"
        case .flight: "a flight is not matched to roads"
        case .outside: "the trip lies outside the OSM extracts added"
        case .partlyOutside(let percent): "only \(percent) % of the trip lies in the OSM extracts added"
        }
    }
}
