import Foundation
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogStore

/// A device as `GET /api/v1/devices` lists it: its counts (what the page's device filter reads),
/// its status and its settings.
struct DeviceJSON: Encodable {
    var id: Int64
    var name: String
    var app: String?
    var locations: Int
    var first: String?
    var last: String?
    /// When it was removed with its history kept (it takes no token any more).
    var retiredAt: String?
    /// The latest report: when the server heard from the device, its newest fix and battery.
    var lastReport: ReportJSON?
    /// After how long without a report the user is told (seconds), and whether that time has
    /// passed now.
    var silentAfterSeconds: Int?
    var silent: Bool
    /// Whether an OwnTracks encryption secret is set (only for OwnTracks devices; the secret itself
    /// is in the device's setup).
    var ownTracksSecretSet: Bool?

    struct ReportJSON: Encodable {
        var receivedAt: String
        var fixAt: String?
        var latitude: Double?
        var longitude: Double?
        var accuracyMeters: Double?
        var batteryPercent: Double?
        var charging: Bool?
        var userAgent: String?
        /// What an OwnTracks phone said of itself with its newest fix.
        var phone: PhoneJSON?
    }

    struct PhoneJSON: Encodable {
        var trackerID: String?
        var connection: String?
        var wifi: String?
        var accessPoint: String?
        var monitoringMode: String?
        var regions: [String]
        var regionIDs: [String]
        var pressureKilopascals: Double?
        var trigger: String?
        var createdAt: String?
        var messageID: String?
        /// The same in words, as the page and `travelog device list` show it.
        var summary: String

        init(_ status: PhoneStatus) {
            trackerID = status.trackerID
            connection = status.connection?.rawValue
            wifi = status.wifiName
            accessPoint = status.wifiAccessPoint
            monitoringMode = status.monitoringMode?.rawValue
            regions = status.regions
            regionIDs = status.regionIDs
            pressureKilopascals = status.pressureKilopascals
            trigger = status.trigger?.rawValue
            createdAt = status.createdAt.map(ISO8601TimeFormatter.string)
            messageID = status.messageID
            summary = status.summary
        }
    }

    init(_ overview: DeviceManager.Overview, now: Date) {
        id = overview.device.id.rawValue
        name = overview.device.name
        app = overview.device.app?.rawValue
        locations = overview.summary?.locationCount ?? 0
        first = overview.summary?.firstTimestamp.map(ISO8601TimeFormatter.string)
        last = overview.summary?.lastTimestamp.map(ISO8601TimeFormatter.string)
        let state = overview.state
        retiredAt = state.retiredAt.map(ISO8601TimeFormatter.string)
        lastReport = state.lastReport.map { report in
            ReportJSON(receivedAt: ISO8601TimeFormatter.string(report.receivedAt),
                       fixAt: report.latestFix.map { ISO8601TimeFormatter.string($0.timestamp) },
                       latitude: report.latestFix?.coordinate.latitude, longitude: report.latestFix?.coordinate.longitude,
                       accuracyMeters: report.latestFix?.horizontalAccuracyIfValid,
                       batteryPercent: report.batteryPercent, charging: report.isCharging, userAgent: report.userAgent,
                       phone: report.phoneStatus.map(PhoneJSON.init))
        }
        silentAfterSeconds = state.silentAfterSeconds
        silent = SilenceWatch.isSilent(state, now: now)
    }
}

/// A device's setup for each app (or the one it runs): the settings, the link to open on the
/// phone, and that link as a QR code (SVG). Carries the token only in the answer that made it.
struct SetupJSON: Encodable {
    var app: String
    var title: String
    var settings: [[String]]
    var link: String?
    var qrSVG: String?

    static func all(baseURL: String, user: String, device: Device, token: String?, app: DeviceApp?,
                    broker: MQTTBrokerAddress? = nil, ownTracksSecret: String? = nil) -> [SetupJSON] {
        AppSetup.instructions(baseURL: baseURL, user: user, device: device.name, token: token, app: app,
                              broker: broker, ownTracksSecret: ownTracksSecret).map { setup in
            SetupJSON(app: setup.app.rawValue, title: setup.title, settings: setup.settings.map { [$0.0, $0.1] }, link: setup.link,
                      qrSVG: setup.link.flatMap { try? QRCode($0).svg(title: "QR code: \(setup.title)") })
        }
    }
}
