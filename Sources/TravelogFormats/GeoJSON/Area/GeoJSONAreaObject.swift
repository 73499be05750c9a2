import Foundation
import TravelogCore

/// The GeoJSON objects (RFC 7946) that can hold an area, decoded with Foundation's
/// `JSONDecoder` and checked as they are read (an area is a small document a person draws or
/// types, unlike the streams of location records `GeoJSONReader` reads). Internal: the public entry
/// point is `GeoJSONAreaReader`.
struct GeoJSONAreaObject: Decodable {
    /// The polygons found, in document order.
    let polygons: [Polygon]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: GeoJSONAreaKey.self)
        let path = GeoJSONPath(decoder.codingPath)
        switch try GeoJSONAreaType(in: container, at: path) {
        case .feature:
            polygons = try GeoJSONAreaFeature.polygons(in: container, at: path)
        case .featureCollection:
            polygons = try container.decode([GeoJSONAreaFeature].self, forKey: .features).flatMap(\.polygons)
        case let geometry:
            polygons = try GeoJSONAreaGeometry.polygons(of: geometry, in: container, at: path)
        }
    }
}

/// The members Travelog reads.
enum GeoJSONAreaKey: String, CodingKey {
    case type, coordinates, geometries, geometry, features
}

/// RFC 7946's nine object types.
enum GeoJSONAreaType: String {
    case point = "Point", multiPoint = "MultiPoint", lineString = "LineString"
    case multiLineString = "MultiLineString", polygon = "Polygon", multiPolygon = "MultiPolygon"
    case geometryCollection = "GeometryCollection", feature = "Feature", featureCollection = "FeatureCollection"

    /// Reads the `type` member of an object.
    init(in container: KeyedDecodingContainer<GeoJSONAreaKey>, at path: GeoJSONPath) throws {
        let name = try container.decode(String.self, forKey: .type)
        guard let type = GeoJSONAreaType(rawValue: name) else {
            throw GeoJSONError.unknownType(name, path: path.appending("type").description)
        }
        self = type
    }
}

/// A member of a FeatureCollection.
struct GeoJSONAreaFeature: Decodable {
    let polygons: [Polygon]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: GeoJSONAreaKey.self)
        let path = GeoJSONPath(decoder.codingPath)
        let type = try GeoJSONAreaType(in: container, at: path)
        guard type == .feature else {
            throw GeoJSONError.typeNotAllowedHere(type.rawValue, path: path.description)
        }
        polygons = try Self.polygons(in: container, at: path)
    }

    /// The polygons of a Feature's geometry; a null geometry has none (RFC 7946 §3.2).
    static func polygons(in container: KeyedDecodingContainer<GeoJSONAreaKey>, at path: GeoJSONPath) throws -> [Polygon] {
        guard container.contains(.geometry) else {
            throw GeoJSONError.missingMember(name: "geometry", path: path.description)
        }
        if try container.decodeNil(forKey: .geometry) { return [] }
        return try container.decode(GeoJSONAreaGeometry.self, forKey: .geometry).polygons
    }
}

/// A geometry object: only geometry types are allowed here.
struct GeoJSONAreaGeometry: Decodable {
    let polygons: [Polygon]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: GeoJSONAreaKey.self)
        let path = GeoJSONPath(decoder.codingPath)
        polygons = try Self.polygons(of: GeoJSONAreaType(in: container, at: path), in: container, at: path)
    }

    /// The polygons of a geometry of a given type. An empty `coordinates` array is an empty
    /// geometry (RFC 7946 §3.1) and gives none.
    static func polygons(
        of type: GeoJSONAreaType, in container: KeyedDecodingContainer<GeoJSONAreaKey>, at path: GeoJSONPath
    ) throws -> [Polygon] {
        let coordinatesPath = path.appending("coordinates")
        switch type {
        case .polygon:
            let rings = try container.decode([[GeoJSONAreaPosition]].self, forKey: .coordinates)
            return rings.isEmpty ? [] : [try polygon(rings: rings, at: coordinatesPath)]
        case .multiPolygon:
            let parts = try container.decode([[[GeoJSONAreaPosition]]].self, forKey: .coordinates)
            return try parts.enumerated().compactMap { index, rings in
                rings.isEmpty ? nil : try polygon(rings: rings, at: coordinatesPath.appending(index))
            }
        case .geometryCollection:
            return try container.decode([GeoJSONAreaGeometry].self, forKey: .geometries).flatMap(\.polygons)
        case .point, .multiPoint, .lineString, .multiLineString:
            throw GeoJSONError.notAnArea(type.rawValue, path: path.description)
        case .feature, .featureCollection:
            throw GeoJSONError.typeNotAllowedHere(type.rawValue, path: path.description)
        }
    }

    /// A polygon from linear rings, checked as RFC 7946 §3.1.6 asks: four or more positions,
    /// the last equal to the first.
    static func polygon(rings: [[GeoJSONAreaPosition]], at path: GeoJSONPath) throws -> Polygon {
        var coordinates: [[Coordinate]] = []
        for (index, ring) in rings.enumerated() {
            let ringPath = path.appending(index)
            guard ring.count >= 4 else {
                throw GeoJSONError.ringTooShort(path: ringPath.description, positionCount: ring.count)
            }
            guard ring.first?.coordinate == ring.last?.coordinate else {
                throw GeoJSONError.ringNotClosed(path: ringPath.description)
            }
            coordinates.append(ring.map(\.coordinate))
        }
        do {
            return try Polygon(exteriorRing: coordinates[0], interiorRings: Array(coordinates.dropFirst()))
        } catch {
            // Rings of four or more positions always leave three once the closing one is dropped.
            switch error {
            case let .ringTooShort(ringIndex, count):
                throw GeoJSONError.ringTooShort(path: path.appending(ringIndex).description, positionCount: count)
            case .radiusOutOfRange:
                preconditionFailure("a polygon has no radius")
            }
        }
    }
}

/// A position `[longitude, latitude, altitude?]`.
struct GeoJSONAreaPosition: Decodable {
    let coordinate: Coordinate

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        let path = GeoJSONPath(decoder.codingPath)
        var numbers: [Double] = []
        while numbers.count < 2, !container.isAtEnd {
            numbers.append(try container.decode(Double.self))
        }
        guard numbers.count == 2 else {
            throw GeoJSONError.positionTooShort(path: path.description, count: numbers.count)
        }
        let (longitude, latitude) = (numbers[0], numbers[1])
        guard (-180...180).contains(longitude) else {
            throw GeoJSONError.longitudeOutOfRange(path: path.description, degrees: longitude)
        }
        guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else {
            throw GeoJSONError.latitudeOutOfRange(path: path.description, degrees: latitude)
        }
        self.coordinate = coordinate
    }
}
