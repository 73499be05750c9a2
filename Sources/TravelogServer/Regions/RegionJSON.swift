import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// A region as the API, the page and `travelog regions list --json` show it, and (without `id`,
/// times and states) as a client sends it: exactly one of `circle` and `polygon`.
public struct RegionJSON: Codable, Sendable, Equatable {
    public struct CircleJSON: Codable, Sendable, Equatable {
        public var latitude: Double
        public var longitude: Double
        public var radiusMeters: Double
    }

    public struct BeaconJSON: Codable, Sendable, Equatable {
        public var uuid: String
        public var major: Int?
        public var minor: Int?
    }

    /// Where a device stands with the region (`inside`, `outside`, `unknown`).
    public struct StateJSON: Codable, Sendable, Equatable {
        public var device: String
        public var state: String
    }

    public var id: Int64?
    public var name: String
    public var circle: CircleJSON?
    /// GeoJSON Polygon coordinates: rings of `[longitude, latitude]`, the outer ring first.
    public var polygon: [[[Double]]]?
    public var notifyOnEntry: Bool?
    public var notifyOnExit: Bool?
    public var beacon: BeaconJSON?
    public var createdAt: String?
    public var updatedAt: String?
    public var states: [StateJSON]?

    /// A region as a client sends it, only its name and shape (a privacy zone's area is read through it).
    public init(name: String, circle: CircleJSON?, polygon: [[[Double]]]?) {
        self.name = name
        self.circle = circle
        self.polygon = polygon
    }

    public init(_ region: StoredRegion, states: [StateJSON]? = nil) {
        let definition = region.definition
        id = region.id.rawValue
        name = definition.name
        switch definition.shape {
        case .circle(let circle):
            self.circle = CircleJSON(latitude: circle.center.latitude, longitude: circle.center.longitude,
                                     radiusMeters: circle.radiusMeters)
        case .polygon(let polygon):
            self.polygon = ([polygon.exteriorRing] + polygon.interiorRings).map { ring in
                (ring + ring.prefix(1)).map { [$0.longitude, $0.latitude] }
            }
        }
        notifyOnEntry = definition.notifyOnEntry
        notifyOnExit = definition.notifyOnExit
        beacon = definition.beacon.map { BeaconJSON(uuid: $0.proximityUUID.uuidString, major: $0.major.map { Int($0) },
                                                    minor: $0.minor.map { Int($0) }) }
        createdAt = ISO8601TimeFormatter.string(region.createdAt)
        updatedAt = ISO8601TimeFormatter.string(region.updatedAt)
        self.states = states
    }

    /// A point of the region as sent: a longitude beyond ±180° is refused (the document's bounds),
    /// not wrapped around as `Coordinate` does for imported history.
    static func coordinate(latitude: Double, longitude: Double) throws -> Coordinate {
        guard (-180...180).contains(longitude) else { throw APIError.badRequest("longitude \(longitude): expected -180 to 180") }
        return try Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The definition a client asked for.
    /// - Throws: a 400 naming what is wrong: no shape or both, a coordinate off the Earth, a radius
    ///   that cannot be monitored (0, negative, not a number, over 400 km), a longitude beyond ±180°, a ring of fewer than
    ///   three positions, a beacon UUID that is not one.
    public func definition() throws(APIError) -> RegionDefinition {
        let shape: MonitoredRegion.Shape
        do {
            switch (circle, polygon) {
            case (let circle?, nil):
                let center = try Self.coordinate(latitude: circle.latitude, longitude: circle.longitude)
                shape = .circle(try Circle(center: center, radiusMeters: circle.radiusMeters))
            case (nil, let rings?):
                let coordinates = try rings.map { ring in
                    try ring.map { position throws -> Coordinate in
                        guard position.count >= 2 else { throw APIError.badRequest("polygon: a position needs longitude and latitude") }
                        return try Self.coordinate(latitude: position[1], longitude: position[0])
                    }
                }
                guard let exterior = coordinates.first else { throw APIError.badRequest("polygon: expected at least one ring") }
                shape = .polygon(try Polygon(exteriorRing: exterior, interiorRings: Array(coordinates.dropFirst())))
            default:
                throw APIError.badRequest("expected exactly one of circle and polygon")
            }
            let beacon = try self.beacon.map { beacon throws -> RegionBeacon in
                guard let uuid = UUID(uuidString: beacon.uuid) else { throw APIError.badRequest("beacon.uuid '\(beacon.uuid)' is not a UUID") }
                func part(_ value: Int?, _ name: String) throws -> UInt16? {
                    guard let value else { return nil }
                    guard let part = UInt16(exactly: value) else { throw APIError.badRequest("beacon.\(name) \(value): expected 0 to 65535") }
                    return part
                }
                return try RegionBeacon(proximityUUID: uuid, major: part(beacon.major, "major"), minor: part(beacon.minor, "minor"))
            }
            return try RegionDefinition(name: name, shape: shape, notifyOnEntry: notifyOnEntry ?? true,
                                        notifyOnExit: notifyOnExit ?? true, beacon: beacon)
        } catch let error as APIError {
            throw error
        } catch {
            throw .badRequest("region '\(name)': \(error)")
        }
    }
}

/// A transition as the API, the page and `travelog regions transitions --json` show it.
public struct RegionTransitionJSON: Codable, Sendable, Equatable {
    public var id: Int64
    public var region: Int64
    public var regionName: String
    public var device: String
    /// `enter` or `exit`.
    public var transition: String
    public var time: String
    public var latitude: Double?
    public var longitude: Double?
    public var accuracyMeters: Double?
    /// `detected` (the server's monitor) or `reported` (the device's own).
    public var source: String

    public init(_ stored: StoredRegionTransition, regionName: String, deviceName: String) {
        let transition = stored.transition
        id = stored.id.rawValue
        region = transition.regionID.rawValue
        self.regionName = regionName
        device = deviceName
        self.transition = transition.kind == .entry ? "enter" : "exit"
        time = ISO8601TimeFormatter.string(transition.occurredAt)
        latitude = transition.coordinate?.latitude
        longitude = transition.coordinate?.longitude
        accuracyMeters = transition.horizontalAccuracyMeters
        source = transition.source.rawValue
    }
}
