import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogJournal
import TravelogStore

struct ReadRoutes {
    let store: any TravelogStore
    let placeTimeZones: PlaceTimeZones?


    /// The largest number of locations `GET /api/v1/locations` returns by default, and at most.
    static let defaultLocationLimit = 100_000
    /// The most points `GET /api/v1/path` sends by default (`maxPoints` changes it).
    static let defaultPathPointBudget = 100_000
    static let maximumLocationLimit = 1_000_000

    /// Locations (GeoJSON), the map's path, the latest fix per device, statistics and exports (the
    /// devices are `DeviceRoutes`'). Every read is scoped to the caller's own user.
    func add(to router: RouteRegistry) {
        router.get("/api/v1/locations") { request, context in
            try await locationsGeoJSON(request, context)
        }
        router.get("/api/v1/path") { request, context in
            try await path(request, context)
        }
        router.get("/api/v1/latest") { request, context in
            try await latest(request, context)
        }
        router.get("/api/v1/stats") { request, context in
            try await statistics(request, context)
        }
        router.get("/api/v1/export") { request, context in
            try await export(request, context)
        }
    }

    // MARK: Locations

    func locationsGeoJSON(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        var limit = Self.defaultLocationLimit
        if let text = request.query("limit") {
            guard let value = Int(text), value > 0, value <= Self.maximumLocationLimit else {
                throw APIError.badRequest("limit '\(text)': expected a whole number from 1 to \(Self.maximumLocationLimit)")
            }
            limit = value
        }
        let newestFirst = try request.choiceQuery("order", ["oldest", "newest"], default: "oldest") == "newest"
        // The page's list writes each fix's time in its place's zone, as the journal does.
        let zones = try request.choiceQuery("placeTime", ["true", "false"], default: "false") == "true" ? placeTimeZones : nil
        let names = Dictionary(uniqueKeysWithValues: parameters.devices.map { ($0.id, $0.name) })
        let found = try await store.locations(parameters.query(userID: identity.user.id, limit: limit + 1,
                                                               newestFirst: newestFirst))
        let truncated = found.count > limit
        var text = #"{"type":"FeatureCollection","features":["#
        text.reserveCapacity(found.count * 220)
        for (index, stored) in found.prefix(limit).enumerated() {
            if index > 0 { text += "," }
            text += GeoJSONPoint.feature(stored, deviceName: names[stored.deviceID] ?? "",
                                         timeZone: zones?.timeZone(at: stored.location.coordinate))
        }
        text += "]}"
        var headers = HTTPFields()
        if truncated { headers[.init("X-Travelog-Truncated")!] = "true" }
        return Response.bytes(Data(text.utf8), contentType: "application/geo+json", extraHeaders: headers)
    }

    // MARK: Path

    func path(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        var zoom = 12
        if let text = request.query("zoom") {
            guard let value = Int(text), (0...22).contains(value) else {
                throw APIError.badRequest("zoom '\(text)': expected a whole number from 0 to 22")
            }
            zoom = value
        }
        var budget = Self.defaultPathPointBudget
        if let text = request.query("maxPoints") {
            guard let value = Int(text), value >= 2, value <= 10_000_000 else {
                throw APIError.badRequest("maxPoints '\(text)': expected a whole number from 2 to 10000000")
            }
            budget = value
        }
        return try await pathAnswer(userID: identity.user.id, parameters: parameters, zoom: zoom, budget: budget)
    }

    /// The path of a user's range at a zoom, at most `budget` points: what `/api/v1/path` answers
    /// and a share link's page draws (`ShareRoutes`, with the share's range and owner).
    /// - Parameter hiding: the zones whose fixes are left out, the line cut where it enters one and
    ///   the distance that of the fixes shown (a share link's path); nil for the owner's own.
    func pathAnswer(userID: UserID, parameters: ReadParameters, zoom: Int, budget: Int, hiding: ZoneFilter? = nil) async throws -> Response {
        Response.bytes(try await pathData(userID: userID, parameters: parameters, zoom: zoom, budget: budget, hiding: hiding),
                       contentType: "application/geo+json")
    }

    /// The path's GeoJSON, as `pathAnswer` sends it.
    func pathData(userID: UserID, parameters: ReadParameters, zoom: Int, budget: Int, hiding: ZoneFilter? = nil) async throws -> Data {
        let hiding = hiding.flatMap { $0.isEmpty ? nil : $0 }
        var shownDistance = 0.0
        var features: [String] = []
        var rawTotal = 0, drawnTotal = 0
        for device in parameters.devices {
            let box = PathBox(PathBuilder(zoom: zoom))
            var query = parameters.query(userID: userID)
            query.deviceIDs = [device.id]
            // The path needs each fix's time, coordinate and accuracy only.
            try await store.forEachTrackBatch(query, batchSize: 20_000) { batch in
                for location in batch {
                    if let hiding, hiding.contains(location.coordinate) { box.builder.breakLine() } else { box.builder.add(location) }
                }
            }
            guard box.builder.rawPointCount > 0 else { continue }
            let builder = box.builder
            let segments = PathBuilder.coarsened(box.builder.finish(), budget: budget / max(1, parameters.devices.count)) {
                builder.toleranceMeters(latitudeDegrees: $0)
            }
            let drawn = segments.reduce(0) { $0 + $1.count }
            rawTotal += box.builder.rawPointCount
            drawnTotal += drawn
            shownDistance += box.builder.distanceMeters
            features.append(GeoJSONPoint.pathFeature(device: device.name, segments: segments, builder: box.builder))
        }
        // The length is the statistics' figure for the same range (the person's fused track unless
        // devices are named), so the map, the day's distance and the timeline agree.
        let distanceTotal = hiding != nil ? shownDistance : try await HistoryStatistics.compute(
            store: store, userID: userID, devices: parameters.devices, from: parameters.from, to: parameters.to,
            area: parameters.area, period: .day, timeZone: parameters.timeZone, placeOffsetSeconds: placeOffset).total.distanceMeters
        let text = #"{"type":"FeatureCollection","properties":{"zoom":\#(zoom),"rawPointCount":\#(rawTotal),"#
            + #""pointCount":\#(drawnTotal),"distanceMeters":\#(GeoJSONPoint.number(distanceTotal, places: 1))},"#
            + #""features":["# + features.joined(separator: ",") + "]}"
        return Data(text.utf8)
    }

    // MARK: Latest

    func latest(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var features: [String] = []
        for device in try await store.devices(userID: identity.user.id) {
            let found = try await store.locations(LocationQuery(userID: identity.user.id, deviceIDs: [device.id],
                                                                limit: 1, newestFirst: true))
            if let stored = found.first { features.append(GeoJSONPoint.feature(stored, deviceName: device.name)) }
        }
        let text = #"{"type":"FeatureCollection","features":["# + features.joined(separator: ",") + "]}"
        return Response.bytes(Data(text.utf8), contentType: "application/geo+json")
    }

    // MARK: Statistics

    func statistics(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        let period = try request.query("by").map { text in
            guard let period = CalendarPeriod(rawValue: text) else {
                throw APIError.badRequest("by '\(text)': expected day, week, month or year")
            }
            return period
        } ?? .day
        let units = try request.query("units").map { text in
            guard let units = HistoryStatistics.UnitSystem(rawValue: text) else {
                throw APIError.badRequest("units '\(text)': expected metric or imperial")
            }
            return units
        } ?? .metric
        let (periods, total) = try await HistoryStatistics.compute(
            store: store, userID: identity.user.id, devices: parameters.devices, from: parameters.from,
            to: parameters.to, period: period, timeZone: parameters.timeZone,
            placeOffsetSeconds: placeOffset)
        return Response.json(data: HistoryStatistics.json(periods, total: total, units: units))
    }

    /// The UTC offset of a location's place, from the time zones when there are some.
    var placeOffset: (@Sendable (Location) -> Int?)? {
        guard let zones = placeTimeZones else { return nil }
        return { zones.offsetSeconds(for: $0) }
    }

    // MARK: Export

    func export(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        let name = request.query("format") ?? "gpx"
        guard let format = FileFormat(rawValue: name), format.isWritable, let fileExtension = format.exportFileExtension else {
            throw APIError.badRequest("format '\(name)': expected one of \(FileFormat.writable.map(\.rawValue).joined(separator: ", "))")
        }
        let download = try FileDownload(prefix: "travelog-export", fileName: "export")
        let path = download.path
        let store = self.store
        do {
            // The file is written before the answer starts; a client that leaves stops it.
            try await context.untilClientLeaves {
                let sink = try FileByteSink(path: path)
                guard let writer = format.makeWriter(sink: sink, document: ExportDocument(name: "Travelog export of \(identity.user.name)"))
                else { throw APIError.badRequest("\(format) cannot be written") }
                _ = try await HistoryExporter(store: store).export(userID: identity.user.id, devices: parameters.devices,
                                                                   from: parameters.from, to: parameters.to, to: writer)
                try sink.close()
            }
        } catch {
            download.discard()
            throw error
        }
        let fileName = Self.exportFileName(from: parameters.from, to: parameters.to, timeZone: parameters.timeZone) + "." + fileExtension
        return download.response(contentType: Self.exportContentType(format), fileName: fileName)
    }

    /// A download's name after its range, in the range's zone: `travelog-2024-06-01`,
    /// `travelog-2024-06-01_2024-06-30`, `travelog-from-2024-06-01`, `travelog-until-2024-06-30`,
    /// `travelog-all`. Two downloads of different ranges no longer land as `travelog (1).gpx`.
    static func exportFileName(from: Date?, to: Date?, timeZone: TimeZone) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        func day(_ date: Date) -> String {
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        }
        // `to` is exclusive: the last day is the one of the instant before it.
        let last = to.map { day($0.addingTimeInterval(-0.001)) }
        switch (from.map(day), last) {
        case (let first?, let last?): return first == last ? "travelog-\(first)" : "travelog-\(first)_\(last)"
        case (let first?, nil): return "travelog-from-\(first)"
        case (nil, let last?): return "travelog-until-\(last)"
        case (nil, nil): return "travelog-all"
        }
    }

    static func exportContentType(_ format: FileFormat) -> String {
        switch format {
        case .gpx: "application/gpx+xml"
        case .kml: "application/vnd.google-earth.kml+xml"
        case .geojson: "application/geo+json"
        case .csv: "text/csv; charset=utf-8"
        default: "application/octet-stream"
        }
    }
}

/// The path being built, touched only from the store's reading thread, one batch at a time.
private final class PathBox: @unchecked Sendable {
    var builder: PathBuilder
    init(_ builder: PathBuilder) { self.builder = builder }
}
