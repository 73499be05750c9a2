import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogRouting

/// `GET /api/v1/directions` (a route with `MKRoute`'s fields, as `travelog directions --json`
/// prints it) and `GET /api/v1/directions/coverage` (the extracts' coverage, a GeoJSON
/// MultiPolygon), over the road graphs of the OSM extracts added (`travelog osm add`).
struct DirectionsRoutes {
    let network: RoadNetwork?

    func add(to router: RouteRegistry) {
        router.get("/api/v1/directions") { request, context in
            _ = try context.requireIdentity()
            let from = try Self.coordinate(request, "from"), to = try Self.coordinate(request, "to")
            let modeName = try request.choiceQuery("mode", DirectionsMode.allCases.map(\.rawValue), default: DirectionsMode.driving.rawValue)
            guard let mode = DirectionsMode(rawValue: modeName) else { throw APIError.badRequest("unknown mode \(modeName)") }
            var departure: Date?
            if let text = request.query("depart") {
                guard let date = TimeRangeBound.parse(text, timeZone: TimeZone(identifier: "UTC") ?? .current, endOfDay: false) else {
                    throw APIError.badRequest("depart must be an ISO 8601 time, such as 2026-06-01T08:30:00Z")
                }
                departure = date
            }
            guard let network, !network.graphs.isEmpty else { throw APIError.notFound("\(DirectionsError.noRoadNetwork)") }
            do {
                let route = try network.route(from: from, to: to, mode: mode)
                return Response.json(data: Data(RouteJSON(
                    route, departure: departure.map(ISO8601TimeFormatter.string),
                    arrival: departure.map { ISO8601TimeFormatter.string($0.addingTimeInterval(route.expectedTravelTimeSeconds)) }).bytes()))
            } catch {
                // The input was well formed but names a place without a route: 422, naming the end and why.
                throw APIError.http(status: .unprocessableContent, "\(error)")
            }
        }
        router.get("/api/v1/directions/coverage") { _, context in
            _ = try context.requireIdentity()
            let geoJSON = network?.coverageGeoJSON() ?? RoadNetwork(graphs: []).coverageGeoJSON()
            return Response.json(data: Data(geoJSON.utf8), contentType: "application/geo+json")
        }
    }

    /// A `lat,lon` query parameter.
    static func coordinate(_ request: Request, _ name: String) throws(APIError) -> Coordinate {
        guard let text = request.query(name) else { throw .badRequest("expected \(name) as lat,lon in degrees") }
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count == 2, let latitude = Double(parts[0]), let longitude = Double(parts[1]) else {
            throw .badRequest("\(name) must be lat,lon in degrees, such as 60.1699,24.9384 (got '\(text)')")
        }
        do {
            return try Coordinate(latitude: latitude, longitude: longitude)
        } catch {
            throw .badRequest("\(name): \(error)")
        }
    }
}
