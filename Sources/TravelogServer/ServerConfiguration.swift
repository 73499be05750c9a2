import Foundation
import TravelogImport
import TravelogNotify
import TravelogRender
import TravelogStore

/// How `travelog serve` runs.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Basemap tiles, `{z}/{x}/{y}` (and optional `{s}`) in the URL. The page keeps working, without
    /// a basemap, when no tile server answers.
    public var tileURLTemplate: String
    /// The credit the tile server asks for (HTML, shown on the map).
    public var tileAttribution: String
    /// How long a login lasts, seconds.
    public var sessionLifetimeSeconds: TimeInterval
    /// bcrypt's cost for new passwords (2^cost rounds; 12 takes about a quarter second here).
    public var bcryptCost: UInt8
    /// The largest body a phone app or script may send, bytes (Overland batches of 1000 points are
    /// ~600 kB). Bodies are read as they arrive, never held whole in memory.
    public var maxBodyBytes: Int
    /// The largest file upload (`/api/v1/imports`), bytes: generous, for Google Takeout archives.
    public var maxUploadBytes: Int
    /// Parts per multipart upload, and what an uploaded archive may hold (entries, inflated bytes, ratio).
    public var uploadLimits: UploadLimits
    /// Where Debian's `libjs-leaflet` puts Leaflet.
    public var leafletDirectory: String
    /// Mark the session cookie `Secure` (only sent over HTTPS): on when served behind TLS.
    public var secureCookies: Bool
    /// Let webhooks and ntfy pushes reach loopback, private and link-local addresses (a home
    /// network's ntfy, say); off, only public addresses are reached.
    public var allowPrivateWebhooks: Bool
    /// Who may read `/metrics`.
    public var metricsAccess: MetricsAccess
    /// Seconds a client has to send a request's head (from connecting, or from the previous answer).
    public var requestHeadTimeoutSeconds: Int
    /// Seconds a request's body may pause; after that long it must also average 512 bytes a second.
    public var requestBodyIdleTimeoutSeconds: Int
    /// Where snapshots keep the tile server's tiles they fetched.
    public var tileCacheDirectory: URL
    /// The offline world base's outline file (`make world`), or `nil` for none.
    public var worldOutlinesPath: String?
    /// Where each user's history tile index is saved, to be read back at the next start instead
    /// of built from every stored fix (`nil`: not saved; `travelog serve` puts it next to a SQLite
    /// database, and for PostgreSQL in the data directory, unless `--history-index-dir` says where).
    public var historyIndexDirectory: URL?
    /// The photo folder (thumbnails, uploaded originals: `PhotoFolder`), or `nil`: photos are listed but
    /// not uploaded (`travelog serve` puts it beside a SQLite database, for PostgreSQL in the data directory).
    public var photoDirectory: URL? = nil
    /// How long users without a setting of their own keep their history (`travelog serve --retention`), or `nil`: forever.
    public var retentionDefault: RetentionSetting? = nil
    /// Reviews sent on the users' notification channels (`serve --review-messages`), or `nil`: none.
    public var reviewMessages: ReviewMessagesCadence? = nil
    /// The review messages' units (`serve --review-units`).
    public var reviewUnits: HistoryStatistics.UnitSystem = .metric
    /// Wrong passwords from one client address before its logins are delayed (`LoginThrottle`).
    public var loginFailuresPerAddress = 20

    public static let defaultTileURLTemplate = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"
    public static let defaultTileAttribution =
        "&copy; <a href=\"https://www.openstreetmap.org/copyright\">OpenStreetMap</a> contributors"

    public init(host: String = "127.0.0.1", port: Int = 8080,
                tileURLTemplate: String = Self.defaultTileURLTemplate,
                tileAttribution: String = Self.defaultTileAttribution,
                sessionLifetimeSeconds: TimeInterval = 30 * 86_400, bcryptCost: UInt8 = 12,
                maxBodyBytes: Int = 64 << 20, maxUploadBytes: Int = 8 << 30, leafletDirectory: String = "/usr/share/javascript/leaflet",
                secureCookies: Bool = false, allowPrivateWebhooks: Bool = false,
                metricsAccess: MetricsAccess = .loopback, requestHeadTimeoutSeconds: Int = 30,
                requestBodyIdleTimeoutSeconds: Int = 30,
                tileCacheDirectory: URL = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-tiles"),
                worldOutlinesPath: String? = WorldOutlines.defaultPath, historyIndexDirectory: URL? = nil,
                uploadLimits: UploadLimits = .default) {
        self.host = host
        self.port = port
        self.tileURLTemplate = tileURLTemplate
        self.tileAttribution = tileAttribution
        self.sessionLifetimeSeconds = sessionLifetimeSeconds
        self.bcryptCost = bcryptCost
        self.maxBodyBytes = maxBodyBytes
        self.maxUploadBytes = maxUploadBytes
        self.uploadLimits = uploadLimits
        self.leafletDirectory = leafletDirectory
        self.secureCookies = secureCookies
        self.allowPrivateWebhooks = allowPrivateWebhooks
        self.metricsAccess = metricsAccess
        self.requestHeadTimeoutSeconds = requestHeadTimeoutSeconds
        self.requestBodyIdleTimeoutSeconds = requestBodyIdleTimeoutSeconds
        self.tileCacheDirectory = tileCacheDirectory
        self.worldOutlinesPath = worldOutlinesPath
        self.historyIndexDirectory = historyIndexDirectory
    }
}

extension ServerConfiguration {
    /// Where webhooks and ntfy pushes may go.
    public var addressPolicy: AddressPolicy {
        AddressPolicy(allowsPrivateAddresses: allowPrivateWebhooks)
    }
}
