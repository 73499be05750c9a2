import Foundation
import TravelogAccounts

/// Where `travelog serve --mqtt` subscribes: the broker, the account Travelog logs in with, and the
/// topics (OwnTracks' `owntracks/USER/DEVICE` and its subtopics).
public struct MQTTSettings: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var useTLS: Bool
    public var username: String?
    public var password: String?
    /// The CA certificate(s) the broker's certificate must chain to (PEM); `nil`: the system's.
    public var caFile: String?
    /// A client certificate and its key (PEM), for brokers that ask for one.
    public var certificateFile: String?
    public var keyFile: String?
    /// Fixed, so the broker keeps the session (the subscription and what is queued for it) while
    /// Travelog is away.
    public var clientID: String
    /// The topic filters subscribed to, at QoS 1.
    public var topics: [String]
    /// MQTT 3.1.1 (4) or 5.
    public var protocolVersion: ProtocolVersion
    /// Travelog user names by the name a topic carries, for brokers whose accounts are named
    /// otherwise (`--mqtt-user-map`); a name not in it is the Travelog user's own.
    public var userMap: [String: String] = [:]
    /// Where phones reach the broker, for their setup (`--mqtt-public-url`); `nil`: where Travelog does.
    public var publicURL: MQTTBrokerAddress?
    /// Where phones reach the broker: `publicURL`, else the broker's host, port and TLS as Travelog reaches it.
    public var phoneBroker: MQTTBrokerAddress { publicURL ?? MQTTBrokerAddress(host: host, port: port, useTLS: useTLS) }
    /// Publish friends' HTTP devices to the broker, retained (`--mqtt-relay-friends`, ``FriendRelay``).
    public var relayFriends = false
    /// Home Assistant's discovery prefix when every device is published as its device tracker
    /// (`--mqtt-home-assistant`, ``HomeAssistantTrackers``); `nil`: not published.
    public var homeAssistantDiscoveryPrefix: String?
    /// Seconds between pings while nothing else is sent.
    public var keepAliveSeconds = 30
    /// The first and the longest wait before connecting again, seconds (doubling in between).
    public var reconnectDelaySeconds: ClosedRange<Int> = 1...60
    /// Connections to the broker (`--mqtt-connections`), each with a persistent session of its own
    /// (`clientID`, then `clientID-2` …), sharing the messages through a shared subscription
    /// (`$share/travelog/…`) when more than one: each stores what it read (its PUBACKs wait for the
    /// store) while the others read, in shared transactions. One by default:
    /// Mosquitto 2.0 does not keep shared subscriptions over its own restart, so what phones publish
    /// before Travelog subscribes again is lost (docs/ARCHITECTURE.md).
    public var connections = MQTTSettings.defaultConnections
    /// The most `--mqtt-connections` accepts.
    public static let maximumConnections = 256
    public static let defaultConnections = 1
    /// The shared subscription's group name.
    public static let sharedGroup = "travelog"

    /// The client id of connection `index` (0-based): the first keeps `clientID`, so a server that
    /// had one connection resumes its session.
    public func clientID(connection index: Int) -> String {
        index == 0 ? clientID : "\(clientID)-\(index + 1)"
    }

    /// The filters subscribed to: `topics`, shared (`$share/travelog/…`) when there are several connections.
    public var subscriptions: [String] {
        connections > 1 ? sharedSubscriptions : topics
    }

    /// `topics` as a shared subscription's filters.
    public var sharedSubscriptions: [String] {
        topics.map { "$share/\(Self.sharedGroup)/\($0)" }
    }

    public enum ProtocolVersion: String, Sendable, CaseIterable {
        case v311 = "3.1.1"
        case v5 = "5"
    }

    /// OwnTracks' topics: `owntracks/USER/DEVICE` (locations, lwt) and its subtopics (`/event`,
    /// `/waypoint(s)`, `/info`, `/status`).
    public static let defaultTopics = ["owntracks/+/+", "owntracks/+/+/+"]
    public static let defaultClientID = "travelog"

    /// Reads `mqtt[s]://[USER[:PASSWORD]@]HOST[:PORT]` (the password percent-encoded when it has
    /// `@`, `:` or `/` in it).
    /// - Throws: `MQTTSettingsError` naming what is wrong.
    public init(url text: String, caFile: String? = nil, certificateFile: String? = nil, keyFile: String? = nil,
                clientID: String = MQTTSettings.defaultClientID, topics: [String] = MQTTSettings.defaultTopics,
                protocolVersion: ProtocolVersion = .v311) throws(MQTTSettingsError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "mqtt" || scheme == "mqtts" else {
            throw .invalidURL(text, reason: "expected mqtt://USER:PASSWORD@HOST:PORT or mqtts://…")
        }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL(text, reason: "no host") }
        guard components.path.isEmpty || components.path == "/", components.query == nil else {
            throw .invalidURL(text, reason: "no path or query is read; give the topics with --mqtt-topic")
        }
        useTLS = scheme == "mqtts"
        self.host = host
        port = components.port ?? (useTLS ? 8883 : 1883)
        guard (1...65535).contains(port) else { throw .invalidURL(text, reason: "port \(port) is not 1…65535") }
        username = components.user.flatMap { $0.isEmpty ? nil : $0 }
        password = components.password
        guard certificateFile == nil || (keyFile != nil && useTLS) else { throw .clientCertificateWithoutKeyOrTLS }
        guard !clientID.isEmpty, clientID.utf8.count <= 65000 else { throw .invalidClientID(clientID) }
        guard !topics.isEmpty else { throw .noTopic }
        for topic in topics {
            let levels = topic.split(separator: "/", omittingEmptySubsequences: false)
            guard !topic.isEmpty, !topic.hasPrefix("$"),
                  levels.allSatisfy({ $0 == "+" || $0 == "#" || (!$0.contains("+") && !$0.contains("#")) }),
                  !levels.dropLast().contains("#") else {
                throw .invalidTopic(topic)
            }
        }
        self.caFile = caFile
        self.certificateFile = certificateFile
        self.keyFile = keyFile
        self.clientID = clientID
        self.topics = topics
        self.protocolVersion = protocolVersion
    }

    /// The first level of the phones' `…/cmd` topics: the first topic filter's, `owntracks` when that is a wildcard.
    public var commandTopicPrefix: String {
        let first = topics.first?.split(separator: "/", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        return first.isEmpty || first == "+" || first == "#" ? "owntracks" : first
    }

    /// The broker as logs show it, without the password.
    public var brokerDescription: String {
        "\(useTLS ? "mqtts" : "mqtt")://\(username.map { "\($0)@" } ?? "")\(host):\(port)"
    }
}

extension MQTTSettings {
    /// Reads a user map: one `TOPIC-USER TRAVELOG-USER` pair a line (white space between), `#`
    /// comments and blank lines ignored.
    /// - Throws: `MQTTSettingsError.invalidUserMap` naming the line.
    public static func userMap(parsing text: String) throws(MQTTSettingsError) -> [String: String] {
        var map: [String: String] = [:]
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let words = content.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            if words.isEmpty { continue }
            guard words.count == 2, !words[0].contains("/"), !words[0].contains("+") else {
                throw .invalidUserMap(line: index + 1, reason: "expected TOPIC-USER TRAVELOG-USER")
            }
            guard map.updateValue(String(words[1]), forKey: String(words[0])) == nil else {
                throw .invalidUserMap(line: index + 1, reason: "'\(words[0])' is mapped twice")
            }
        }
        return map
    }
}

/// Why `--mqtt` and its options cannot be used.
public enum MQTTSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalidURL(String, reason: String)
    case invalidTopic(String)
    case invalidClientID(String)
    case noTopic
    case clientCertificateWithoutKeyOrTLS
    case invalidUserMap(line: Int, reason: String)
    case invalidConnections(Int)

    public var description: String {
        switch self {
        case .invalidURL(_, let reason): "--mqtt: \(reason)"
        case .invalidTopic(let topic): "--mqtt-topic '\(topic)': not an MQTT topic filter (+ and # stand alone, # last)"
        case .invalidClientID(let id): "--mqtt-client-id '\(id)': expected 1 to 65000 bytes"
        case .noTopic: "--mqtt-topic: at least one topic filter"
        case .clientCertificateWithoutKeyOrTLS: "--mqtt-cert needs --mqtt-key and an mqtts:// broker"
        case .invalidUserMap(let line, let reason): "--mqtt-user-map, line \(line): \(reason)"
        case .invalidConnections(let count): "--mqtt-connections \(count): expected 1 to \(MQTTSettings.maximumConnections)"
        }
    }
}
