import Foundation
import Hummingbird
import TravelogCore
import TravelogImport
import TravelogStore

/// The answer to an OwnTracks post: a `card` (the one the device sent, else its name) and the latest `location` of each of the user's other
/// devices and of each device of the user's friends (after their privacy zones), which the app shows as friends. Every number is written as the app expects (integers
/// for accuracy, altitude, km/h and course), and a value no integer can hold is left out rather
/// than converted (a store written before values were checked may hold an accuracy of 1e20 m).
struct OwnTracksFriends {
    let store: any LocationStore & AccountStore

    /// - Parameter commands: messages for the app after the friends (a `cmd`).
    func answer(userID: UserID, excluding target: DeviceTarget, appending commands: [[String: Any]] = []) async throws -> Response {
        var messages: [[String: Any]] = []
        let user = try await store.user(id: userID)
        for other in try await store.devices(userID: userID) where other.name != target.name {
            let latest = try await store.locations(LocationQuery(userID: userID, deviceIDs: [other.id], limit: 1, newestFirst: true))
            guard let fix = latest.first?.location else { continue }
            // The card the device sent itself (its name and face), else its name.
            let card = try await (store as? any OwnTracksCardStore)?.ownTracksCard(deviceID: other.id)
            messages += Self.messages(fix, topic: "owntracks/\(user?.name ?? "")/\(other.name)", device: other.name,
                                      cardName: card?.name ?? other.name, face: card?.face)
        }
        // The user's friends' devices, after the friends' privacy zones (`FriendPositions`); their
        // card's name, else the friend's user name.
        if let full = store as? any TravelogStore {
            for friend in try await FriendPositions(store: full).friends(of: userID) {
                for position in friend.devices {
                    messages += Self.messages(position.fix, topic: "owntracks/\(friend.user.name)/\(position.device.name)",
                                              device: position.device.name, cardName: position.card?.name ?? friend.user.name,
                                              face: position.card?.face)
                }
            }
        }
        let data = try JSONSerialization.data(withJSONObject: messages + commands, options: [.withoutEscapingSlashes])
        return Response.json(data: data)
    }

    /// A device's `card` and latest `location`, under the device's topic.
    static func messages(_ fix: Location, topic: String, device: String, cardName: String, face: String?) -> [[String: Any]] {
        let tid = String(device.filter { $0.isLetter || $0.isNumber }.prefix(2)).uppercased()
        var message: [String: Any] = ["_type": "location", "lat": fix.coordinate.latitude, "lon": fix.coordinate.longitude,
                                      "tid": tid, "topic": topic]
        message["tst"] = integer(fix.timestamp.timeIntervalSince1970.rounded(.down))
        if let accuracy = fix.horizontalAccuracyIfValid { message["acc"] = integer(accuracy) }
        if let altitude = fix.altitudeMeters { message["alt"] = integer(altitude) }
        if let speed = fix.speedIfKnown { message["vel"] = integer(Units.kilometersPerHour(metersPerSecond: speed)) }
        if let course = fix.courseIfKnown { message["cog"] = integer(course) }
        var card: [String: Any] = ["_type": "card", "name": cardName, "tid": tid, "topic": topic]
        if let face { card["face"] = face }
        return [card, message]
    }

    /// A value rounded to an integer, or `nil` when it is not finite or too large for one.
    static func integer(_ value: Double) -> Int? {
        let rounded = value.rounded()
        guard rounded.isFinite, abs(rounded) < 9e15 else { return nil }
        return Int(rounded)
    }
}
