import Foundation

/// The links that configure a phone app in one tap or scan, from its documentation:
/// - OwnTracks: `owntracks:///config?inline=` + base64 of a `{"_type":"configuration", …}` object
///   (the app's remote configuration: <https://owntracks.org/booklet/features/remoteconfig>);
///   `mode` 3 is HTTP, `auth` sends `username`/`password` as HTTP Basic; `mode` 0 is MQTT.
/// - Overland: `overland://setup?url=…&token=…&device_id=…&unique_id=yes`.
enum SetupLink {
    /// OwnTracks' remote configuration for HTTP mode; without a token the password is left out
    /// (the app keeps the one it has, or asks).
    static func owntracks(url: String, user: String, device: String, token: String?) -> String {
        var configuration: [String: Any] = [
            "_type": "configuration", "mode": 3, "url": url, "auth": true,
            "username": user, "deviceId": device, "tid": trackerID(device),
        ]
        if let token { configuration["password"] = token }
        let json = (try? JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return "owntracks:///config?inline=" + percentEncoded(json.base64EncodedString())
    }

    /// OwnTracks' remote configuration for MQTT mode (`mode` 0): the broker, the account (the
    /// user's; its password is the broker's, which Travelog does not know: the app asks for it),
    /// the topic `owntracks/USER/DEVICE`, a persistent session, remote commands on (so regions
    /// drawn on the page arrive as waypoints) and the encryption key when the device has one.
    static func owntracksMQTT(broker: MQTTBrokerAddress, user: String, device: String, secret: String?) -> String {
        var configuration: [String: Any] = [
            "_type": "configuration", "mode": 0, "host": broker.host, "port": broker.port, "tls": broker.useTLS,
            "auth": true, "username": user, "deviceId": device, "tid": trackerID(device),
            "pubTopicBase": "owntracks/%u/%d", "cleanSession": false, "cmd": true,
        ]
        if let secret { configuration["encryptionKey"] = secret }
        let json = (try? JSONSerialization.data(withJSONObject: configuration, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return "owntracks:///config?inline=" + percentEncoded(json.base64EncodedString())
    }

    /// Overland's setup link; without a token the person types it in the app.
    static func overland(url: String, device: String, token: String?) -> String {
        var query = "url=\(percentEncoded(url))"
        if let token { query += "&token=\(percentEncoded(token))" }
        query += "&device_id=\(percentEncoded(device))&unique_id=yes"
        return "overland://setup?" + query
    }

    /// OwnTracks' two-character tracker id (shown on the map): the first two letters or digits
    /// of the device's name, upper-cased (`phone` → `PH`), `TR` when it has none.
    static func trackerID(_ device: String) -> String {
        let letters = device.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }
        let id = String(String.UnicodeScalarView(letters.prefix(2))).uppercased()
        return id.count == 2 ? id : (id + "TR").prefix(2).description
    }

    /// `text` with everything but RFC 3986's unreserved characters percent-encoded (a query value).
    static func percentEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: unreserved) ?? text
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
}
