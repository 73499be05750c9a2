import Foundation
import TravelogFormats
import TravelogStore

/// What to paste into each phone app so that it reports to this server: shown by
/// `travelog device add` and in the README.
public struct AppSetup: Sendable, Equatable {
    public var app: DeviceApp
    /// The app's name as people know it.
    public var title: String
    /// Settings, in the order the app shows them: (setting, value).
    public var settings: [(String, String)]

    public static func == (lhs: AppSetup, rhs: AppSetup) -> Bool {
        lhs.app == rhs.app && lhs.title == rhs.title
            && lhs.settings.map(\.0) == rhs.settings.map(\.0) && lhs.settings.map(\.1) == rhs.settings.map(\.1)
    }

    /// The GPSLogger custom-URL query the `/api/v1/gpslogger` endpoint reads.
    public static var gpsloggerQuery: String { GPSLoggerRequestDecoder.queryTemplate }

    /// The settings for every supported app (or only `app`), for a device and its token.
    /// - Parameter baseURL: how phones reach the server, such as `https://travelog.example.org`.
    public static func instructions(baseURL: String, user: String, device: String, token: String,
                                    app: DeviceApp? = nil) -> [AppSetup] {
        let base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        let all = [
            AppSetup(app: .owntracks, title: "OwnTracks (Android, iOS)", settings: [
                ("Mode", "HTTP"),
                ("URL / Host", "\(base)/api/v1/owntracks"),
                ("Authentication", "on"),
                ("User ID / Username", user),
                ("Password", token),
                ("Device ID", device),
            ]),
            AppSetup(app: .overland, title: "Overland (iOS)", settings: [
                ("Receiver Endpoint", "\(base)/api/v1/overland"),
                ("Access Token", token),
                ("(or, as one URL)", "\(base)/api/v1/overland?token=\(token)"),
            ]),
            AppSetup(app: .traccar, title: "Traccar Client (Android, iOS)", settings: [
                ("Server URL", "\(base)/api/v1/osmand"),
                ("Device identifier", token),
                ("(speed)", "read in knots, as Traccar Client sends it"),
            ]),
            AppSetup(app: .osmand, title: "OsmAnd (trip recording → online tracking)", settings: [
                ("Web address", "\(base)/api/v1/osmand?id=\(token)&speed_unit=mps&lat={0}&lon={1}&timestamp={2}&hdop={3}&altitude={4}&speed={5}&bearing={6}"),
                ("(speed)", "read in metres per second, as OsmAnd sends it"),
            ]),
            AppSetup(app: .gpslogger, title: "GPSLogger (Android, Log to custom URL)", settings: [
                ("URL", "\(base)/api/v1/gpslogger?token=\(token)&\(gpsloggerQuery)"),
                ("HTTP Method", "GET (or POST with the same fields as the body)"),
            ]),
            AppSetup(app: .other, title: "Scripts (HTTP API)", settings: [
                ("Header", "Authorization: Bearer \(token)"),
                ("Post locations", "\(base)/api/v1/locations"),
            ]),
        ]
        guard let app else { return all }
        return all.filter { $0.app == app }
    }
}
