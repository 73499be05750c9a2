import Foundation
import HTTPTypes
import TravelogAccounts
import TravelogCore
import TravelogFormats
import TravelogStore

/// A privacy zone as the API, the page and `travelog zones list --json` show it, and (without `id`
/// and `createdAt`) as a client sends it: a name, a rule (`hide` or `drop`) and exactly one of
/// `circle` and `polygon`, as a region's.
public struct ZoneJSON: Codable, Sendable, Equatable {
    public var id: Int64?
    public var name: String
    public var rule: String
    public var circle: RegionJSON.CircleJSON?
    /// GeoJSON Polygon coordinates: rings of `[longitude, latitude]`, the outer ring first.
    public var polygon: [[[Double]]]?
    public var createdAt: String?
    /// In the answer to adding a drop zone: how many stored fixes lie inside (kept until
    /// `DELETE /api/v1/zones/{id}/fixes`; share links never show them meanwhile).
    public var storedFixesInside: Int?

    public init(_ zone: StoredZone) {
        id = zone.id.rawValue
        name = zone.definition.name
        rule = zone.definition.rule.rawValue
        switch zone.definition.shape {
        case .circle(let circle):
            self.circle = RegionJSON.CircleJSON(latitude: circle.center.latitude, longitude: circle.center.longitude,
                                                radiusMeters: circle.radiusMeters)
        case .polygon(let polygon):
            self.polygon = ([polygon.exteriorRing] + polygon.interiorRings).map { ring in
                (ring + ring.prefix(1)).map { [$0.longitude, $0.latitude] }
            }
        }
        createdAt = ISO8601TimeFormatter.string(zone.createdAt)
    }

    /// The zone a client asked for: the shape read as a region's (the same checks and messages).
    /// - Throws: a 400 naming what is wrong.
    public func definition() throws(APIError) -> ZoneDefinition {
        guard let rule = ZoneRule(rawValue: rule) else { throw .badRequest("rule '\(rule)': expected hide or drop") }
        let region = try RegionJSON(name: name, circle: circle, polygon: polygon).definition()
        do {
            return try ZoneDefinition(name: region.name, shape: region.shape, rule: rule)
        } catch {
            throw .badRequest("zone '\(name)': \(error)")
        }
    }
}

extension ZoneError {
    var apiError: APIError {
        switch self {
        case .nameTaken, .tooMany: .http(status: .conflict, description)
        case .unknownZone: .notFound(description)
        case .store(let error): .storeFailed(error)
        }
    }
}
