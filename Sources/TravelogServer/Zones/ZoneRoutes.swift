import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogStore

/// `/api/v1/zones`: the person's privacy zones. Only the person (the page's session or the
/// password, never a device token) lists, adds and removes them, as with share links; another
/// user's zone is a 404, as one that does not exist. A zone applies from the next request on:
/// share links read the zones for every request, and every write reads the drop zones.
///
/// `DELETE /api/v1/zones/{id}/fixes` deletes the stored fixes inside a zone (what the page asks
/// after a drop zone is added over stored history); the journal detects their stretches anew and
/// the map's index is rebuilt.
struct ZoneRoutes {
    let zones: PrivacyZones
    let journal: JournalService
    let tiles: HistoryTiles

    struct DeletedJSON: Encodable {
        var deleted: Int
    }

    func add(to router: RouteRegistry) {
        router.get("/api/v1/zones") { _, context in
            let identity = try context.requirePerson()
            let list: [StoredZone]
            do throws(ZoneError) { list = try await zones.list(userID: identity.user.id) } catch { throw error.apiError }
            return try Response.json(list.map(ZoneJSON.init))
        }
        router.post("/api/v1/zones") { request, context in
            let identity = try context.requirePerson()
            let definition = try await request.decodeJSON(ZoneJSON.self, context: context).definition()
            var answer: ZoneJSON
            do throws(ZoneError) {
                answer = ZoneJSON(try await zones.add(definition, userID: identity.user.id))
                if definition.rule == .drop { answer.storedFixesInside = try await zones.storedFixesInside(definition, userID: identity.user.id) }
            } catch {
                throw error.apiError
            }
            return try Response.json(answer, status: .created)
        }
        router.delete("/api/v1/zones/{id}/fixes") { _, context in
            let identity = try context.requirePerson()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the zone id must be a number") }
            let deleted: PrivacyZones.DeletedFixes
            do throws(ZoneError) {
                guard let zone = try await zones.list(userID: identity.user.id).first(where: { $0.id.rawValue == id }) else {
                    throw .unknownZone(String(id))
                }
                deleted = try await zones.deleteStoredFixes(inside: zone.definition, userID: identity.user.id)
            } catch {
                throw error.apiError
            }
            for (deviceID, span) in deleted.spans {
                if let device = try await zones.store.device(id: deviceID) { journal.enqueue(device: device, from: span.lowerBound, to: span.upperBound) }
            }
            if deleted.count > 0 { tiles.historyRemoved(userID: identity.user.id) }
            return try Response.json(DeletedJSON(deleted: deleted.count))
        }
        router.delete("/api/v1/zones/{id}") { _, context in
            let identity = try context.requirePerson()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the zone id must be a number") }
            do throws(ZoneError) {
                try await zones.remove(id: ZoneID(rawValue: id), userID: identity.user.id)
            } catch {
                throw error.apiError
            }
            return Response(status: .noContent)
        }
    }
}
