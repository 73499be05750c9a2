import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogStore

extension TravelogServerApp {
    /// OwnTracks, Overland, the generic batch API and file uploads. Each answers only after the
    /// batch is durably stored; a wrong item refuses the whole request with a 400 naming it.
    func addIngestRoutes(to router: RouteRegistry) {
        router.post("/api/v1/owntracks") { request, context in
            try await rejectionCounted("owntracks") { try await owntracks(request, context) }
        }
        router.post("/api/v1/overland") { request, context in
            try await rejectionCounted("overland") { try await overland(request, context) }
        }
        router.post("/api/v1/locations") { request, context in
            try await rejectionCounted("locations") { try await genericBatch(request, context) }
        }
        router.post("/api/v1/imports") { request, context in
            try await upload(request, context)
        }
    }

    /// Counts a refused ingest for `/metrics`.
    func rejectionCounted(_ endpoint: String, _ body: () async throws -> Response) async throws -> Response {
        do {
            return try await body()
        } catch let error as APIError {
            if error.status == .badRequest { metrics.recordRejectedBatch(endpoint: endpoint) }
            throw error
        }
    }

    // MARK: OwnTracks

    /// OwnTracks HTTP mode: one message or an array; locations are stored, other messages
    /// (transition, waypoint(s), lwt, card…) accepted. The answer lists the latest location of the
    /// user's other devices, which the app shows as friends.
    func owntracks(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        if let limitUser = request.headers[.init("X-Limit-U")!], !limitUser.isEmpty, limitUser != identity.user.name {
            throw APIError.forbidden("X-Limit-U '\(limitUser)' is not the authenticated user '\(identity.user.name)'")
        }
        var request = request
        let bytes = try await request.collectBytes(context: context)
        let name = request.headers[.init("X-Limit-D")!] ?? request.query("d")
        let device = try await ingest.device(for: identity, named: name, app: .owntracks)
        if !bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            let records = try BodyRecords.read(bytes, as: .owntracks)
            try await ingest.store(records.locations, device: device, source: .owntracks)
        }
        return try await owntracksFriends(of: device)
    }

    func owntracksFriends(of device: Device) async throws -> Response {
        var messages: [[String: Any]] = []
        let user = try await store.user(id: device.userID)
        for other in try await store.devices(userID: device.userID) where other.id != device.id {
            let latest = try await store.locations(LocationQuery(userID: device.userID, deviceIDs: [other.id],
                                                                 limit: 1, newestFirst: true))
            guard let fix = latest.first?.location else { continue }
            let tid = String(other.name.filter { $0.isLetter || $0.isNumber }.prefix(2)).uppercased()
            let topic = "owntracks/\(user?.name ?? "")/\(other.name)"
            var message: [String: Any] = [
                "_type": "location", "lat": fix.coordinate.latitude, "lon": fix.coordinate.longitude,
                "tst": Int(fix.timestamp.timeIntervalSince1970), "tid": tid, "topic": topic,
            ]
            if fix.horizontalAccuracyMeters >= 0 { message["acc"] = Int(fix.horizontalAccuracyMeters.rounded()) }
            if let altitude = fix.altitudeMeters { message["alt"] = Int(altitude.rounded()) }
            if fix.speedMetersPerSecond >= 0 { message["vel"] = Int(Units.kilometersPerHour(metersPerSecond: fix.speedMetersPerSecond).rounded()) }
            if fix.courseDegrees >= 0 { message["cog"] = Int(fix.courseDegrees.rounded()) }
            messages.append(["_type": "card", "name": other.name, "tid": tid, "topic": topic])
            messages.append(message)
        }
        let data = try JSONSerialization.data(withJSONObject: messages, options: [.withoutEscapingSlashes])
        return Response.json(data: data)
    }

    // MARK: Overland

    /// Overland: `{"locations": [Feature…]}`; features without geometry (visits, app events) are
    /// accepted. The answer is exactly `{"result":"ok"}`, sent after the batch is stored.
    func overland(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var request = request
        let bytes = try await request.collectBytes(context: context)
        let device = try await ingest.device(for: identity, named: request.query("device"), app: .overland)
        let records = try BodyRecords.read(bytes, as: .geojson)
        try await ingest.store(records.locations, device: device, source: .overland)
        // Overland's own visit reports, kept beside the detected ones with their source; one at a
        // time, so a batch replaces only the visits it reports again.
        for visit in records.visits {
            try await journal.processor.storeDescribedVisits([JournalVisit(visit, deviceID: device.id, source: .overland)],
                                                             device: device, source: .overland)
        }
        return Response.json(data: Data(#"{"result":"ok"}"#.utf8))
    }

    // MARK: Generic batches

    /// `POST /api/v1/locations`: a GeoJSON Feature or FeatureCollection of Points, or a JSON array of
    /// plain objects (`LocationBatch`). `?device=NAME` picks the device for a user's credentials;
    /// `?source=manual` marks entries made by hand (the page's "Log my current location").
    func genericBatch(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var request = request
        let bytes = try await request.collectBytes(context: context)
        let manual = request.query("source") == "manual"
        let locations: [Location]
        if LocationBatch.looksLikeGeoJSON(bytes) {
            locations = try BodyRecords.read(bytes, as: .geojson).locations
        } else {
            locations = try LocationBatch.decode(bytes, receivedAt: Date())
        }
        let device = try await ingest.device(for: identity, named: request.query("device") ?? (manual ? "browser" : nil),
                                             app: nil)
        let summary = try await ingest.store(locations, device: device, source: manual ? .manual : .api)
        return try Response.json(["stored": summary.inserted, "duplicates": summary.duplicates])
    }

    // MARK: Uploads

    /// `POST /api/v1/imports?device=NAME[&format=F][&filename=N]`: any file the CLI imports, as the
    /// raw body. It is streamed to a temporary file (never held in memory), imported in one
    /// transaction, and answered with the import's report.
    func upload(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let format: FileFormat?
        if let name = request.query("format") {
            guard let chosen = FileFormat(rawValue: name) else {
                throw APIError.badRequest("format '\(name)' is not one of \(FileFormat.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            format = chosen
        } else {
            format = nil
        }
        let device = try await ingest.device(for: identity, named: request.query("device") ?? "imports", app: nil)
        let fileName = request.query("filename").map { URL(fileURLWithPath: $0).lastPathComponent } ?? "upload"
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-upload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent(fileName.isEmpty ? "upload" : fileName).path
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw APIError.badRequest("cannot store the upload in a temporary file")
        }
        do {
            for try await buffer in request.body {
                try handle.write(contentsOf: buffer.readableBytesView)
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        let report = await FileImporter(store: store).importFile(at: path, deviceID: device.id, format: format)
        if report.inserted > 0 {
            metrics.recordIngest(source: .fileImport, InsertSummary(inserted: report.inserted, duplicates: report.duplicates))
        }
        if !report.failed {
            let visits = report.journalVisits(deviceID: device.id)
            if let source = visits.first?.source {
                try await journal.processor.storeDescribedVisits(visits, device: device, source: source)
            }
            if report.inserted > 0, let first = report.firstTimestamp, let last = report.lastTimestamp {
                journal.enqueue(device: device, from: first, to: last)
            }
        }
        let data = try JSONSerialization.data(withJSONObject: report.jsonObject, options: [.sortedKeys, .withoutEscapingSlashes])
        return Response.json(data: data, status: report.failed ? .badRequest : .ok)
    }
}
