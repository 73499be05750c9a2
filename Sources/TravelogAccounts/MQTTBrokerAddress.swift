import Foundation

/// Where OwnTracks phones in MQTT mode reach the broker (which may differ from where the server
/// reaches it): `travelog serve --mqtt-public-url`, or `travelog device add --broker`.
public struct MQTTBrokerAddress: Sendable, Equatable {
    public var host: String
    public var port: Int
    public var useTLS: Bool

    public init(host: String, port: Int, useTLS: Bool) {
        self.host = host
        self.port = port
        self.useTLS = useTLS
    }

    /// Reads `mqtt[s]://HOST[:PORT]` (ports 1883 and 8883 by default); a user or password in it is
    /// refused: phones log in with their own.
    /// - Throws: `MQTTBrokerAddressError` naming what is wrong.
    public init(url text: String) throws(MQTTBrokerAddressError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
              scheme == "mqtt" || scheme == "mqtts" else { throw .invalid(text, reason: "expected mqtts://HOST:PORT or mqtt://HOST:PORT") }
        guard let host = components.host, !host.isEmpty else { throw .invalid(text, reason: "no host") }
        guard components.user == nil, components.password == nil else {
            throw .invalid(text, reason: "no user or password: each phone logs in to the broker with its own")
        }
        guard components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil else {
            throw .invalid(text, reason: "no path or query")
        }
        useTLS = scheme == "mqtts"
        port = components.port ?? (useTLS ? 8883 : 1883)
        guard (1...65535).contains(port) else { throw .invalid(text, reason: "port \(port) is not 1…65535") }
        self.host = host
    }

    /// The broker phones are told of when only the server's address is known: the same host, TLS on 8883.
    public static func guessed(fromServerURL url: String) -> MQTTBrokerAddress? {
        URLComponents(string: url)?.host.flatMap { $0.isEmpty ? nil : MQTTBrokerAddress(host: $0, port: 8883, useTLS: true) }
    }

    public var url: String { "\(useTLS ? "mqtts" : "mqtt")://\(host):\(port)" }
}

/// Why a broker address cannot be used.
public enum MQTTBrokerAddressError: Error, Sendable, Equatable, CustomStringConvertible {
    case invalid(String, reason: String)

    public var description: String {
        switch self {
        case .invalid(let text, let reason): "broker address '\(text)': \(reason)"
        }
    }
}
