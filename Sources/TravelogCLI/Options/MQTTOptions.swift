import ArgumentParser
import Foundation
import TravelogAccounts
import TravelogServer

/// `travelog serve`'s MQTT options: the broker OwnTracks phones publish to.
struct MQTTOptions: ParsableArguments {
    @Option(name: .customLong("mqtt"), help: ArgumentHelp(
        "Subscribe to OwnTracks phones through this broker: mqtt[s]://USER[:PASSWORD]@HOST[:PORT] "
            + "(the password better in --mqtt-password-file or TRAVELOG_MQTT_PASSWORD).", valueName: "url"))
    var url: String?

    @Option(name: .customLong("mqtt-password-file"), help: ArgumentHelp(
        "A file holding the broker password (or set TRAVELOG_MQTT_PASSWORD).", valueName: "file"))
    var passwordFile: String?

    @Option(name: .customLong("mqtt-ca"), help: ArgumentHelp(
        "The CA certificate (PEM) an mqtts:// broker's certificate must chain to (default: the system's).", valueName: "file"))
    var caFile: String?

    @Option(name: .customLong("mqtt-cert"), help: ArgumentHelp("A client certificate (PEM) for the broker.", valueName: "file"))
    var certificateFile: String?

    @Option(name: .customLong("mqtt-key"), help: ArgumentHelp("The client certificate's key (PEM).", valueName: "file"))
    var keyFile: String?

    @Option(name: .customLong("mqtt-topic"), help: ArgumentHelp(
        "A topic filter to subscribe to, USER and DEVICE its second and third levels; repeat for several "
            + "(default: owntracks/+/+ and owntracks/+/+/+).", valueName: "filter"))
    var topics: [String] = []

    @Option(name: .customLong("mqtt-user-map"), help: ArgumentHelp(
        "A file of TOPIC-USER TRAVELOG-USER lines, for broker accounts named otherwise than Travelog's users.", valueName: "file"))
    var userMapFile: String?

    @Option(name: .customLong("mqtt-client-id"), help: ArgumentHelp(
        "The client id: fixed, so the broker keeps Travelog's session and queue while it is away.", valueName: "id"))
    var clientID = MQTTSettings.defaultClientID

    @Option(name: .customLong("mqtt-connections"), help: ArgumentHelp(
        "Connections to the broker, each with its own session (the client id, then ID-2, ID-3 …), sharing the messages "
            + "through a shared subscription ($share/travelog/…) when more than one; each stores what it reads at once. One takes about 38,000 messages/s on 2 cores. "
            + "Mosquitto 2.0 forgets shared subscriptions when it restarts: what is published before Travelog subscribes again is lost; "
            + "lowering it leaves the dropped sessions' messages queued for them (docs/ARCHITECTURE.md).", valueName: "n"))
    var connections = MQTTSettings.defaultConnections

    @Option(name: .customLong("mqtt-public-url"), help: ArgumentHelp(
        "Where phones reach the broker, mqtts://HOST:PORT, for the MQTT-mode setup the page shows (default: --mqtt's host and port).",
        valueName: "url"))
    var publicURL: String?

    @Option(name: .customLong("mqtt-protocol"), help: ArgumentHelp("MQTT 3.1.1 or 5.", valueName: "version"))
    var protocolVersion = MQTTSettings.ProtocolVersion.v311.rawValue

    @Flag(name: .customLong("mqtt-relay-friends"), help: ArgumentHelp(
        "Publish, retained, the position and card of each device that reports over HTTP of every user with an accepted friend, "
            + "under the device's topic (owntracks/USER/DEVICE), so friends' OwnTracks apps in MQTT mode show them; "
            + "privacy zones apply. Give friends only the right to read them: travelog mqtt acl."))
    var relayFriends = false

    @Flag(name: .customLong("mqtt-home-assistant"), help: ArgumentHelp(
        "Publish, retained, every device's latest position as a Home Assistant device tracker (MQTT discovery under "
            + "--mqtt-home-assistant-prefix, the position on travelog/travelog_USERID_DEVICEID/attributes)."))
    var homeAssistant = false

    @Option(name: .customLong("mqtt-home-assistant-prefix"), help: ArgumentHelp(
        "Home Assistant's MQTT discovery prefix.", valueName: "prefix"))
    var homeAssistantPrefix = "homeassistant"

    func validate() throws {
        guard url != nil else {
            guard passwordFile == nil, caFile == nil, certificateFile == nil, keyFile == nil, topics.isEmpty, userMapFile == nil,
                  publicURL == nil, connections == MQTTSettings.defaultConnections, !relayFriends, !homeAssistant else {
                throw ValidationError("the --mqtt-* options need --mqtt URL")
            }
            return
        }
        guard MQTTSettings.ProtocolVersion(rawValue: protocolVersion) != nil else {
            throw ValidationError("--mqtt-protocol \(protocolVersion): expected 3.1.1 or 5")
        }
        for file in [caFile, certificateFile, keyFile].compactMap({ $0 }) where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("\(file): cannot be read")
        }
        do {
            _ = try settings(readingPassword: false)
        } catch let error as MQTTSettingsError {
            throw ValidationError(error.description)
        }
    }

    /// The settings, the password read from its file or the environment when the URL has none;
    /// `nil` without `--mqtt`.
    func settings(environment: [String: String] = ProcessInfo.processInfo.environment,
                  readingPassword: Bool = true) throws -> MQTTSettings? {
        guard let url else { return nil }
        var settings = try MQTTSettings(url: url, caFile: caFile, certificateFile: certificateFile, keyFile: keyFile,
                                        clientID: clientID, topics: topics.isEmpty ? MQTTSettings.defaultTopics : topics,
                                        protocolVersion: MQTTSettings.ProtocolVersion(rawValue: protocolVersion) ?? .v311)
        guard (1...MQTTSettings.maximumConnections).contains(connections) else {
            throw ValidationError(MQTTSettingsError.invalidConnections(connections).description)
        }
        settings.connections = connections
        settings.relayFriends = relayFriends
        if homeAssistant {
            guard !homeAssistantPrefix.isEmpty, !homeAssistantPrefix.contains(where: { "+#".contains($0) || $0.isWhitespace }),
                  !homeAssistantPrefix.hasPrefix("/"), !homeAssistantPrefix.hasSuffix("/") else {
                throw ValidationError("--mqtt-home-assistant-prefix '\(homeAssistantPrefix)': a topic without '+', '#', spaces or a leading or trailing '/'")
            }
            settings.homeAssistantDiscoveryPrefix = homeAssistantPrefix
        }
        if let publicURL {
            do {
                settings.publicURL = try MQTTBrokerAddress(url: publicURL)
            } catch {
                throw ValidationError("--mqtt-public-url: \(error)")
            }
        }
        if let userMapFile { settings.userMap = try Self.userMap(file: userMapFile) }
        guard readingPassword else { return settings }
        if let passwordFile {
            do {
                settings.password = try String(contentsOfFile: passwordFile, encoding: .utf8).trimmingCharacters(in: .newlines)
            } catch {
                throw ValidationError("--mqtt-password-file \(passwordFile): cannot be read (\(error.localizedDescription))")
            }
        } else if settings.password == nil, let password = environment["TRAVELOG_MQTT_PASSWORD"] {
            settings.password = password
        }
        return settings
    }

    /// The `--mqtt-user-map` file's names (TOPIC-USER TRAVELOG-USER lines), for `serve` and `mqtt acl`.
    static func userMap(file: String) throws -> [String: String] {
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ValidationError("--mqtt-user-map \(file): cannot be read (\(error.localizedDescription))")
        }
        return try MQTTSettings.userMap(parsing: text)
    }
}
