import Foundation
import TravelogAccounts
import TravelogCore
import TravelogStore

/// What a user sees of their friends: for each accepted friend, the latest fix of each device as
/// the friend's privacy zones allow, and the device's OwnTracks card (name and face). Read from the
/// store for each request (friendships, zones, fixes): a friendship ended or a zone added applies to
/// the next one, in every server process. The page, `GET /api/v1/friends/positions` and the
/// OwnTracks answer all read through it.
struct FriendPositions {
    let store: any TravelogStore

    struct DevicePosition {
        var device: Device
        var card: OwnTracksCard?
        var fix: Location
    }

    struct Friend {
        var user: User
        var sharesTheirHistory: Bool
        var devices: [DevicePosition]

        /// The face of the first device whose card has one.
        var face: String? { devices.lazy.compactMap { $0.card?.face }.first }
    }

    /// The user's friends, each with the devices that have a fix to show. A device whose latest
    /// fix lies inside one of the friend's privacy zones (hide or drop) shows nothing: an older fix
    /// outside is not shown instead, so the friend's way into the zone is not given away either.
    func friends(of userID: UserID) async throws -> [Friend] {
        let accepted: [(user: User, sharesTheirHistory: Bool)]
        do throws(FriendError) { accepted = try await Friends(store: store).accepted(userID: userID) } catch { throw error.apiError }
        var result: [Friend] = []
        for (user, sharesHistory) in accepted {
            let hiding = try await PrivacyZones(store: store).visibility(userID: user.id)
            var devices: [DevicePosition] = []
            for device in try await store.devices(userID: user.id) {
                let latest = try await store.locations(LocationQuery(userID: user.id, deviceIDs: [device.id], limit: 1, newestFirst: true))
                guard let fix = latest.first?.location, !hiding.contains(fix.coordinate) else { continue }
                let card = try await (store as? any OwnTracksCardStore)?.ownTracksCard(deviceID: device.id)
                devices.append(DevicePosition(device: device, card: card, fix: fix))
            }
            result.append(Friend(user: user, sharesTheirHistory: sharesHistory, devices: devices))
        }
        return result
    }

    /// The bytes of standard base64 text.
    private static let base64Bytes = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)

    /// A card's face as a `data:` URL for an `img` element, when it is base64 of a PNG or a JPEG
    /// (anything else is left out rather than handed to a browser).
    static func pictureURL(face: String) -> String? {
        let mime: String
        if face.hasPrefix("iVBORw0KGgo") { mime = "image/png" } else if face.hasPrefix("/9j/") { mime = "image/jpeg" } else { return nil }
        guard face.utf8.allSatisfy(Self.base64Bytes.contains) else { return nil }
        return "data:\(mime);base64,\(face)"
    }
}
