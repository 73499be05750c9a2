import Foundation
import HTTPTypes
import Hummingbird
import TravelogCore
import TravelogStore

/// `/api/v1/regions`: each user's regions (geofences) and the transitions of their devices. Anyone
/// who may read the user's history reads them; changing them needs a person (password or page), as
/// the journal does. Another user's region is a 404, as one that does not exist.
struct RegionRoutes {
    let store: any AccountStore & RegionStore
    /// Told after a user's regions changed (the MQTT phones are sent them: `OwnTracksCommandPublisher`).
    var changed: @Sendable (UserID) async -> Void = { _ in }

    func add(to router: RouteRegistry) {
        let reader = RegionReader(store: store)
        router.get("/api/v1/regions") { _, context in
            let identity = try context.requireIdentity()
            return try Response.json(try await stored { () throws(StoreError) in try await reader.regions(userID: identity.user.id) })
        }
        router.post("/api/v1/regions") { request, context in
            let identity = try personIdentity(context)
            let definition = try await request.decodeJSON(RegionJSON.self, context: context).definition()
            let count = try await stored { () throws(StoreError) in try await store.regions(userID: identity.user.id).count }
            guard count < StoredRegion.maximumPerUser else {
                throw APIError.http(status: .conflict, "a user may have at most \(StoredRegion.maximumPerUser) regions: remove one first")
            }
            let region = try await stored { () throws(StoreError) in
                try await store.addRegion(definition, userID: identity.user.id, at: Date())
            }
            await changed(identity.user.id)
            return try Response.json(RegionJSON(region), status: .created)
        }
        router.get("/api/v1/regions/transitions") { request, context in
            let identity = try context.requireIdentity()
            var zone = TimeZone.gmt
            if let name = request.query("timezone") {
                guard let named = TimeZone(identifier: name) else {
                    throw APIError.badRequest("timezone '\(name)' is not an IANA time zone such as Europe/Berlin")
                }
                zone = named
            }
            let from = try ReadParameters.bound(request, "from", timeZone: zone, endOfDay: false)
            let to = try ReadParameters.bound(request, "to", timeZone: zone, endOfDay: true)
            var regionID: RegionID?
            if let text = request.query("region") {
                guard let raw = Int64(text) else { throw APIError.badRequest("region '\(text)': expected a region id") }
                guard try await stored({ () throws(StoreError) in try await store.region(id: RegionID(rawValue: raw), userID: identity.user.id) }) != nil
                else { throw APIError.notFound("no region \(raw)") }
                regionID = RegionID(rawValue: raw)
            }
            return try Response.json(try await stored { () throws(StoreError) in
                try await reader.transitions(userID: identity.user.id, regionID: regionID, from: from, to: to)
            })
        }
        router.get("/api/v1/regions/{id}") { _, context in
            let identity = try context.requireIdentity()
            let id = try regionID(context)
            guard let region = try await reader.regions(userID: identity.user.id).first(where: { $0.id == id.rawValue }) else {
                throw APIError.notFound("no region \(id)")
            }
            return try Response.json(region)
        }
        router.on("/api/v1/regions/{id}", method: .put) { request, context in
            let identity = try personIdentity(context)
            let id = try regionID(context)
            let definition = try await request.decodeJSON(RegionJSON.self, context: context).definition()
            let region = try await stored { () throws(StoreError) in
                try await store.updateRegion(id: id, userID: identity.user.id, definition, at: Date())
            }
            await changed(identity.user.id)
            return try Response.json(RegionJSON(region))
        }
        router.delete("/api/v1/regions/{id}") { _, context in
            let identity = try personIdentity(context)
            let id = try regionID(context)
            guard try await stored({ () throws(StoreError) in try await store.removeRegion(id: id, userID: identity.user.id) }) else {
                throw APIError.notFound("no region \(id)")
            }
            await changed(identity.user.id)
            return Response(status: .noContent)
        }
    }

    /// Changes need a person, not a device token (a phone changes regions through OwnTracks' waypoints).
    func personIdentity(_ context: TravelogRequestContext) throws -> Identity {
        let identity = try context.requireIdentity()
        guard identity.method != .deviceToken else { throw APIError.forbidden("a device token cannot change regions") }
        return identity
    }

    func regionID(_ context: TravelogRequestContext) throws -> RegionID {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the region id must be a number") }
        return RegionID(rawValue: id)
    }

    /// Runs a store call, answering an unknown region as a 404 and a taken name as a 409.
    func stored<T>(_ body: () async throws(StoreError) -> T) async throws(APIError) -> T {
        do {
            return try await body()
        } catch .unknownRegion(let id) {
            throw .notFound("no region \(id)")
        } catch .regionExists(let name) {
            throw .http(status: .conflict, StoreError.regionExists(name: name).description)
        } catch {
            throw .storeFailed(error)
        }
    }
}
