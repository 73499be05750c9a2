import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogStore

/// `/api/v1/friends`: a person's friends. Only the person (the page's session or the password)
/// invites, answers, ends and grants; a device token (a phone's `write` token) may read
/// `/api/v1/friends/positions`, and a `read` token reaches none of them (`TokenScopeMiddleware`).
/// Everything is read from the store for each request: an ended friendship applies to the next one.
struct FriendRoutes {
    let friends: Friends
    let read: ReadRoutes

    struct InviteBody: Decodable {
        var name: String
    }

    struct HistoryBody: Decodable {
        var shared: Bool
    }

    struct PositionJSON: Encodable {
        var device: String
        var latitude: Double
        var longitude: Double
        var time: String
        /// Metres, when the fix has a valid accuracy.
        var accuracy: Double?
    }

    struct FriendPositionsJSON: Encodable {
        var name: String
        /// The OwnTracks card's face of one of the friend's devices, as a `data:` URL (PNG or JPEG).
        var picture: String?
        var sharesHistory: Bool
        var devices: [PositionJSON]
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/friends") { _, context in
            let identity = try context.requirePerson()
            let entries: [FriendEntry]
            do throws(FriendError) { entries = try await friends.list(userID: identity.user.id) } catch { throw error.apiError }
            return try Response.json(entries.map(FriendJSON.init))
        }
        router.post("/api/v1/friends") { request, context in
            let identity = try context.requirePerson()
            let body = try await request.decodeJSON(InviteBody.self, context: context)
            let name = body.name.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty, name.count <= 200 else { throw APIError.badRequest("name: expected the user name of someone on this server") }
            let entry: FriendEntry
            do throws(FriendError) { entry = try await friends.invite(name, userID: identity.user.id) } catch { throw error.apiError }
            return try Response.json(FriendJSON(entry), status: entry.state == .friend ? .ok : .created)
        }
        router.get("/api/v1/friends/positions") { _, context in
            let identity = try context.requireIdentity()
            let found = try await FriendPositions(store: friends.store).friends(of: identity.user.id)
            return try Response.json(found.map { friend in
                FriendPositionsJSON(name: friend.user.name, picture: friend.face.flatMap(FriendPositions.pictureURL(face:)),
                                    sharesHistory: friend.sharesTheirHistory, devices: friend.devices.map { position in
                    PositionJSON(device: position.device.name, latitude: position.fix.coordinate.latitude,
                                 longitude: position.fix.coordinate.longitude, time: ISO8601TimeFormatter.string(position.fix.timestamp),
                                 accuracy: position.fix.horizontalAccuracyIfValid)
                })
            })
        }
        router.post("/api/v1/friends/{name}/accept") { _, context in
            let identity = try context.requirePerson()
            let entry: FriendEntry
            do throws(FriendError) { entry = try await friends.accept(try name(context), userID: identity.user.id) } catch { throw error.apiError }
            return try Response.json(FriendJSON(entry))
        }
        router.post("/api/v1/friends/{name}/decline") { _, context in
            let identity = try context.requirePerson()
            do throws(FriendError) { try await friends.decline(try name(context), userID: identity.user.id) } catch { throw error.apiError }
            return Response(status: .noContent)
        }
        router.delete("/api/v1/friends/{name}") { _, context in
            let identity = try context.requirePerson()
            do throws(FriendError) { try await friends.remove(try name(context), userID: identity.user.id) } catch { throw error.apiError }
            return Response(status: .noContent)
        }
        router.on("/api/v1/friends/{name}/history", method: .put) { request, context in
            let identity = try context.requirePerson()
            let body = try await request.decodeJSON(HistoryBody.self, context: context)
            let entry: FriendEntry
            do throws(FriendError) {
                entry = try await friends.shareHistory(body.shared, with: try name(context), userID: identity.user.id)
            } catch {
                throw error.apiError
            }
            return try Response.json(FriendJSON(entry))
        }
        router.get("/api/v1/friends/{name}/path") { request, context in
            let identity = try context.requirePerson()
            let friend: User
            do throws(FriendError) { friend = try await friends.historyReadable(of: try name(context), userID: identity.user.id) } catch {
                throw error.apiError
            }
            var zone = TimeZone(identifier: "UTC")!
            if let name = request.query("timezone") {
                guard let found = TimeZone(identifier: name) else { throw APIError.badRequest("timezone '\(name)' is not an IANA time zone") }
                zone = found
            }
            let parameters = ReadParameters(from: try ReadParameters.bound(request, "from", timeZone: zone, endOfDay: false),
                                            to: try ReadParameters.bound(request, "to", timeZone: zone, endOfDay: true),
                                            timeZone: zone, devices: try await friends.store.devices(userID: friend.id))
            let zoom = try request.integerQuery("zoom", in: 0...22, default: 12)
            let hiding = try await PrivacyZones(store: friends.store).visibility(userID: friend.id)
            return try await read.pathAnswer(userID: friend.id, parameters: parameters, zoom: zoom,
                                             budget: ReadRoutes.defaultPathPointBudget, hiding: hiding)
        }
    }

    /// The `{name}` of the path. - Throws: `FriendError.unknownUser` for one no user can have
    /// (longer than 200 characters: named by its first 40).
    private func name(_ context: TravelogRequestContext) throws(FriendError) -> String {
        let name = context.parameters.get("name") ?? ""
        guard !name.isEmpty, name.count <= 200 else { throw .unknownUser(name.count > 200 ? String(name.prefix(40)) + "…" : name) }
        return name
    }
}
