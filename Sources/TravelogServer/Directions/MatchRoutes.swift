import Foundation
import Hummingbird
import TravelogAccounts
import TravelogCore
import TravelogStore
import TravelogRouting

/// `GET /api/v1/match`: a trip of the journal (`trip=VISIT_ID`, the fixes from that visit to the
/// next) or the user's fixes in a range (`from`, `to`, `device`) matched to the roads of the OSM
/// extracts added (``RoadNetwork/match(_:mode:)``), as `travelog match --json` prints it without
/// its per-fix list.
struct MatchRoutes {
    let network: RoadNetwork?
    let store: any TravelogStore
    let links: ShareLinks

    /// The longest range matched at once, seconds.
    static let maximumRangeSeconds = 24 * 3_600.0
    /// The most fixes matched at once.
    static let maximumFixes = 50_000
    /// Where matches run, one at a time.
    static let matching = DispatchQueue(label: "travelog.map-matching", qos: .utility)

    func add(to router: RouteRegistry) {
        router.get("/api/v1/match") { request, context in
            let identity = try context.requireIdentity()
            let modeName = try request.choiceQuery("mode", DirectionsMode.allCases.map(\.rawValue), default: DirectionsMode.driving.rawValue)
            guard let mode = DirectionsMode(rawValue: modeName) else { throw APIError.badRequest("unknown mode \(modeName)") }
            let coordinates = try await trace(request, userID: identity.user.id)
            guard coordinates.count <= Self.maximumFixes + 2 else {
                throw APIError.badRequest("more than \(Self.maximumFixes) fixes to match: ask for a shorter range")
            }
            guard let network, !network.graphs.isEmpty else { throw APIError.notFound("\(MapMatchError.noRoadNetwork)") }
            // Matching is seconds of CPU for the largest ranges: it runs on a queue of its own, one
            // match at a time, never on the concurrency pool that ingest and every other route share.
            let matched: Result<MapMatch, MapMatchError> = await withCheckedContinuation { continuation in
                Self.matching.async { continuation.resume(returning: Result { () throws(MapMatchError) in try network.match(coordinates, mode: mode) }) }
            }
            switch matched {
            case .success(let match): return try Response.json(MapMatchJSON(match))
            // Well-formed input without a match (no fixes, outside coverage, none near a road): 422, saying why.
            case .failure(let error): throw APIError.http(status: .unprocessableContent, "\(error)")
            }
        }
    }

    /// The trace asked for: a trip's as the journal draws it (``ShareLinks/tripTrace(leaving:userID:limit:)``:
    /// from the place left through the fixes to the place reached), or a range's fixes of one device.
    private func trace(_ request: Request, userID: UserID) async throws -> [Coordinate] {
        let utc = TimeZone(identifier: "UTC") ?? .gmt
        if let text = request.query("trip") {
            guard request.query("from") == nil, request.query("to") == nil, request.query("device") == nil else {
                throw APIError.badRequest("give trip, or from and to (and device), not both")
            }
            guard let id = Int64(text) else { throw APIError.badRequest("trip '\(text)': expected a journal entry's id (a whole number)") }
            do throws(ShareError) {
                return try await links.tripTrace(leaving: VisitID(rawValue: id), userID: userID, limit: Self.maximumFixes + 1)
            } catch {
                throw error.apiError
            }
        }
        guard let from = try ReadParameters.bound(request, "from", timeZone: utc, endOfDay: false),
              let to = try ReadParameters.bound(request, "to", timeZone: utc, endOfDay: true) else {
            throw APIError.badRequest("give trip=ID (a journal entry's id), or from and to (ISO 8601 times)")
        }
        guard to > from else { throw APIError.badRequest("to must be after from") }
        guard to.timeIntervalSince(from) <= Self.maximumRangeSeconds else {
            throw APIError.badRequest("a range of at most \(Int(Self.maximumRangeSeconds / 3_600)) h is matched at once")
        }
        let devices = try await store.devices(userID: userID)
        if let name = request.query("device") {
            guard let device = devices.first(where: { $0.name == name }) else { throw APIError.notFound("no device named '\(name)'") }
            return try await locations(userID: userID, device: device.id, from: from, to: to).map(\.coordinate)
        }
        // Without a device, the one that recorded most of the range (fixes of several devices do not make one trace).
        var best: [Location] = []
        for device in devices {
            let found = try await locations(userID: userID, device: device.id, from: from, to: to)
            if found.count > best.count { best = found }
        }
        return best.map(\.coordinate)
    }

    private func locations(userID: UserID, device: DeviceID, from: Date, to: Date) async throws -> [Location] {
        try await store.locations(LocationQuery(userID: userID, deviceIDs: [device], from: from, to: to, limit: Self.maximumFixes + 1))
            .map(\.location)
    }
}
