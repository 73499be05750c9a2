import Foundation
import Hummingbird
import TravelogStore

/// `GET /api/v1/search`: local search (``LocalSearch``) for the page's search box and scripts; the
/// person's own places come from the store, the rest from the OSM extracts and the gazetteer.
struct SearchRoutes {
    let store: any JournalStore
    let search: LocalSearch

    func add(to router: RouteRegistry) {
        router.get("/api/v1/search") { request, context in
            let identity = try context.requireIdentity()
            let parsed: LocalSearch.Request
            do {
                parsed = try LocalSearch.request(text: request.query("q"), near: request.query("near"), region: request.query("region"),
                                                 category: request.query("category"),
                                                 limit: try request.integerQuery("limit", in: 1...LocalSearch.maximumLimit, default: 10))
            } catch let error as LocalSearch.RequestError {
                throw APIError.badRequest(error.description)
            }
            let own: [LocalSearch.OwnPlace]
            do {
                own = try await LocalSearch.ownPlaces(store: store, userID: identity.user.id)
            } catch let error as StoreError {
                throw APIError.storeFailed(error)
            }
            return try Response.json(search.search(parsed, own: own))
        }
    }
}
