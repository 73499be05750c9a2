import Foundation

/// What an OwnTracks phone says of itself with each location (the booklet's `json.md`): its
/// tracker ID, how it was connected, the Wi-Fi network it was on, its monitoring mode, the
/// regions it was inside (names and ids), the air pressure, what made it report, when it made the
/// message and the message's id. None of it is the fix's: it is the device's status at the time,
/// kept with the device's latest report (as the OwnTracks Recorder's `last` keeps it).
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
    /// `inrids`: the ids the app gave those regions (the same order as it sent them).
    public var regionIDs: [String]
    /// `p`: the air pressure the phone's barometer read, kPa (30-110; other values are left out).
    public var pressureKilopascals: Double?
    /// `t`: what made the app report.
    public var trigger: Trigger?
    /// `created_at`: when the app made the message (a queued one is sent later).
    public var createdAt: Date?
    /// `_id`: the message's own identifier, as the app wrote it.
    public var messageID: String?

    /// What made an OwnTracks app report (`t`).
    public enum Trigger: String, Hashable, Sendable, Codable {
        /// `p`: the app's own background ping.
        case ping
        /// `c`: entering or leaving a circular region.
        case region
        /// `b`: a beacon region.
        case beacon
        /// `r`: asked for by a `reportLocation` command.
        case requested
        /// `u`: the person asked for it.
        case manual
        /// `t`: the timer of move mode.
        case timer
        /// `v`: iOS's frequent locations monitoring.
        case frequentLocations

        /// The letter as the apps write it; nil for anything else.
        public init?(ownTracksCode: String) {
            switch ownTracksCode {
            case "p": self = .ping
            case "c": self = .region
            case "b": self = .beacon
            case "r": self = .requested
            case "u": self = .manual
            case "t": self = .timer
            case "v": self = .frequentLocations
            default: return nil
            }
        }
    }

    /// The range a barometer on the Earth's surface reads, kPa (the top of Everest is about 33).
    public static let pressureRange = 30.0...110.0

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
                monitoringMode: MonitoringMode? = nil, regions: [String] = [], regionIDs: [String] = [],
                pressureKilopascals: Double? = nil, trigger: Trigger? = nil, createdAt: Date? = nil, messageID: String? = nil) {
        self.trackerID = trackerID.map { String($0.prefix(Self.maximumTextLength)) }
        self.connection = connection
        self.wifiName = wifiName.map { String($0.prefix(Self.maximumTextLength)) }
        self.wifiAccessPoint = wifiAccessPoint.map { String($0.prefix(Self.maximumTextLength)) }
        self.monitoringMode = monitoringMode
        self.regions = regions.prefix(Self.maximumRegionCount).map { String($0.prefix(Self.maximumTextLength)) }
        self.regionIDs = regionIDs.prefix(Self.maximumRegionCount).map { String($0.prefix(Self.maximumTextLength)) }
        self.pressureKilopascals = pressureKilopascals.flatMap { Self.pressureRange.contains($0) ? $0 : nil }
        self.trigger = trigger
        self.createdAt = createdAt
        self.messageID = messageID.map { String($0.prefix(Self.maximumTextLength)) }
    }

    enum CodingKeys: String, CodingKey {
        case trackerID, connection, wifiName, wifiAccessPoint, monitoringMode, regions, regionIDs, pressureKilopascals, trigger
        case createdAt, messageID
    }

    /// A status as stored; what an older version did not keep is absent, and each value goes through `init`'s limits.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(trackerID: try container.decodeIfPresent(String.self, forKey: .trackerID),
                  connection: try? container.decodeIfPresent(Connection.self, forKey: .connection),
                  wifiName: try container.decodeIfPresent(String.self, forKey: .wifiName),
                  wifiAccessPoint: try container.decodeIfPresent(String.self, forKey: .wifiAccessPoint),
                  monitoringMode: try? container.decodeIfPresent(MonitoringMode.self, forKey: .monitoringMode),
                  regions: try container.decodeIfPresent([String].self, forKey: .regions) ?? [],
                  regionIDs: try container.decodeIfPresent([String].self, forKey: .regionIDs) ?? [],
                  pressureKilopascals: try container.decodeIfPresent(Double.self, forKey: .pressureKilopascals),
                  trigger: try? container.decodeIfPresent(Trigger.self, forKey: .trigger),
                  createdAt: try container.decodeIfPresent(Date.self, forKey: .createdAt),
                  messageID: try container.decodeIfPresent(String.self, forKey: .messageID))
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
        if let pressureKilopascals { parts.append("\(Int((pressureKilopascals * 10).rounded())) hPa") }
        return parts.joined(separator: " · ")
    }
}
