import Foundation
import HTTPTypes
import Hummingbird
import Synchronization
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogPhotos
import TravelogRender
import TravelogStore

/// Share links. The owner's routes (the page's session or the password; never a device token):
/// `POST /api/v1/shares` makes one, `GET /api/v1/shares` lists them with their views,
/// `DELETE /api/v1/shares/{id}` revokes one at once.
///
/// The visitor's routes take no account: the token in the path is the only credential, and it
/// reads only its own link's range of its owner's history, never an `Identity`, so it reaches
/// nothing else. `/s/{token}` is the read-only page; `/api/v1/s/{token}` says what it shows (or
/// that it asks for a password: `POST …/unlock` gives the key `X-Share-Key` carries after),
/// `…/path` its path (or, for a range of more fixes than ``vectorPathFixLimit``, `…/bounds` and
/// `…/tiles/{z}/{x}/{y}.png`, drawn from the owner's tile index), `…/journal` its entries' titles (unless hidden), `…/latest` a live link's
/// position, `…/photos` and `…/photos/{id}/thumbnail` the range's photos when the owner included them. An expired or revoked link is a 410, an unknown one a 404; every visitor's request is
/// rate limited per address (`RequestRateLimiter`) and wrong passwords are throttled as logins are.
struct ShareRoutes {
    let links: ShareLinks
    let read: ReadRoutes
    /// The history tile indices the owner's map draws from: a link's tiles are drawn from them too.
    let tiles: HistoryTiles
    let web: WebAssets
    let configuration: ServerConfiguration
    let placeTimeZones: PlaceTimeZones?
    let limiter: RequestRateGate
    /// Thumbnails are counted apart: a page of photos asks for dozens at once, as a visitor scrolls.
    let thumbnailLimiter: RequestRateGate
    /// Tiles too: a map asks for a screenful at once, and again as it is moved.
    let tileLimiter: RequestRateGate
    /// A link of more fixes than this is drawn from tiles, as the owner's map draws a range; fewer as a vector path.
    static let vectorPathFixLimit = 50_000

    static let shareKeyField = HTTPField.Name("X-Share-Key")!
    /// How often a live link's page asks for the position, seconds (the page's `share.js` uses it).
    static let livePollSeconds = 15
    /// The most photos a link's page is given (the first ones of its range; the answer says when there are more).
    static let photoLimit = 2000

    init(links: ShareLinks, read: ReadRoutes, tiles: HistoryTiles, web: WebAssets, configuration: ServerConfiguration,
         placeTimeZones: PlaceTimeZones?, limiter: RequestRateLimiter = RequestRateLimiter(),
         thumbnailLimiter: RequestRateLimiter = RequestRateLimiter(burst: 600, perSecond: 20),
         tileLimiter: RequestRateLimiter = RequestRateLimiter(burst: 600, perSecond: 30)) {
        self.links = links
        self.read = read
        self.tiles = tiles
        self.web = web
        self.configuration = configuration
        self.placeTimeZones = placeTimeZones
        self.limiter = RequestRateGate(limiter)
        self.thumbnailLimiter = RequestRateGate(thumbnailLimiter)
        self.tileLimiter = RequestRateGate(tileLimiter)
    }

    func add(to router: RouteRegistry) {
        addOwnerRoutes(to: router)
        router.get("/s/{token}") { _, context in
            try admit(context)
            guard let asset = web.own["share.html"] else { throw APIError.notFound("share.html is missing from this build") }
            var response = WebRoutes.response(asset)
            switch try await links.lookup(token: try context.parameters.require("token")) {
            case .open: break
            case .expired, .revoked: response.status = .gone
            case .unknown: response.status = .notFound
            }
            return response
        }
        router.get("/api/v1/s/{token}") { request, context in
            try admit(context)
            let (share, token) = try await openShare(context)
            guard try unlocked(share, token: token, request) else {
                return Self.private(try Response.json(SharedViewJSON(locked: true)))
            }
            try await links.store.recordShareView(id: share.id, at: Date())
            let record = share.record
            return Self.private(try Response.json(SharedViewJSON(
                locked: false, title: record.title, kind: record.kind.rawValue, from: ISO8601TimeFormatter.string(record.from),
                to: ISO8601TimeFormatter.string(record.to), expiresAt: record.expiresAt.map(ISO8601TimeFormatter.string),
                hideVisits: record.hideVisits, photos: record.includePhotos, tileURLTemplate: configuration.tileURLTemplate,
                tileAttribution: configuration.tileAttribution, vectorPathFixLimit: Self.vectorPathFixLimit)))
        }
        router.post("/api/v1/s/{token}/unlock") { request, context in
            try admit(context)
            let (share, token) = try await openShare(context)
            guard let hash = share.record.passwordHash else { throw APIError.badRequest("this share link has no password") }
            struct Body: Decodable { var password: String }
            let body: Body = try await request.decodeJSON(context: context)
            let matches: Bool
            do throws(AccountError) {
                matches = try await links.accounts.checkSharePassword(body.password, hash: hash, share: share.id, from: context.clientAddress)
            } catch {
                throw error.apiError
            }
            guard matches else { throw APIError.unauthorized("wrong password for this share link") }
            struct Key: Encodable { var key: String }
            return Self.private(try Response.json(Key(key: ShareLinks.unlockKey(token: token, passwordHash: hash))))
        }
        router.get("/api/v1/s/{token}/path") { request, context in
            let share = try await readableShare(request, context)
            let zoom = try request.integerQuery("zoom", in: 0...22, default: 12)
            return Self.private(Response.bytes(try await keptPath(share, zoom: zoom), contentType: "application/geo+json"))
        }
        router.get("/api/v1/s/{token}/bounds") { request, context in
            let share = try await readableShare(request, context)
            let parameters = try await shownRange(share)
            let hiding = try await visibility(share)
            let summary = try await tiles.withIndex(userID: share.record.userID) { loaded in
                loaded.index.summary(filter: TileRoutes.filter(parameters, loaded: loaded), hiding: hiding)
            }
            return Self.private(try Response.json(HistoryBoundsAnswer(summary, deviceNames: [:])))
        }
        router.get("/api/v1/s/{token}/tiles/{z}/{x}/{y}.png") { request, context in
            let share = try await readableShare(request, context, gate: tileLimiter)
            let tile = try TileRoutes.tile(context)
            let scale = try TileRoutes.tileScale(request)
            let parameters = try await shownRange(share)
            let hiding = try await visibility(share)
            let renderer = HistoryTileRenderer(layer: .path, pixelScale: scale)
            let projection = MapProjection(tile: tile, pixelScale: scale)
            let content = try await tiles.withIndex(userID: share.record.userID) { loaded in
                loaded.index.content(in: renderer.queryRect(for: projection), zoom: tile.zoom,
                                     filter: TileRoutes.filter(parameters, loaded: loaded), parts: renderer.contentParts, hiding: hiding)
            }
            let canvas = try Canvas(widthPixels: Int(projection.widthPixels), heightPixels: Int(projection.heightPixels))
            try renderer.draw(content, projection: projection, on: canvas)
            renderer.erase(hiding, projection: projection, on: canvas)
            return Self.private(Response.bytes(try canvas.pngData(), contentType: "image/png"))
        }
        router.get("/api/v1/s/{token}/journal") { request, context in
            let share = try await readableShare(request, context)
            guard !share.record.hideVisits else { throw APIError.notFound("this share link does not show the journal") }
            let parameters = try await shownRange(share)
            let entries = try await JournalReader(store: links.store, timeZones: placeTimeZones)
                .entries(userID: share.record.userID, from: parameters.from, to: parameters.to)
            let hiding = try await visibility(share)
            return Self.private(try Response.json(entries.filter { entry in
                Coordinate(validLatitude: entry.latitude, longitude: entry.longitude).map { !hiding.contains($0) } ?? false
            }.map {
                SharedEntryJSON(title: $0.place, arrival: $0.arrival, departure: $0.departure, latitude: $0.latitude, longitude: $0.longitude)
            }))
        }
        router.get("/api/v1/s/{token}/photos") { request, context in
            let share = try await readableShare(request, context)
            let query = try await photoQuery(share)
            let hiding = try await visibility(share)
            var found = try await photoStore().photos(PhotoQuery(userID: query.userID, from: query.from, to: query.to, box: query.box,
                                                                  limit: Self.photoLimit + 1))
            let complete = found.count <= Self.photoLimit
            found = found.prefix(Self.photoLimit).filter { photo in photo.record.coordinate.map { !hiding.contains($0) } ?? false }
            return Self.private(try Response.json(SharedPhotosJSON(photos: found.map(SharedPhotoJSON.init), complete: complete)))
        }
        router.get("/api/v1/s/{token}/photos/{id}/thumbnail") { request, context in
            let share = try await readableShare(request, context, gate: thumbnailLimiter)
            let query = try await photoQuery(share)
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the photo id must be a number") }
            // The link's own photos only: its owner's, in its range, placed, and outside their hidden zones.
            guard let photo = try await photoStore().photo(id: PhotoID(rawValue: id), userID: share.record.userID), query.matches(photo),
                  let position = photo.record.coordinate, !(try await visibility(share).contains(position)) else {
                throw APIError.notFound("this share link shows no photo \(id)")
            }
            return Self.private(try PhotoRoutes.thumbnail(photo, size: request.query("size"), folder: configuration.photoDirectory))
        }
        router.get("/api/v1/s/{token}/latest") { request, context in
            let share = try await readableShare(request, context)
            guard share.record.kind == .live else { throw APIError.notFound("this share link does not show a live position") }
            let parameters = try await shownRange(share)
            var newest: StoredLocation?
            for device in parameters.devices {
                let found = try await links.store.locations(LocationQuery(userID: share.record.userID, deviceIDs: [device.id],
                                                                          from: parameters.from, to: parameters.to, limit: 1, newestFirst: true))
                if let stored = found.first, stored.location.timestamp > newest?.location.timestamp ?? .distantPast { newest = stored }
            }
            // A position inside a privacy zone is withheld, not replaced by an older one outside.
            if let position = newest?.location.coordinate, try await visibility(share).contains(position) { newest = nil }
            guard let newest else { return Self.private(Response.json(data: Data(#"{"type":"FeatureCollection","features":[]}"#.utf8))) }
            let writer = LocationFeatureWriter()
            writer.write(newest.location, extra: [])
            return Self.private(Response.json(data: Data((#"{"type":"FeatureCollection","features":["# + writer.take() + "]}").utf8)))
        }
    }

    func addOwnerRoutes(to router: RouteRegistry) {
        router.post("/api/v1/shares") { request, context in
            let identity = try context.requirePerson()
            let body: ShareCreateBody = try await request.decodeJSON(context: context)
            let now = Date()
            var base: String?
            if let given = body.url, !given.isEmpty {
                guard let url = URL(string: given), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                      url.query == nil, url.fragment == nil else {
                    throw APIError.badRequest("url '\(given)': expected the server's address, such as https://travelog.example.org")
                }
                base = given.hasSuffix("/") ? String(given.dropLast()) : given
            }
            let shareRequest = try await Self.request(body, userID: identity.user.id, links: links, now: now)
            let made: (share: StoredShare, token: String)
            do throws(ShareError) { made = try await links.create(shareRequest, userID: identity.user.id, now: now) } catch { throw error.apiError }
            return try Response.json(ShareJSON(made.share, now: now, token: made.token, baseURL: base), status: .created)
        }
        router.get("/api/v1/shares") { _, context in
            let identity = try context.requirePerson()
            let now = Date()
            let shares: [StoredShare]
            do throws(ShareError) { shares = try await links.list(userID: identity.user.id) } catch { throw error.apiError }
            return try Response.json(shares.map { ShareJSON($0, now: now) })
        }
        router.delete("/api/v1/shares/{id}") { _, context in
            let identity = try context.requirePerson()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the share id must be a number") }
            do throws(ShareError) { try await links.revoke(id: ShareID(rawValue: id), userID: identity.user.id) } catch { throw error.apiError }
            return Response(status: .noContent)
        }
    }

    /// The request a body asks for, its range resolved (a day in its time zone, a trip's stretch, a live link from now).
    static func request(_ body: ShareCreateBody, userID: UserID, links: ShareLinks, now: Date) async throws -> ShareRequest {
        let zone: TimeZone
        if let name = body.timezone {
            guard let found = TimeZone(identifier: name) else { throw APIError.badRequest("timezone '\(name)' is not an IANA time zone") }
            zone = found
        } else {
            zone = TimeZone(identifier: "UTC")!
        }
        let scope: ShareScope
        switch body.kind {
        case "day":
            guard let day = body.day else { throw APIError.badRequest("a day link needs day (YYYY-MM-DD)") }
            scope = .day(day)
        case "range":
            guard let from = body.from, let to = body.to else { throw APIError.badRequest("a range link needs from and to") }
            scope = .range(from: from, to: to)
        case "trip":
            guard let trip = body.trip else { throw APIError.badRequest("a trip link needs trip: the id of the visit it leaves from") }
            scope = .trip(VisitID(rawValue: trip))
        case "live":
            scope = .live(seconds: body.forSeconds ?? 86_400)
        default:
            throw APIError.badRequest("kind '\(body.kind)': expected day, range, trip or live")
        }
        let expiry: ShareExpiry = if let seconds = body.expiresInSeconds { .after(seconds: seconds) }
            else if let text = body.expires { text == "never" ? .never : .at(text) } else { .standard }
        do throws(ShareError) {
            return try await links.request(scope, expiry: expiry, timeZone: zone, userID: userID, title: body.title,
                                           password: body.password, hideVisits: body.hideVisits ?? false,
                                           includePhotos: body.photos ?? false, now: now)
        } catch {
            throw error.apiError
        }
    }

    // MARK: The visitor's side

    /// Takes the request from the client's bucket (a request without an address, made in-process, is not counted).
    func admit(_ context: TravelogRequestContext, gate: RequestRateGate? = nil) throws {
        guard let address = context.clientAddress else { return }
        let now = Date()
        if let wait = (gate ?? limiter).state.withLock({ $0.admit(address, at: now) }) {
            throw APIError.tooManyRequests(retryAfterSeconds: max(1, Int(wait.rounded(.up))), "too many requests for share links: wait a moment")
        }
    }

    /// The open link the path's token names, or the 404/410.
    func openShare(_ context: TravelogRequestContext) async throws -> (StoredShare, String) {
        let token = try context.parameters.require("token")
        switch try await links.lookup(token: token) {
        case .open(let share): return (share, token)
        case .expired: throw APIError.http(status: .gone, "this share link has expired")
        case .revoked: throw APIError.http(status: .gone, "this share link was revoked")
        case .unknown: throw APIError.notFound("no such share link")
        }
    }

    /// Whether the request may read the link: it has no password, or the request carries its key.
    func unlocked(_ share: StoredShare, token: String, _ request: Request) throws -> Bool {
        guard let hash = share.record.passwordHash else { return true }
        guard let key = request.headers[Self.shareKeyField] else { return false }
        return key == ShareLinks.unlockKey(token: token, passwordHash: hash)
    }

    /// The open link, when the request may read it (a 401 while its password was not given).
    func readableShare(_ request: Request, _ context: TravelogRequestContext, gate: RequestRateGate? = nil) async throws -> StoredShare {
        try admit(context, gate: gate)
        let (share, token) = try await openShare(context)
        guard try unlocked(share, token: token, request) else { throw APIError.unauthorized("this share link asks for its password") }
        return share
    }

    /// What the link reads: its owner's devices (nameless), over its range up to now.
    func shownRange(_ share: StoredShare) async throws -> ReadParameters {
        let devices = try await links.store.devices(userID: share.record.userID).map { device in
            var nameless = device
            nameless.name = ""
            return nameless
        }
        return ReadParameters(from: share.record.from, to: min(share.record.to, Date()), timeZone: TimeZone(identifier: "UTC")!,
                              devices: devices)
    }

    /// A link's path at a zoom, kept (``FigureCacheStore``) once its range has ended, under a digest of
    /// what it is drawn from: the range, the devices, the fixes per device and UTC day over the range
    /// with their deletions, the owner's privacy zones, the zones of local days. Every visitor of a
    /// holiday's link then gets it at once instead of the range simplified again (4-5 s for a range
    /// of a million fixes); a fix added to the range or a zone drawn makes it anew.
    func keptPath(_ share: StoredShare, zoom: Int) async throws -> Data {
        let parameters = try await shownRange(share)
        let hiding = try await visibility(share)
        let userID = share.record.userID
        let compute = { try await read.pathData(userID: userID, parameters: parameters, zoom: zoom,
                                                budget: ReadRoutes.defaultPathPointBudget, hiding: hiding) }
        guard let kept = links.store as? any FigureCacheStore, share.record.to <= Date() else { return try await compute() }
        do {
            let day = { (date: Date) in Int((date.timeIntervalSince1970 / 86_400).rounded(.down)) }
            let counts = try await kept.dailyFixCounts(userID: userID, days: day(share.record.from)...day(share.record.to))
                .sorted { ($0.day, $0.deviceID.rawValue) < ($1.day, $1.deviceID.rawValue) }
            let zones = try await links.store.zones(userID: userID)
            var hash = FNV1a()
            hash.mix("v1|\(zoom)|\(StoragePrecision.milliseconds(share.record.from))-\(StoragePrecision.milliseconds(share.record.to))|")
            hash.mix("\(placeTimeZones?.identity ?? "none")|\(parameters.devices.map { String($0.id.rawValue) }.joined(separator: ","))|")
            for row in counts { hash.mix("\(row.day):\(row.deviceID.rawValue):\(row.count):\(row.version);") }
            for zone in zones { hash.mix("|\(zone.id.rawValue):\(zone.definition)") }
            let key = hash.hex
            // A share's paths by zoom (0-22): its id and the zoom make the slot.
            let slot = Int(share.id.rawValue) * 32 + zoom
            if let found = try await kept.cachedFigures(userID: userID, kind: "share-path", slots: slot...slot)[slot], found.key == key {
                return found.payload
            }
            let data = try await compute()
            try await kept.storeCachedFigures(userID: userID, kind: "share-path", [slot: CachedFigures(key: key, payload: data)])
            return data
        } catch let error as StoreError {
            throw APIError.storeFailed(error)
        }
    }

    /// The photos a link shows: its owner's, taken in its range up to now, placed (a 404 when the owner did not include photos).
    func photoQuery(_ share: StoredShare) async throws -> PhotoQuery {
        guard share.record.includePhotos else { throw APIError.notFound("this share link does not show photos") }
        let range = try await shownRange(share)
        return PhotoQuery(userID: share.record.userID, from: range.from, to: range.to,
                          box: CoordinateBox(south: -90, west: -180, north: 90, east: 180))
    }

    func photoStore() throws(APIError) -> any PhotoStore {
        guard let photos = links.store as? any PhotoStore else { throw .notFound("this store keeps no photos") }
        return photos
    }

    /// What of the owner's history the link may show, as their privacy zones are now (read for
    /// every request: a zone added applies to the next one).
    func visibility(_ share: StoredShare) async throws -> ZoneFilter {
        do throws(StoreError) {
            return try await PrivacyZones(store: links.store).visibility(userID: share.record.userID)
        } catch {
            throw APIError.storeFailed(error)
        }
    }

    /// A visitor's answer: never cached or kept by a proxy.
    static func `private`(_ response: Response) -> Response {
        var response = response
        response.headers[.cacheControl] = "no-store"
        return response
    }
}

extension ShareError {
    var apiError: APIError {
        switch self {
        case .unreadable, .emptyRange, .rangeTooLong, .expiryPassed, .liveDuration, .passwordTooShort, .invalidTitle: .badRequest(description)
        case .unknownTrip, .unknownShare: .notFound(description)
        case .account(let error): error.apiError
        case .store(let error): .storeFailed(error)
        }
    }
}
