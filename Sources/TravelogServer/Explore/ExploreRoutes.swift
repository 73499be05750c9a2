import Foundation
import HTTPTypes
import Hummingbird
import TravelogCore
import TravelogGeocoding
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogStore

/// Where I have been (issue 33): the explored figures (`/api/v1/explore`), the fog tiles
/// (`/api/v1/tiles/explored/…`, through ``TileRoutes``) and every day of the history at once for the
/// timeline of a life (`/api/v1/days`), and the countries map (`/api/v1/explore/countries`).
struct ExploreRoutes {
    let store: any TravelogStore
    let tiles: HistoryTiles
    let journal: JournalService
    /// The gazetteer's reverse geocoder: countries and cities of the explored cells.
    let geocoder: ReverseGeocoder?
    /// The OSM extracts' streets, for a city's street coverage.
    let streetLevel: OSMReverseGeocoder?
    let placeTimeZones: PlaceTimeZones?
    /// The countries' outlines (`make world`), for the countries map.
    let worldOutlines: WorldOutlines?
    /// The countries' areas from them, km², for each one's share.
    let countryAreas: [String: Double]

    init(store: any TravelogStore, tiles: HistoryTiles, journal: JournalService, gazetteer: Gazetteer?,
         streetLevel: OSMReverseGeocoder?, placeTimeZones: PlaceTimeZones?, worldOutlines: WorldOutlines?) {
        self.store = store
        self.tiles = tiles
        self.journal = journal
        self.geocoder = gazetteer.map(ReverseGeocoder.init(gazetteer:))
        self.streetLevel = streetLevel
        self.placeTimeZones = placeTimeZones
        self.worldOutlines = worldOutlines
        countryAreas = worldOutlines?.countryAreas() ?? [:]
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/explore") { request, context in try await figures(request, context) }
        router.get("/api/v1/days") { request, context in try await days(request, context) }
        router.get("/api/v1/explore/countries") { request, context in try await countries(request, context) }
    }

    /// `GET /api/v1/explore/countries`: the countries with local days, outlined, as GeoJSON.
    func countries(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        guard let worldOutlines, !worldOutlines.countries.isEmpty else {
            throw APIError.notFound("no world outlines with countries' codes on this server (make world, or TRAVELOG_WORLD)")
        }
        await journal.drain()
        let whereabouts = try await JournalReader(store: store, timeZones: placeTimeZones)
            .whereabouts(userID: identity.user.id, from: nil, to: nil)
        let days = Dictionary(whereabouts.countries.map { ($0.code, $0.days) }, uniquingKeysWith: max)
        let names = Dictionary((geocoder?.gazetteer.countries ?? []).map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
        return try Response.json(worldOutlines.countriesMap(days: days, names: names), contentType: "application/geo+json")
    }

    /// `GET /api/v1/explore[?city=NAME]`: the explored area, per country and city.
    func figures(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var city: String?
        if let text = request.query("city") {
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            guard !trimmed.isEmpty, text.unicodeScalars.count <= 200, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                throw APIError.badRequest("city '\(text.prefix(40))': expected a place's name (1 to 200 characters)")
            }
            city = trimmed
        }
        let explored = try await tiles.withIndex(userID: identity.user.id) { $0.index.explored }
        await journal.drain()
        let whereabouts = try await JournalReader(store: store, timeZones: placeTimeZones)
            .whereabouts(userID: identity.user.id, from: nil, to: nil)
        do {
            return try Response.json(try ExploreFigures.compute(cells: explored, whereabouts: whereabouts, geocoder: geocoder,
                                                                streets: streetLevel, city: city, countryAreas: countryAreas))
        } catch let error as ExploreFiguresError {
            switch error {
            case .unknownCity: throw APIError.notFound(error.description)
            case .noGazetteer: throw APIError.badRequest(error.description)
            }
        }
    }

    /// `GET /api/v1/days`: every local day of the range with fixes or a visit, as columns.
    func days(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        var placeOffset: (@Sendable (Location) -> Int?)?
        if let zones = placeTimeZones { placeOffset = { zones.offsetSeconds(for: $0) } }
        let (periods, _) = try await HistoryStatistics.compute(
            store: store, userID: identity.user.id, devices: parameters.devices, from: parameters.from, to: parameters.to,
            period: .day, timeZone: parameters.timeZone, placeOffsetSeconds: placeOffset)
        await journal.drain()
        let countries = try await JournalReader(store: store, timeZones: placeTimeZones)
            .countriesByDay(userID: identity.user.id, from: parameters.from, to: parameters.to)
        return try Response.json(LifeDays(periods: periods, countriesByDay: countries))
    }
}

extension TileRoutes {
    /// `GET /api/v1/tiles/explored/{z}/{x}/{y}.png`: the fog of war over what the user never visited
    /// (the whole history, every device); answers `If-None-Match` with 304 while no new locations
    /// landed in the tile.
    func exploredTile(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let tile = try Self.tile(context)
        let scale = try Self.tileScale(request)
        let etag = tiles.etag(userID: identity.user.id, tile: tile)
        var headers = HTTPFields()
        headers[.eTag] = etag
        headers[.cacheControl] = "private, no-cache"
        let held = request.headers[.ifNoneMatch]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []
        if held.contains(etag) { return Response(status: .notModified, headers: headers) }
        let rects = try await tiles.withIndex(userID: identity.user.id) { $0.index.explored.exploredRects(in: tile) }
        let canvas = try ExploredTileRenderer(pixelScale: scale).drawTile(tile, explored: rects)
        return Response.bytes(try canvas.pngData(), contentType: "image/png", extraHeaders: headers)
    }
}
