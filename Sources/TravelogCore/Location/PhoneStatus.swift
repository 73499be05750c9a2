/// What an OwnTracks phone says of itself with each location (the booklet's `json.md`): its
/// tracker ID, how it was connected, the Wi-Fi network it was on, its monitoring mode and the
/// regions it was inside. None of it is the fix's: it is the device's status at the time, kept
/// with the device's latest report (as the OwnTracks Recorder's `last` keeps it).
public struct PhoneStatus: Hashable, Sendable, Codable {
    /// `tid`: the two letters the app shows friends on its map.
    public var trackerID: String?
    /// `conn`: how the phone reached the network.
    public var connection: Connection?
    /// `SSID`: the Wi-Fi network's name, when on one.
    public var wifiName: String?
    /// `BSSID`: the Wi-Fi access point's hardware address, when on one.
    public var wifiAccessPoint: String?
    /// `m`: how often the app reports.
    public var monitoringMode: MonitoringMode?
    /// `inregions`: the names of the app's regions the phone was inside (the app leaves the key
    /// out when it is in none: an empty list then).
    public var regions: [String]

    public enum Connection: String, Hashable, Sendable, Codable {
        case wifi, mobile, offline

        /// `w`, `m` or `o` as the apps write it; nil for anything else.
        public init?(ownTracksCode: String) {
            switch ownTracksCode {
            case "w": self = .wifi
            case "m": self = .mobile
            case "o": self = .offline
            default: return nil
            }
        }
    }

    /// The apps' modes (iOS and Android agree on the numbers).
    public enum MonitoringMode: String, Hashable, Sendable, Codable {
        /// -1: reports nothing by itself.
        case quiet
        /// 0: reports when the user asks.
        case manual
        /// 1: reports on significant changes of place (the default).
        case significant
        /// 2: reports every few seconds while moving.
        case move

        public init?(ownTracksNumber: Int) {
            switch ownTracksNumber {
            case -1: self = .quiet
            case 0: self = .manual
            case 1: self = .significant
            case 2: self = .move
            default: return nil
            }
        }
    }

    /// The longest text kept of any field, characters, and the most regions kept.
    public static let maximumTextLength = 64
    public static let maximumRegionCount = 32

    public init(trackerID: String? = nil, connection: Connection? = nil, wifiName: String? = nil, wifiAccessPoint: String? = nil,
                monitoringMode: MonitoringMode? = nil, regions: [String] = []) {
        self.trackerID = trackerID.map { String($0.prefix(Self.maximumTextLength)) }
        self.connection = connection
        self.wifiName = wifiName.map { String($0.prefix(Self.maximumTextLength)) }
        self.wifiAccessPoint = wifiAccessPoint.map { String($0.prefix(Self.maximumTextLength)) }
        self.monitoringMode = monitoringMode
        self.regions = regions.prefix(Self.maximumRegionCount).map { String($0.prefix(Self.maximumTextLength)) }
    }

    /// `Wi-Fi "Home" · significant changes · in Home, Work`: what a person reads of it (the
    /// tracker ID aside).
    public var summary: String {
        var parts: [String] = []
        switch connection {
        case .wifi?: parts.append(wifiName.map { "Wi-Fi \"\($0)\"" } ?? "Wi-Fi")
        case .mobile?: parts.append("mobile data")
        case .offline?: parts.append("offline")
        case nil: if let wifiName { parts.append("Wi-Fi \"\(wifiName)\"") }
        }
        switch monitoringMode {
        case .quiet?: parts.append("quiet mode")
        case .manual?: parts.append("manual mode")
        case .significant?: parts.append("significant changes")
        case .move?: parts.append("move mode")
        case nil: break
        }
        if !regions.isEmpty { parts.append("in " + regions.joined(separator: ", ")) }
        return parts.joined(separator: " · ")
    }
}
