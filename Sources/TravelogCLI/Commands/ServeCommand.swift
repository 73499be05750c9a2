import ArgumentParser
import Foundation
import Logging
import TravelogGeocoding
import TravelogImport
import TravelogPostgres
import TravelogRouting
import TravelogSQLite
import TravelogServer
import TravelogStore

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the server: phones report to it, and its page shows the live map.",
        discussion: """
            Stops gracefully on SIGTERM or Ctrl-C: requests in flight finish, locations they carry are \
            stored. Logs go to standard error (set LOG_LEVEL=debug for more).
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var gazetteerOptions: GazetteerOptions
    /// The OSM extracts added (`travelog osm add`): street-level answers of the reverse geocoding API.
    @OptionGroup var osmOptions: OSMCommand.FolderOptions
    @OptionGroup(title: "Single sign-on (OpenID Connect)") var oidcOptions: OIDCOptions
    @OptionGroup(title: "OwnTracks through an MQTT broker") var mqttOptions: MQTTOptions

    @Option(help: "The address to listen on (0.0.0.0 for every interface).")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on.")
    var port = 8080

    @Option(help: ArgumentHelp("Basemap tiles: a URL template with {z}/{x}/{y}.", valueName: "url"))
    var tiles = ServerConfiguration.defaultTileURLTemplate

    @Option(help: ArgumentHelp("The credit the tile server asks for (HTML).", valueName: "html"))
    var tileAttribution = ServerConfiguration.defaultTileAttribution

    @Flag(help: "Mark the login cookie Secure (when served over HTTPS, behind a proxy).")
    var secureCookies = false

    @Option(help: ArgumentHelp("The largest body a phone app or script may send, MB.", valueName: "mb"))
    var maxBodyMb = 64

    @Option(help: ArgumentHelp("The largest file upload (a Google Takeout .zip), MB.", valueName: "mb"))
    var maxUploadMb = 8192

    @Option(name: .customLong("history-index-dir"), help: ArgumentHelp(
        "Where the history tile indices are saved, so that a restart reads them instead of every stored fix.",
        discussion: """
            Default: next to a SQLite database (travelog.sqlite-history-index); for PostgreSQL \
            $XDG_DATA_HOME/travelog/history-index/postgres-HOST-PORT-DATABASE[-SCHEMA]. A saved index is used \
            only when the database confirms it, device by device.
            """, valueName: "path"))
    var historyIndexDir: String?

    @Flag(help: "Let webhooks and ntfy reach loopback, private and link-local addresses (a home network).")
    var allowPrivateWebhooks = false

    @Option(help: ArgumentHelp(
        "Wrong passwords from one client address before its logins are delayed (1 s, then doubling).",
        discussion: "Default 20; raise it when many people log in through one address (an office, a proxy). Per account it stays 5.",
        valueName: "count"))
    var loginFailuresPerAddress = 20

    @Option(help: ArgumentHelp("Who may read /metrics: off, loopback (not through a proxy), or bearer (the token in $TRAVELOG_METRICS_TOKEN).",
                               valueName: "access"))
    var metrics = "loopback"

    @Option(help: ArgumentHelp("Back the SQLite database up at this interval (e.g. 24h, 30m).", valueName: "interval"))
    var backupEvery: String?

    @Option(help: ArgumentHelp("The folder for --backup-every's backups (travelog-YYYYMMDDTHHMMSSZ.sqlite).", valueName: "dir"))
    var backupDir: String?

    @Option(help: ArgumentHelp("How many scheduled backups to keep.", valueName: "n"))
    var backupKeep = 7

    @Option(help: ArgumentHelp("Delete fixes older than this (365d, 52w, 2y) daily, for users without a setting of their own.",
                               valueName: "period"))
    var retention: String?

    @Option(help: ArgumentHelp("With --retention: the journal's visits older than the period, keep or delete.", valueName: "keep|delete"))
    var retentionJournal: RetentionSetting.Journal = .keep

    @Option(help: ArgumentHelp(
        "Send each user with a notification channel their year in review once it ends (yearly), or their month's too (monthly); "
            + "days in the server's time zone (TZ).", valueName: "off|yearly|monthly"))
    var reviewMessages = "off"

    @Option(help: ArgumentHelp("The review messages' units.", valueName: "metric|imperial"))
    var reviewUnits = "metric"

    /// The server's default retention, from --retention and --retention-journal.
    func retentionDefault() throws -> RetentionSetting? {
        guard let retention else { return nil }
        do {
            return try RetentionSetting(days: try RetentionSetting.days(from: retention), journal: retentionJournal)
        } catch {
            throw ValidationError("--retention: \(error.description)")
        }
    }

    var metricsAccess: MetricsAccess? {
        switch metrics {
        case "off": .off
        case "loopback": .loopback
        case "bearer": ProcessInfo.processInfo.environment["TRAVELOG_METRICS_TOKEN"].flatMap { $0.count >= 16 ? MetricsAccess.bearer(token: $0) : nil }
        default: nil
        }
    }

    func validate() throws {
        guard metricsAccess != nil else {
            throw ValidationError("--metrics \(metrics): expected off, loopback, or bearer with TRAVELOG_METRICS_TOKEN (16 characters or more)")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port): expected 0 to 65535") }
        guard (1...4096).contains(maxBodyMb) else { throw ValidationError("--max-body-mb \(maxBodyMb): expected 1 to 4096") }
        guard (1...1_048_576).contains(maxUploadMb) else { throw ValidationError("--max-upload-mb \(maxUploadMb): expected 1 to 1048576") }
        if backupEvery != nil || backupDir != nil {
            guard let backupEvery, BackupInterval.seconds(backupEvery) != nil, backupDir != nil else {
                throw ValidationError("--backup-every INTERVAL (such as 24h or 30m) and --backup-dir DIR go together")
            }
            guard !PostgresConnectionURL.isPostgresURL(storeOptions.databasePath) else {
                throw ValidationError("--backup-every backs up a SQLite database; for PostgreSQL use pg_dump (`travelog backup` prints how)")
            }
        }
        _ = try retentionDefault()
        guard reviewMessages == "off" || ReviewMessagesCadence(rawValue: reviewMessages) != nil else {
            throw ValidationError("--review-messages \(reviewMessages): expected off, yearly or monthly")
        }
        guard HistoryStatistics.UnitSystem(rawValue: reviewUnits) != nil else {
            throw ValidationError("--review-units \(reviewUnits): expected metric or imperial")
        }
        guard backupKeep >= 1 else { throw ValidationError("--backup-keep \(backupKeep): expected 1 or more") }
        guard tiles.contains("{z}"), tiles.contains("{x}"), tiles.contains("{y}") else {
            throw ValidationError("--tiles '\(tiles)': the template needs {z}, {x} and {y}")
        }
    }

    func run() async throws {
        var logger = Logger(label: "travelog")
        logger.logLevel = ProcessInfo.processInfo.environment["LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .info
        let isSQLite = !PostgresConnectionURL.isPostgresURL(storeOptions.databasePath)
        // Held while serving, so `travelog restore` refuses to replace the database under it.
        let hold = isSQLite ? try SQLiteServerLock.server(database: storeOptions.databasePath) : nil
        defer { withExtendedLifetime(hold) {} }
        let store = try await storeOptions.openStore { [logger] in logger.notice("\($0)") }
        var configuration = ServerConfiguration(host: host, port: port, tileURLTemplate: tiles,
                                                tileAttribution: tileAttribution, maxBodyBytes: maxBodyMb << 20,
                                                maxUploadBytes: maxUploadMb << 20, secureCookies: secureCookies,
                                                allowPrivateWebhooks: allowPrivateWebhooks, metricsAccess: metricsAccess ?? .loopback,
                                                worldOutlinesPath: GazetteerOptions.worldBasePath(),
                                                historyIndexDirectory: storeOptions.historyIndexDirectory(option: historyIndexDir))
        if configuration.worldOutlinesPath == nil { logger.notice("\(GazetteerOptions.missingWorldBase())") }
        configuration.photoDirectory = storeOptions.photosDirectory()
        configuration.retentionDefault = try retentionDefault()
        configuration.reviewMessages = reviewMessages == "off" ? nil : ReviewMessagesCadence(rawValue: reviewMessages)
        configuration.reviewUnits = HistoryStatistics.UnitSystem(rawValue: reviewUnits) ?? .metric
        guard loginFailuresPerAddress >= 1 else { throw ValidationError("--login-failures-per-address: at least 1") }
        configuration.loginFailuresPerAddress = loginFailuresPerAddress
        var gazetteer: Gazetteer?
        do {
            gazetteer = try gazetteerOptions.load()
        } catch {
            logger.warning("journal places stay undescribed and the geocoding API is off: \(error)")
        }
        let timeZones = gazetteer == nil ? nil : gazetteerOptions.timeZoneBoundaries { logger.notice("\($0)") }
        var streetLevel: OSMReverseGeocoder?
        do {
            streetLevel = try osmOptions.streetLevelGeocoder()
        } catch {
            logger.warning("the OSM extracts are not used: \(error)")
        }
        var app = TravelogServerApp(store: store, configuration: configuration, gazetteer: gazetteer, timeZones: timeZones,
                                    streetLevel: streetLevel, logger: logger)
        app.facts = ServerFacts(databaseKind: isSQLite ? "sqlite" : "postgresql", databaseDescription: storeOptions.databaseDescription,
                                dataFiles: gazetteerOptions.serverDataFiles())
        do {
            app.roadNetwork = try osmOptions.roadNetwork()
        } catch {
            logger.warning("directions are off, a road graph is damaged: \(error)")
        }
        do {
            let started = Date()
            app.localSearch = try osmOptions.searchIndex(streetAddresses: app.streetLevel)
            if let index = app.localSearch {
                logger.info("local search: \(index.count) OSM places indexed in \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
            }
        } catch {
            logger.warning("local search does not use the OSM extracts: \(error)")
        }
        if let settings = try oidcOptions.settings() {
            do {
                app.oidc = try await OIDCProvider.discover(settings)
            } catch {
                throw OIDCStartError(underlying: error)
            }
            logger.info("single sign-on with \(settings.issuer) (users matched by \(settings.userClaim.rawValue))")
        }
        if let mqtt = try mqttOptions.settings() {
            app.mqtt = mqtt
            logger.info("MQTT: subscribing through \(mqtt.brokerDescription)")
        }
        let users = try await store.users()
        var anyLogin = false
        for user in users where try await store.passwordHash(userID: user.id) != nil { anyLogin = true }
        let canLogIn = anyLogin
        if users.isEmpty { app.firstRun = FirstRunSetup() }
        let database = storeOptions.databaseDescription
        let schedule = backupEvery.flatMap(BackupInterval.seconds).flatMap { seconds in
            backupDir.map { BackupSchedule(database: storeOptions.databasePath, folder: $0, intervalSeconds: seconds, keep: backupKeep) }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            if let schedule { group.addTask { [logger] in await schedule.run(logger: logger) } }
            try await runServer(app, logger: logger, database: database, canLogIn: canLogIn)
            group.cancelAll()
        }
    }

    private func runServer(_ app: TravelogServerApp, logger: Logger, database: String, canLogIn: Bool) async throws {
        try await app.run(logger: logger) { boundPort in
            let shownHost = host == "0.0.0.0" ? "localhost" : host
            let base = "http://\(shownHost):\(boundPort)"
            var lines = ["Travelog is serving \(database)", "  open \(base)/ in a browser"]
            if let path = app.firstRun?.path {
                lines += ["  no account yet: this one-time link creates the first one (the administrator):",
                          "      \(base)\(path)",
                          "  it works once, until this server stops; it is shown only here: keep it to yourself."]
            }
            if !canLogIn && app.firstRun == nil {
                lines.append("  first time? create a login:  travelog user add NAME" + (storeOptions.db.map { " --db \($0)" } ?? ""))
                lines.append("  then a phone:                travelog device add --user NAME phone --app owntracks")
            }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
        }
    }
}
