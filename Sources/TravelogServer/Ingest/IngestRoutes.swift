import Foundation
import HTTPTypes
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogStore

/// OwnTracks, Overland and the script API (`POST /api/v1/locations`), and the user's list of the
/// items phone apps sent that could not be stored. Every body is read as it arrives (never
/// collected whole) and goes through the write path; a route answers only once what it stored is
/// durable.
struct IngestRoutes {
    let writer: HistoryWriter
    let metrics: ServerMetrics
    /// The largest body a phone app or script may send, bytes.
    let bodyLimitBytes: Int
    /// OwnTracks' waypoints and transitions, and the regions offered back (none: not kept).
    var regions: OwnTracksRegionSync? = nil

    func add(to router: RouteRegistry) {
        router.post("/api/v1/owntracks") { request, context in try await owntracks(request, context) }
        router.post("/api/v1/overland") { request, context in try await overland(request, context) }
        router.post("/api/v1/locations") { request, context in
            do {
                return try await scriptBatch(request, context)
            } catch let error as APIError where error.status == .badRequest {
                metrics.recordRejectedBatch(endpoint: "locations")
                throw error
            }
        }
        router.get("/api/v1/rejected") { request, context in try await rejected(request, context) }
        router.delete("/api/v1/rejected") { request, context in try await deleteRejected(request, context, id: nil) }
        router.delete("/api/v1/rejected/{id}") { request, context in
            guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw APIError.badRequest("the id must be a whole number") }
            return try await deleteRejected(request, context, id: RejectedItemID(rawValue: id))
        }
        router.post("/api/v1/rejected/{id}/retry") { _, context in
            guard let id = context.parameters.get("id").flatMap(Int64.init) else { throw APIError.badRequest("the id must be a whole number") }
            return try await retryRejected(context, id: RejectedItemID(rawValue: id))
        }
    }

    // MARK: OwnTracks

    /// OwnTracks HTTP mode: one message or an array; locations are stored, waypoint(s) become the
    /// user's regions and transitions the device's reported ones, other messages (lwt, card…) are
    /// passed over, wrong ones set aside. The answer lists the latest location of the user's other
    /// devices, which the app shows as friends, and `setWaypoints` when the regions changed.
    func owntracks(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        if let limitUser = request.headers[.init("X-Limit-U")!], !limitUser.isEmpty, limitUser != identity.user.name {
            throw APIError.forbidden("X-Limit-U '\(limitUser)' is not the authenticated user '\(identity.user.name)'")
        }
        let body = try await SpooledBody(request, limitBytes: bodyLimitBytes)
        var target = DeviceTarget.of(identity, named: request.headers[.init("X-Limit-D")!] ?? request.query("d"), app: .owntracks)
        if !body.isBlank {
            do {
                try await OwnTracksIngest(writer: writer, regions: regions).receive(body, to: &target, route: "owntracks",
                                                                                userAgent: request.headers[.userAgent])
            } catch {
                throw APIError(error)
            }
        }
        var commands: [[String: Any]] = []
        if let regions, let device = try await regions.device(for: target),
           let offer = try await regions.offer(to: device) {
            commands.append(offer)
        }
        return try await OwnTracksFriends(store: writer.store).answer(userID: identity.user.id, excluding: target, appending: commands)
    }

    // MARK: Overland

    /// Overland: `{"locations": [Feature…]}`; features without geometry (visits, app events) are
    /// accepted. The answer is exactly `{"result":"ok"}`, sent once the good items are durable.
    func overland(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await SpooledBody(request, limitBytes: bodyLimitBytes)
        var target = DeviceTarget.of(identity, named: request.query("device"), app: .overland)
        // An empty body carries nothing to keep or to set aside.
        if !body.isBlank {
            var reader = GeoJSONReader(source: body.byteSource())
            try await phoneWrite(&reader, body: body, to: &target, source: .overland, visitSource: .overland, route: "overland",
                                 userAgent: request.headers[.userAgent])
        }
        return Response.json(data: Data(#"{"result":"ok"}"#.utf8))
    }

    /// A phone app's body through the write path, keeping the good items.
    func phoneWrite(_ reader: inout some LocationFileReader, body: SpooledBody, to target: inout DeviceTarget,
                    source: LocationSource, visitSource: VisitSource, route: String, userAgent: String? = nil) async throws {
        do {
            _ = try await writer.write(reading: &reader, body: body, bodyByteCount: body.byteCount, to: &target, source: source,
                                       visitSource: visitSource, route: route, policy: .keepValid, userAgent: userAgent)
        } catch {
            throw APIError(error)
        }
    }

    // MARK: Scripts

    /// `POST /api/v1/locations`: a GeoJSON Feature or FeatureCollection of Points, or a JSON array of
    /// plain objects (`LocationBatchReader`). All or nothing: a wrong item is a 400 naming it.
    /// `?device=NAME` picks the device for a user's credentials; `?source=manual` marks entries made
    /// by hand (the page's "Log my current location").
    func scriptBatch(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let body = try await SpooledBody(request, limitBytes: bodyLimitBytes)
        let sourceName = request.query("source")
        guard sourceName == nil || sourceName == "manual" else {
            throw APIError.badRequest("source '\(sourceName ?? "")': expected manual or nothing")
        }
        let manual = sourceName == "manual"
        var target = DeviceTarget.of(identity, named: request.query("device") ?? (manual ? "browser" : nil), app: nil)
        var prefix = body.byteSource()
        let detected = (try? FormatDetector.detect(prefix: prefix.readBytes(upTo: FormatDetector.prefixLength))) ?? .unknown
        let outcome: HistoryWriter.Outcome
        do {
            if detected == .format(.geojson) {
                var reader = GeoJSONReader(source: body.byteSource(), pointFeaturesOnly: true)
                outcome = try await writer.write(reading: &reader, body: body, bodyByteCount: body.byteCount, to: &target,
                                                 source: manual ? .manual : .api, visitSource: .file, route: "locations",
                                                 policy: .atomic)
            } else {
                var reader = LocationBatchReader(source: body.byteSource(), receivedAt: Date())
                outcome = try await writer.write(reading: &reader, body: body, bodyByteCount: body.byteCount, to: &target,
                                                 source: manual ? .manual : .api, visitSource: .file, route: "locations",
                                                 policy: .atomic)
            }
        } catch {
            throw APIError(error)
        }
        return try Response.json(["stored": outcome.stored.inserted, "duplicates": outcome.stored.duplicates])
    }

    // MARK: Rejected items

    /// `GET /api/v1/rejected[?limit=N]`: the user's rejected items, newest first.
    func rejected(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let limit = try request.query("limit").map { text throws(APIError) -> Int in
            guard let value = Int(text), (1...1000).contains(value) else { throw .badRequest("limit must be 1…1000, not '\(text)'") }
            return value
        } ?? 100
        let store = writer.store
        let items = try await store.rejectedItems(userID: identity.user.id, limit: limit)
        let total = try await store.rejectedItemCount(userID: identity.user.id)
        let devices = Dictionary(try await store.devices(userID: identity.user.id).map { ($0.id, $0.name) },
                                 uniquingKeysWith: { first, _ in first })
        return try Response.json(RejectedItemsAnswer(total: total, items: items.map { RejectedItemJSON($0, devices: devices) }))
    }

    /// `DELETE /api/v1/rejected` (all) or `/api/v1/rejected/{id}`.
    func deleteRejected(_ request: Request, _ context: TravelogRequestContext, id: RejectedItemID?) async throws -> Response {
        let identity = try context.requireIdentity()
        let deleted = try await writer.store.deleteRejectedItems(userID: identity.user.id, ids: id.map { [$0] })
        if let id, deleted == 0 { throw APIError.notFound("no rejected item \(id.rawValue)") }
        return try Response.json(["deleted": deleted])
    }
}

extension IngestRoutes {
    /// `POST /api/v1/rejected/{id}/retry`: an OwnTracks message sent through the write path again
    /// (`RejectedItemRetry`): 200 with what was stored, 422 when it is refused again, 409 for an
    /// item that cannot be retried.
    func retryRejected(_ context: TravelogRequestContext, id: RejectedItemID) async throws -> Response {
        let identity = try context.requirePerson()
        let result: RejectedItemRetry.Result
        do throws(RejectedItemRetry.Failure) {
            result = try await RejectedItemRetry(writer: writer).retry(id, userID: identity.user.id)
        } catch {
            switch error {
            case .unknown: throw APIError.notFound(error.description)
            case .notRetryable: throw APIError.http(status: .conflict, error.description)
            case .stillRefused: throw APIError.http(status: .unprocessableContent, error.description)
            case .write(let write): throw APIError(write)
            case .store(let store): throw APIError.storeFailed(store)
            }
        }
        switch result {
        case .stored(let inserted, let duplicates):
            return try Response.json(["stored": inserted, "duplicates": duplicates])
        case .refusedAgain(let replaced):
            throw APIError.http(status: .unprocessableContent, replaced
                ? "refused again, for another reason: the new entry in the list says why"
                : "refused again: it still cannot be read (the reason in the list stands)")
        }
    }
}

/// The answer of `GET /api/v1/rejected`.
struct RejectedItemsAnswer: Encodable {
    var total: Int
    var items: [RejectedItemJSON]
}

/// One rejected item as the API shows it.
struct RejectedItemJSON: Encodable {
    var id: Int64
    var route: String
    var device: String?
    var reason: String
    var raw: String
    var rawByteCount: Int
    var receivedAt: String
    /// Whether `POST /api/v1/rejected/{id}/retry` can send it again (OwnTracks messages kept whole).
    var retryable: Bool

    init(_ item: RejectedItem, devices: [DeviceID: String]) {
        id = item.id.rawValue
        route = item.route
        device = item.deviceID.flatMap { devices[$0] }
        reason = item.reason
        raw = item.raw
        rawByteCount = item.rawByteCount
        receivedAt = ISO8601TimeFormatter.string(item.receivedAt)
        retryable = RejectedItemRetry.isRetryable(item)
    }
}
