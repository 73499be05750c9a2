import Foundation
import TravelogFormats
import TravelogStore

/// What to paste into each phone app so that it reports to this server, and the link that sets it
/// up in one tap or scan: shown by `travelog device add|setup|token`, the page's Devices settings
/// (`POST /api/v1/devices`, `…/{id}/token`) and in the README.
///
/// Tokens are stored as digests, so only the answer that makes a token can carry it: without one
/// (`token: nil`), every setting and link is given without the secret, for the person to type it.
public struct AppSetup: Sendable, Equatable {
    public var app: DeviceApp
    /// The app's name as people know it.
    public var title: String
    /// Settings, in the order the app shows them: (setting, value).
    public var settings: [(String, String)]
    /// What to open on the phone (or scan) to configure the app: OwnTracks' and Overland's setup
    /// links, the URL to paste for the others; `nil` for scripts.
    public var link: String?

    public static func == (lhs: AppSetup, rhs: AppSetup) -> Bool {
        lhs.app == rhs.app && lhs.title == rhs.title && lhs.link == rhs.link
            && lhs.settings.map(\.0) == rhs.settings.map(\.0) && lhs.settings.map(\.1) == rhs.settings.map(\.1)
    }

    public init(app: DeviceApp, title: String, settings: [(String, String)], link: String? = nil) {
        self.app = app
        self.title = title
        self.settings = settings
        self.link = link
    }

    /// Shown in place of a token that is not known any more.
    public static let tokenPlaceholder = "(the device's token: shown once when made; rotate it for a new one)"

    /// The GPSLogger custom-URL query the `/api/v1/gpslogger` endpoint reads.
    public static var gpsloggerQuery: String { GPSLoggerRequestDecoder.queryTemplate }

    /// The settings for every supported app (or only `app`), for a device and its token.
    /// - Parameter baseURL: how phones reach the server, such as `https://travelog.example.org`.
    ///   - token: the device's token, `nil` when it is not known (settings without the secret).
    ///   - broker: where phones reach the MQTT broker; the MQTT mode's settings are given only
    ///     with it, or when `app` asks for them (with a placeholder then).
    ///   - ownTracksSecret: the device's encryption secret, for OwnTracks' Encryption key.
    public static func instructions(baseURL: String, user: String, device: String, token: String?,
                                    app: DeviceApp? = nil, broker: MQTTBrokerAddress? = nil,
                                    ownTracksSecret: String? = nil) -> [AppSetup] {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let secret = token ?? tokenPlaceholder
        let inURL = token.map(SetupLink.percentEncoded) ?? "TOKEN"
        let unknown: [(String, String)] = token == nil ? [("TOKEN", tokenPlaceholder)] : []
        let gpsloggerURL = "\(base)/api/v1/gpslogger?token=\(inURL)&\(gpsloggerQuery)"
        let osmandURL = "\(base)/api/v1/osmand?id=\(inURL)&speed_unit=mps&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}&bearing={6}"
        let all: [AppSetup] = [
            AppSetup(app: .owntracks, title: "OwnTracks (Android, iOS)", settings: [
                ("Mode", "HTTP"),
                ("URL / Host", "\(base)/api/v1/owntracks"),
                ("Authentication", "on"),
                ("User ID / Username", user),
                ("Password", secret),
                ("Device ID", device),
                ("Tracker ID", SetupLink.trackerID(device)),
            ], link: SetupLink.owntracks(url: "\(base)/api/v1/owntracks", user: user, device: device, token: token)),
        ] + (broker != nil || app == .owntracksMQTT ? [mqtt(broker: broker, user: user, device: device, secret: ownTracksSecret)] : []) + [
            AppSetup(app: .overland, title: "Overland (iOS)", settings: [
                ("Receiver Endpoint", "\(base)/api/v1/overland"),
                ("Access Token", secret),
                ("Device ID", device),
            ], link: SetupLink.overland(url: "\(base)/api/v1/overland", device: device, token: token)),
            AppSetup(app: .traccar, title: "Traccar Client (Android, iOS)", settings: [
                ("Server URL", "\(base)/api/v1/osmand"),
                ("Device identifier", secret),
                ("(speed)", "read in knots, as Traccar Client sends it"),
            ], link: "\(base)/api/v1/osmand"),
            AppSetup(app: .osmand, title: "OsmAnd (trip recording → online tracking)", settings: [
                ("Web address", osmandURL),
                ("(speed)", "read in metres per second, as OsmAnd sends it"),
            ] + unknown, link: osmandURL),
            AppSetup(app: .gpslogger, title: "GPSLogger (Android, Log to custom URL)", settings: [
                ("URL", gpsloggerURL),
                ("HTTP Method", "GET (or POST with the same fields as the body)"),
            ] + unknown, link: gpsloggerURL),
            AppSetup(app: .other, title: "Scripts (HTTP API)", settings: [
                ("Header", "Authorization: Bearer \(token ?? "TOKEN")"),
                ("Post locations", "\(base)/api/v1/locations"),
            ] + unknown),
        ]
        guard let app else { return all }
        return all.filter { $0.app == app }
    }

    /// OwnTracks in MQTT mode: the broker, the account, the topic, and the encryption key.
    static func mqtt(broker: MQTTBrokerAddress?, user: String, device: String, secret: String?) -> AppSetup {
        AppSetup(app: .owntracksMQTT, title: "OwnTracks, MQTT mode (Android, iOS)", settings: [
            ("Mode", "MQTT"),
            ("Host", broker?.host ?? brokerPlaceholder),
            ("Port", broker.map { String($0.port) } ?? brokerPlaceholder),
            ("TLS", broker.map { $0.useTLS ? "on" : "off" } ?? brokerPlaceholder),
            ("Authentication", "on"),
            ("Username", user),
            ("Password", "(\(user)'s password on the broker: its password file, not Travelog's)"),
            ("Device ID", device),
            ("Tracker ID", SetupLink.trackerID(device)),
            ("Topic", "owntracks/\(user)/\(device)"),
            ("Clean session", "off"),
            ("Remote commands", "on (regions drawn on the page arrive as waypoints)"),
            ("Encryption key", secret ?? "(none: messages are sent unencrypted; set one with travelog device secret or on the page)"),
        ], link: broker.map { SetupLink.owntracksMQTT(broker: $0, user: user, device: device, secret: secret) })
    }

    /// Shown in place of the broker's address when it is not known.
    public static let brokerPlaceholder = "(the broker's address: travelog serve --mqtt-public-url, or device add --broker)"
}
