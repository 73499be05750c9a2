import Foundation
import TravelogCore

/// Reads areas (regions drawn as polygons, coverage areas) from GeoJSON documents.
public enum GeoJSONAreaReader {
    /// Reads the area of a GeoJSON text (RFC 7946): a Polygon, a MultiPolygon, a
    /// GeometryCollection of them, a Feature holding one (or a null geometry), or a
    /// FeatureCollection of such features. All their polygons become the parts, in document
    /// order. Positions are `[longitude, latitude]`; an altitude is ignored; `bbox` and other
    /// members are ignored.
    ///
    /// Longitudes must lie in [-180, 180] and latitudes in [-90, 90]: a position outside is
    /// an error, not wrapped, since polygons are not unwrapped across the 180th meridian.
    ///
    /// - Throws: a ``GeoJSONError`` naming the first problem and where it is.
    /// - Complexity: O(n) in the size of the text.
    public static func multiPolygon(from data: Data) throws(GeoJSONError) -> MultiPolygon {
        do {
            let document = try JSONDecoder().decode(GeoJSONAreaObject.self, from: data)
            return MultiPolygon(polygons: document.polygons)
        } catch let error as GeoJSONError {
            throw error
        } catch let error as DecodingError {
            throw GeoJSONError(error)
        } catch {
            throw .invalidJSON
        }
    }
}

extension GeoJSONError {
    /// The GeoJSON problem behind a decoding error.
    init(_ error: DecodingError) {
        switch error {
        case let .keyNotFound(key, context):
            self = .missingMember(name: key.stringValue, path: GeoJSONPath(context.codingPath).description)
        case let .typeMismatch(type, context), let .valueNotFound(type, context):
            self = .wrongKind(path: GeoJSONPath(context.codingPath).description, expected: ValueKind(type))
        case .dataCorrupted:
            self = .invalidJSON
        @unknown default:
            self = .invalidJSON
        }
    }
}

extension GeoJSONError.ValueKind {
    /// The JSON kind of the Swift type a decoder expected (Foundation's decoders name `[Any]`
    /// for an array and `[String: Any]` for an object).
    init(_ type: Any.Type) {
        if type == String.self {
            self = .string
        } else if type == Double.self || type is any BinaryFloatingPoint.Type || type is any BinaryInteger.Type {
            self = .number
        } else if type == [Any].self {
            self = .array
        } else {
            self = .object
        }
    }
}
