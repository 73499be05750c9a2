import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle
import TravelogAccounts
import TravelogNotify
import TravelogPhotos
import TravelogStore
import TravelogGeocoding
import TravelogImport
import TravelogJournal
import TravelogRender
import TravelogRouting
import UnixSignals

/// The server: routes, the services behind them, and a run loop that stops gracefully on SIGTERM
/// or SIGINT (in-flight requests finish; open live streams are closed).
///
/// It knows its store only as a `TravelogStore`: `travelog serve` picks the backend.
public struct TravelogServerApp: Sendable {
    public let store: any TravelogStore
    public let configuration: ServerConfiguration
    public let accounts: AccountService
    public let hub: LiveHub
    public let metrics: ServerMetrics
    public let journal: JournalService
    public let notifications: NotificationDispatcher
    /// The offline gazetteer, when one was found: journal places, local time, the geocoding API.
    public let gazetteer: Gazetteer?
    /// Time zones of places, for days in local time.
    let placeTimeZones: PlaceTimeZones?
    /// The one way locations enter the store (every route and upload).
    public let writer: HistoryWriter
    let web: WebAssets
    /// The history tiles' indices and versions.
    let tiles: HistoryTiles
    /// The reviews' figures kept current in the background.
    let reviewKeeper: ReviewKeeper
    /// The offline world base, when its outline file (`make world`) was found.
    let worldOutlines: WorldOutlines?
    /// The live stream across server processes, when the store is shared (PostgreSQL).
    let liveRelay: LiveFeedRelay?
    /// Single sign-on's provider, discovered at start (`travelog serve --oidc-issuer`), or `nil`.
    public var oidc: OIDCProvider? = nil
    /// The MQTT broker OwnTracks phones publish to (`travelog serve --mqtt`), or `nil`.
    public var mqtt: MQTTSettings? = nil
    /// The regions sent to MQTT phones (through the subscriber's connection, when there is one).
    let ownTracksCommands: OwnTracksCommandPublisher
    /// The one-time link that creates the first account, while the database has none (`travelog serve` makes it).
    public var firstRun: FirstRunSetup? = nil
    /// The version, database and data files the administrator's view shows (`travelog serve` fills it in).
    public var facts = ServerFacts()
    /// The road graphs of the OSM extracts added (`travelog osm add`): directions, or `nil`.
    public var roadNetwork: RoadNetwork? = nil {
        didSet { journal.roads.setNetwork(roadNetwork) }
    }
    /// Local search and forward geocoding of addresses over the OSM extracts added (`travelog osm add`), or `nil`.
    public var localSearch: OSMSearchIndex? = nil
    /// Share links' visitors, per address: requests at once, and more per second after (tests lower them).
    public var shareVisitorLimit: (burst: Double, perSecond: Double) = (120, 2)
    /// Street-level reverse geocoding from the OSM extracts added (`travelog osm add`), or `nil`:
    /// it also names the journal's points of interest and addresses.
    public let streetLevel: OSMReverseGeocoder?

    public init(store: any TravelogStore, configuration: ServerConfiguration = ServerConfiguration(),
                gazetteer: Gazetteer? = nil, timeZones: TimeZoneBoundaries? = nil, streetLevel: OSMReverseGeocoder? = nil,
                logger: Logger = Logger(label: "travelog")) {
        self.streetLevel = streetLevel
        self.store = store
        self.configuration = configuration
        self.gazetteer = gazetteer
        accounts = AccountService(store: store, bcryptCost: configuration.bcryptCost,
                                  sessionLifetimeSeconds: configuration.sessionLifetimeSeconds,
                                  loginFailuresPerAddress: configuration.loginFailuresPerAddress)
        hub = LiveHub()
        metrics = ServerMetrics()
        let describer = gazetteer.map { GazetteerDescriber(gazetteer: $0, timeZones: timeZones, streetLevel: streetLevel) }
        placeTimeZones = describer.map { PlaceTimeZones(describer: $0, boundaries: timeZones) }
        let notifications = NotificationDispatcher(store: store, logger: logger, addressPolicy: configuration.addressPolicy)
        self.notifications = notifications
        journal = JournalService(processor: JournalProcessor(store: store, describer: describer), logger: logger) { event in
            await notifications.notify(event.notificationMessage, userID: event.userID)
        }
        tiles = HistoryTiles(store: store, indexDirectory: configuration.historyIndexDirectory, logger: logger)
        reviewKeeper = ReviewKeeper(store: store, journal: journal, placeTimeZones: placeTimeZones, logger: logger)
        worldOutlines = configuration.worldOutlinesPath.flatMap { try? WorldOutlines(contentsOf: $0) }
        let regions = RegionEvaluator(store: store) { message, userID in _ = await notifications.notify(message, userID: userID) }
        var liveRelay: LiveFeedRelay?
        if let feed = store as? any StoredLocationFeed {
            liveRelay = LiveFeedRelay(feed: feed, store: store, hub: hub, tiles: tiles, logger: logger)
        }
        self.liveRelay = liveRelay
        var writer = HistoryWriter(store: store, journal: journal,
                                   observer: ServerHistoryObserver(hub: hub, metrics: metrics, tiles: tiles, relay: liveRelay))
        writer.regions = regions
        self.writer = writer
        web = WebAssets(leafletDirectory: configuration.leafletDirectory)
        ownTracksCommands = OwnTracksCommandPublisher(store: store, logger: logger)
    }

    /// Every route, behind the metrics and authentication middleware.
    public func makeRouter() -> Router<TravelogRequestContext> {
        makeRoutes().router
    }

    /// The router and the list of its routes (method, path pattern).
    func makeRoutes() -> RouteRegistry {
        let base = Router(context: TravelogRequestContext.self)
        let router = RouteRegistry(router: base)
        base.add(middleware: SecurityHeadersMiddleware())
        base.add(middleware: RouterErrorMiddleware(registry: router))
        base.add(middleware: CanonicalPathMiddleware(registry: router))
        base.add(middleware: RedactedRequestLogMiddleware(.debug))
        base.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        base.add(middleware: AuthenticationMiddleware(accounts: accounts))
        base.add(middleware: CrossSiteRequestMiddleware())
        base.add(middleware: TokenScopeMiddleware())
        let sessions = SessionRoutes(accounts: accounts, configuration: configuration, tiles: tiles)
        sessions.add(to: router)
        SetupRoutes(setup: firstRun, store: store, sessions: sessions).add(to: router)
        let deletion = UserDeletion(accounts: accounts, store: store, historyIndexDirectory: configuration.historyIndexDirectory,
                                    photoFolder: configuration.photoDirectory.map { PhotoFolder(root: $0) })
        AccountRoutes(store: store, accounts: accounts, sessions: sessions, deletion: deletion, tiles: tiles).add(to: router)
        TwoFactorRoutes(accounts: accounts).add(to: router)
        AdminRoutes(store: store, accounts: accounts, deletion: deletion, tiles: tiles, facts: facts).add(to: router)
        ImportListRoutes(store: store, journal: journal, tiles: tiles).add(to: router)
        OIDCRoutes(provider: oidc, accounts: accounts, configuration: configuration, tiles: tiles).add(to: router)
        IngestRoutes(writer: writer, metrics: metrics, bodyLimitBytes: configuration.maxBodyBytes,
                     regions: OwnTracksRegionSync(store: store, evaluator: writer.regions)).add(to: router)
        PhoneAppRoutes(writer: writer, accounts: accounts).add(to: router)
        UploadRoutes(importer: FileImporter(writer: writer), uploadLimitBytes: configuration.maxUploadBytes,
                     limits: configuration.uploadLimits).add(to: router)
        ReadRoutes(store: store, placeTimeZones: placeTimeZones).add(to: router)
        LabelRoutes(store: store, placeTimeZones: placeTimeZones).add(to: router)
        DeviceRoutes(manager: DeviceManager(store: store, accounts: accounts), tiles: tiles, configuration: configuration,
                     mqttBroker: mqtt?.phoneBroker).add(to: router)
        RegionRoutes(store: store, changed: { [ownTracksCommands] in await ownTracksCommands.regionsChanged(userID: $0) }).add(to: router)
        TileRoutes(store: store, tiles: tiles, worldOutlines: worldOutlines,
                   basemap: TileServerBasemap(urlTemplate: configuration.tileURLTemplate,
                                              cacheDirectory: configuration.tileCacheDirectory)).add(to: router)
        LiveRoutes(hub: hub).add(to: router)
        JournalRoutes(store: store, journal: journal, gazetteer: gazetteer, placeTimeZones: placeTimeZones, streetLevel: streetLevel,
                      localSearch: localSearch).add(to: router)
        ExploreRoutes(store: store, tiles: tiles, journal: journal, gazetteer: gazetteer, streetLevel: streetLevel,
                      placeTimeZones: placeTimeZones, worldOutlines: worldOutlines).add(to: router)
        SearchRoutes(store: store, search: LocalSearch(index: localSearch, gazetteer: gazetteer)).add(to: router)
        ReviewRoutes(store: store, journal: journal, placeTimeZones: placeTimeZones, worldOutlines: worldOutlines,
                     keeper: reviewKeeper).add(to: router)
        NotificationRoutes(store: store, notifications: notifications, configuration: configuration).add(to: router)
        DirectionsRoutes(network: roadNetwork).add(to: router)
        MatchRoutes(network: roadNetwork, store: store, links: ShareLinks(store: store, accounts: accounts)).add(to: router)
        PhotoRoutes(store: store, folder: configuration.photoDirectory, placeTimeZones: placeTimeZones).add(to: router)
        ShareRoutes(links: ShareLinks(store: store, accounts: accounts), read: ReadRoutes(store: store, placeTimeZones: placeTimeZones), tiles: tiles,
                    web: web, configuration: configuration, placeTimeZones: placeTimeZones,
                    limiter: RequestRateLimiter(burst: shareVisitorLimit.burst, perSecond: shareVisitorLimit.perSecond)).add(to: router)
        ZoneRoutes(zones: PrivacyZones(store: store), journal: journal, tiles: tiles).add(to: router)
        FriendRoutes(friends: Friends(store: store), read: ReadRoutes(store: store, placeTimeZones: placeTimeZones)).add(to: router)
        RetentionRoutes(retention: retention, tiles: tiles).add(to: router)
        WebRoutes(web: web).add(to: router)
        router.get("/metrics") { request, context in
            let forwarded = request.headers[HTTPField.Name("X-Forwarded-For")!] != nil || request.headers[HTTPField.Name("Forwarded")!] != nil
            guard configuration.metricsAccess.permits(address: context.clientAddress, forwarded: forwarded,
                                                      authorization: request.headers[.authorization]) else {
                throw APIError.notFound("no such path: /metrics")
            }
            return Response.text(metrics.render(liveSubscribers: hub.subscriberCount),
                          contentType: "text/plain; version=0.0.4; charset=utf-8")
        }
        router.get("/healthz") { _, _ in Response.text("ok\n") }
        return router
    }

    /// Retention with the server's default (`travelog serve --retention`): the API and the daily run.
    var retention: HistoryRetention { HistoryRetention(store: store, serverDefault: configuration.retentionDefault) }

    /// Every route the server answers, as (method, path pattern), for tests.
    public var routeList: [(method: String, path: String)] { makeRoutes().routes }

    /// The application, ready to run (tests drive it with HummingbirdTesting).
    public func makeApplication(logger: Logger = Logger(label: "travelog"),
                                onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in })
        -> some ApplicationProtocol {
        Application(
            router: makeRouter(),
            server: .http1(configuration: HTTP1Channel.Configuration(
                additionalChannelHandlers: [SlowRequestHandler(headSeconds: Int64(configuration.requestHeadTimeoutSeconds),
                                                               bodyIdleSeconds: Int64(configuration.requestBodyIdleTimeoutSeconds),
                                                               minimumBodyBytesPerSecond: 512),
                                            ClientDepartureHandler()],
                idleTimeout: .seconds(Int64(configuration.requestHeadTimeoutSeconds)))),
            configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port),
                                                    serverName: "Travelog"),
            services: ([hub, journal, journal.roads, notifications, tiles, SilenceWatch(store: store, notifications: notifications, logger: logger)] as [any Service]) + (liveRelay.map { [$0] } ?? [])
                + [RetentionService(retention: retention, tiles: tiles, logger: logger) as any Service, reviewKeeper]
                + (configuration.reviewMessages.map { [ReviewMessages(store: store, notifications: notifications, placeTimeZones: placeTimeZones,
                                                                      cadence: $0, units: configuration.reviewUnits, logger: logger) as any Service] } ?? [])
                + (mqtt.map { [MQTTSubscriber(settings: $0, store: store, writer: writer, metrics: metrics, logger: logger,
                                                 commands: ownTracksCommands)] } ?? []),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

    /// Runs until SIGTERM or SIGINT.
    public func run(logger: Logger = Logger(label: "travelog"),
                    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let application = makeApplication(logger: logger, onServerRunning: onServerRunning)
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [.init(service: application)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
    }
}
