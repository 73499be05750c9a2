import Foundation
import HTTPTypes
import Hummingbird
import TravelogCore
import TravelogPhotos
import TravelogRender
import TravelogStore

/// History tiles (`path`, `heat`, `points`), snapshots, and the offline world base the page shows
/// under the tile server's tiles (or instead of them, offline). Tiles and snapshots take the read
/// API's authentication; the world base is public, like the page's own files.
struct TileRoutes {
    let store: any TravelogStore
    let tiles: HistoryTiles
    /// The offline world base, when its outline file was found.
    let worldOutlines: WorldOutlines?
    /// The tile server snapshots draw on when it answers.
    let basemap: TileServerBasemap
    /// Whether it answered lately.
    let tileServer = TileServerAvailability()
    /// Snapshots drawn at once, server-wide: two, and one alone when it is of the largest size.
    let renders = RenderGate(maximumConcurrent: 2, pixelBudget: MapSnapshotter.Options.maximumPixels)
    /// `Retry-After` when the renders are busy, seconds.
    static let busyRetryAfterSeconds = 5

    func add(to router: RouteRegistry) {
        router.get("/api/v1/tiles/{layer}/{z}/{x}/{y}.png") { request, context in try await historyTile(request, context) }
        router.get("/api/v1/tiles/bounds") { request, context in try await bounds(request, context) }
        router.get("/api/v1/snapshot") { request, context in try await snapshot(request, context) }
        router.get("/api/v1/basemap/{z}/{x}/{y}.png") { request, context in try worldBaseTile(request, context) }
    }

    /// `z/x/y.png` of a route, checked.
    static func tile(_ context: TravelogRequestContext) throws(APIError) -> Tile {
        let parameters = context.parameters
        let z = parameters.get("z") ?? "", x = parameters.get("x") ?? "", y = parameters.get("y") ?? ""
        guard let zoom = Int(z), let column = Int(x), let row = Int(y), zoom <= 22,
              let tile = try? Tile(zoom: zoom, x: column, y: row) else {
            throw .notFound("no tile \(z)/\(x)/\(y).png: expected z/x/y.png with z from 0 to 22 and x, y inside the world")
        }
        return tile
    }

    /// `scale=1|2`: 256- or 512-pixel tiles.
    static func tileScale(_ request: Request) throws(APIError) -> Double {
        guard let text = request.query("scale") else { return 1 }
        guard let scale = Double(text), scale == 1 || scale == 2 else { throw .badRequest("scale '\(text)': expected 1 or 2") }
        return scale
    }

    /// The filter of the read parameters, in the index's device numbers.
    static func filter(_ parameters: ReadParameters, loaded: HistoryIndexLoader.Loaded) -> HistoryTileIndex.Filter {
        HistoryTileIndex.Filter(from: parameters.from, to: parameters.to,
                                devices: Set(parameters.devices.compactMap { loaded.deviceIndices[$0.id] }))
    }

    /// `GET /api/v1/tiles/{layer}/{z}/{x}/{y}.png`: answers `If-None-Match` with 304 while no new
    /// locations landed in the tile.
    func historyTile(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        if context.parameters.get("layer") == "explored" { return try await exploredTile(request, context) }
        let identity = try context.requireIdentity()
        guard let layer = context.parameters.get("layer").flatMap(HistoryLayer.init(rawValue:)) else {
            throw APIError.notFound("no tile layer '\(context.parameters.get("layer") ?? "")': expected path, heat, points or explored")
        }
        let tile = try Self.tile(context)
        let scale = try Self.tileScale(request)
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        let etag = tiles.etag(userID: identity.user.id, tile: tile)
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "private, no-cache"
        let held = request.headers[.ifNoneMatch]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        if held.contains(etag) {
            return Response(status: .notModified, headers: headers)
        }
        let renderer = HistoryTileRenderer(layer: layer, pixelScale: scale)
        let projection = MapProjection(tile: tile, pixelScale: scale)
        // The tile's content is read under the lock (the squares it covers); drawing happens outside.
        let content = try await tiles.withIndex(userID: identity.user.id) { loaded in
            loaded.index.content(in: renderer.queryRect(for: projection), zoom: tile.zoom,
                                 filter: Self.filter(parameters, loaded: loaded), parts: renderer.contentParts)
        }
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels), heightPixels: Int(projection.heightPixels))
        try renderer.draw(content, projection: projection, on: canvas)
        return Response.bytes(try canvas.pngData(), contentType: "image/png", extraHeaders: headers)
    }

    /// `GET /api/v1/tiles/bounds`: where a range's fixes lie, how many there are and of which devices, from the tile
    /// index's summaries (cheap for any range), so the page places the map and shows the tiles
    /// without waiting for a path.
    func bounds(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        let (summary, deviceIndices) = try await tiles.withIndex(userID: identity.user.id) { loaded in
            (loaded.index.summary(filter: Self.filter(parameters, loaded: loaded)), loaded.deviceIndices)
        }
        let devices = try await store.devices(userID: identity.user.id)
        let names = Dictionary(devices.compactMap { device in deviceIndices[device.id].map { ($0, device.name) } },
                               uniquingKeysWith: { first, _ in first })
        return try Response.json(HistoryBoundsAnswer(summary, deviceNames: names))
    }

    /// `GET /api/v1/snapshot`: MapKit's `MKMapSnapshotter` as a route.
    func snapshot(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        var options = MapSnapshotter.Options()
        do throws(SnapshotParameterError) {
            // An empty region, view or size (a form's blank field) is the default, as the document allows.
            try options.setPlace(region: request.query("region"), view: request.query("view"))
            if let text = request.query("size"), !text.isEmpty {
                (options.widthPoints, options.heightPoints) = try MapSnapshotter.Options.size(parsing: text)
            }
            if let text = request.query("scale") { options.pixelScale = try MapSnapshotter.Options.scale(parsing: text) }
            if let text = request.query("layer") { options.layer = try MapSnapshotter.Options.layer(parsing: text) }
            try options.checkPixelCount()
        } catch {
            throw APIError.badRequest(error.description)
        }
        // A copy of the index (shared until the next batch lands), drawn outside the lock.
        let loaded = try await tiles.withIndex(userID: identity.user.id) { $0 }
        let filter = Self.filter(parameters, loaded: loaded)
        let visitPins = try await HistoryIndexLoader.pins(store: store, userID: identity.user.id, devices: parameters.devices,
                                                          from: parameters.from, to: parameters.to)
        let snapshotter = MapSnapshotter(options: options)
        let (projection, zoom) = try snapshotter.plan(index: loaded.index, filter: filter)
        var photoPins: [MapPin] = []
        if try request.choiceQuery("photos", ["false", "true"], default: "false") == "true", let photoStore = store as? any PhotoStore {
            // The range's photos grouped as the page's map groups them at this zoom.
            let taken = try await photoStore.photoPins(PhotoQuery(userID: identity.user.id, from: parameters.from, to: parameters.to))
            photoPins = PhotoClusters(photos: taken, zoom: zoom).clusters.map { MapPin(coordinate: $0.coordinate, title: $0.title) }
        }
        let pins = visitPins + photoPins
        var images: [Tile: Data]?
        if tileServer.shouldAsk() {
            images = await basemap.images(for: MapSnapshotter.basemapTiles(for: projection, zoomLevel: zoom))
            if images == nil { tileServer.failed() }
        }
        let (outlines, attribution) = (worldOutlines, basemap.attribution)
        let (width, height) = options.pixelSize
        let snapshot: Snapshot
        do {
            snapshot = try await renders.run(pixels: width * height) { [images] in
                // Drawing stops when the client goes away (the snapshotter checks between layers and rows).
                try await context.untilClientLeaves {
                    try snapshotter.snapshot(index: loaded.index, filter: filter, pins: pins, outlines: outlines,
                                             basemapTiles: images, tileAttribution: attribution)
                }
            }
        } catch RenderGate.Refusal.busy {
            throw APIError.busy(retryAfterSeconds: Self.busyRetryAfterSeconds,
                                "\(renders.maximumConcurrent) snapshots are being drawn and more wait: try again shortly")
        }
        return Response.bytes(snapshot.pngData, contentType: "image/png", extraHeaders: Self.projectionHeaders(snapshot))
    }

    /// How a coordinate maps to a pixel of a snapshot: pixel x = (x − mapRectX) × pixelsPerMapPoint,
    /// with x the coordinate's Web Mercator map point (a world of 2^28 per side; see the OpenAPI document).
    static func projectionHeaders(_ snapshot: Snapshot) -> HTTPFields {
        var headers = HTTPFields()
        let rect = snapshot.projection.mapRect
        headers[HTTPField.Name("X-Travelog-Map-Rect")!] = "\(rect.minX),\(rect.minY),\(rect.width),\(rect.height)"
        headers[HTTPField.Name("X-Travelog-Pixels-Per-Map-Point")!] = "\(snapshot.projection.pixelsPerMapPoint)"
        headers[HTTPField.Name("X-Travelog-Zoom-Level")!] = String(snapshot.zoomLevel)
        headers[HTTPField.Name("X-Travelog-Basemap")!] = snapshot.basemap.rawValue
        if let region = try? CoordinateRegion(rect) {
            headers[HTTPField.Name("X-Travelog-Bounds")!] =
                "\(region.westLongitude),\(region.southLatitude),\(region.eastLongitude),\(region.northLatitude)"
        }
        return headers
    }

    /// `GET /api/v1/basemap/{z}/{x}/{y}.png`: a tile of the offline world base (Natural Earth
    /// outlines and a graticule).
    func worldBaseTile(_ request: Request, _ context: TravelogRequestContext) throws -> Response {
        let tile = try Self.tile(context)
        let scale = try Self.tileScale(request)
        guard let worldOutlines else { throw APIError.notFound("no offline world base: build it with make world") }
        let projection = MapProjection(tile: tile, pixelScale: scale)
        let canvas = try Canvas(widthPixels: Int(projection.widthPixels), heightPixels: Int(projection.heightPixels))
        worldOutlines.draw(projection: projection, on: canvas)
        var headers = HTTPFields()
        headers[.cacheControl] = "public, max-age=86400"
        return Response.bytes(try canvas.pngData(), contentType: "image/png", extraHeaders: headers)
    }
}
