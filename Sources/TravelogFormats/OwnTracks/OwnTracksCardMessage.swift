import Foundation

/// OwnTracks' `card`: the name and face (base64 of an image) a person shows their friends, and
/// their tracker id. MQTT phones publish it (retained) on `…/info`; on HTTP it comes in a post's body.
/// Source: the OwnTracks booklet, `docs/tech/json.md`.
public struct OwnTracksCardMessage: Sendable, Equatable {
    public var name: String?
    public var face: String?
    public var trackerID: String?

    public init(name: String?, face: String?, trackerID: String? = nil) {
        self.name = name
        self.face = face
        self.trackerID = trackerID
    }

    /// The cards of a body (one message or an array of them); every other type is left out.
    public static func cards(in data: Data) -> [OwnTracksCardMessage] {
        guard let json = try? JSONSerialization.jsonObject(with: data) else { return [] }
        let objects = (json as? [Any] ?? [json]).compactMap { $0 as? [String: Any] }
        return objects.filter { $0["_type"] as? String == "card" }.map { object in
            OwnTracksCardMessage(name: object["name"] as? String, face: object["face"] as? String, trackerID: object["tid"] as? String)
        }
    }

    /// The card as the apps read it, under the device's topic (`owntracks/USER/DEVICE`).
    public func jsonObject(topic: String?) -> [String: Any] {
        var object: [String: Any] = ["_type": "card"]
        if let name { object["name"] = name }
        if let face { object["face"] = face }
        if let trackerID { object["tid"] = trackerID }
        if let topic { object["topic"] = topic }
        return object
    }
}
