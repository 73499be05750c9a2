import CCairo
import Foundation
import TravelogCore

/// The countries map of "where I have been" (issue 33): each country the person spent local days in,
/// with its outline from ``WorldOutlines`` (Natural Earth 1:110m) and its days, as a GeoJSON
/// FeatureCollection (RFC 7946: outer rings counter-clockwise, holes clockwise) for the page and
/// `GET /api/v1/explore/countries`, or drawn as a PNG (`travelog explore --countries-map FILE`).
public struct CountriesMap: Encodable, Sendable {
    public struct Feature: Encodable, Sendable {
        public struct Geometry: Encodable, Sendable {
            public var type = "MultiPolygon"
            /// Polygons of rings of `[longitude, latitude]`, the first ring of each its outline.
            public var coordinates: [[[[Double]]]]
        }

        public struct Properties: Encodable, Sendable {
            /// ISO 3166-1 alpha-2.
            public var code: String
            public var name: String?
            /// Local days with at least part of a visit there (as `/api/v1/whereabouts`).
            public var days: Int
        }

        public var type = "Feature"
        public var id: String
        public var geometry: Geometry
        public var properties: Properties
    }

    public var type = "FeatureCollection"
    /// The countries with an outline, most days first.
    public var features: [Feature]
    /// Countries with days but no outline at this scale (Singapore, Monaco, Andorra, Malta…), most days first.
    public var withoutOutline: [String]
    /// The most days of one country (the darkest colour), 0 when none.
    public var mostDays: Int
}

extension WorldOutlines {
    /// A country's polygons, each its outline then its holes, in the file's order.
    /// - Complexity: O(points of all rings).
    func polygons(of code: String) -> [[[Coordinate]]] {
        var polygons: [[[Coordinate]]] = []
        for (index, ring) in coordinates.enumerated() where countryCodes[index] == code && ring.count >= 3 {
            // The shapefile's outer rings run clockwise (a negative area in longitude and latitude), holes the other way.
            if Self.signedArea(ring) < 0 || polygons.isEmpty { polygons.append([ring]) } else { polygons[polygons.count - 1].append(ring) }
        }
        return polygons
    }

    /// Each country's area on the WGS84 ellipsoid, km²: its outlines' less its holes', the edges
    /// taken as geodesics (`GeodesicPolygon`). At 1:110m a country's area is within a few per cent.
    /// - Complexity: O(points of all rings).
    public func countryAreas() -> [String: Double] {
        var areas: [String: Double] = [:]
        for code in countries {
            var total = 0.0
            for polygon in polygons(of: code) {
                for (index, ring) in polygon.enumerated() {
                    let area = abs(GeodesicPolygon(ring.dropLast()).measure().areaSquareMeters)
                    // A ring around a pole (Antarctica's) measures the rest of the ellipsoid: the smaller side is the ring's.
                    let ringArea = min(area, 510_065_621_724_088.4 - area)
                    total += index == 0 ? ringArea : -ringArea
                }
            }
            areas[code] = total / 1_000_000
        }
        return areas
    }

    /// Twice the ring's area in square degrees, positive when it runs counter-clockwise.
    static func signedArea(_ ring: [Coordinate]) -> Double {
        var sum = 0.0
        for index in ring.indices {
            let a = ring[index], b = ring[(index + 1) % ring.count]
            sum += a.longitude * b.latitude - b.longitude * a.latitude
        }
        return sum
    }

    /// The countries map of these days per country.
    /// - Parameters:
    ///   - days: local days per ISO 3166-1 alpha-2 code; countries with 0 days are left out.
    ///   - names: countries' names by code (the gazetteer's), where known.
    public func countriesMap(days: [String: Int], names: [String: String] = [:]) -> CountriesMap {
        let visited = days.filter { $0.value > 0 }.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        let outlined = countries
        var features: [CountriesMap.Feature] = []
        for (code, count) in visited where outlined.contains(code) {
            // RFC 7946's winding: outlines counter-clockwise, holes clockwise, so every ring is turned round.
            let polygons = polygons(of: code).map { polygon in
                polygon.map { ring in ring.reversed().map { [Self.rounded($0.longitude), Self.rounded($0.latitude)] } }
            }
            features.append(.init(id: code, geometry: .init(coordinates: polygons),
                                  properties: .init(code: code, name: names[code], days: count)))
        }
        return CountriesMap(features: features, withoutOutline: visited.map(\.key).filter { !outlined.contains($0) },
                            mostDays: visited.first?.value ?? 0)
    }

    /// Degrees to 1e-5 (about a metre): the 1:110m outlines have no finer detail.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 100_000).rounded() / 100_000 }

    /// The countries map as an image: the world base, each country with days shaded from light to dark
    /// blue by its share of the most days (countries too small for the outlines are not drawn: the
    /// command names them).
    /// - Parameter widthPixels: the image's width; its height shows latitudes 84° N to 60° S.
    public func countriesImage(days: [String: Int], widthPixels: Int = 1600) throws(RenderError) -> Data {
        let north = WebMercator.y(latitudeDegrees: 84), south = WebMercator.y(latitudeDegrees: -60)
        let rect = MapRect(x: 0, y: north, width: MapRect.world.width, height: south - north)
        let projection = MapProjection(mapRect: rect, widthPixels: widthPixels)
        let canvas = try Canvas(widthPixels: widthPixels, heightPixels: Int(projection.heightPixels.rounded()))
        draw(projection: projection, on: canvas)
        let most = Double(days.values.max() ?? 0)
        let context = canvas.context
        let renderer = OverlayRenderer(projection: projection)
        for (code, count) in days where count > 0 && most > 0 {
            for polygon in polygons(of: code) {
                for ring in polygon {
                    let points = ring.map(MapPoint.init)
                    renderer.appendLine(points, shift: 0, to: context)
                    cairo_close_path(context)
                }
            }
            cairo_set_fill_rule(context, CAIRO_FILL_RULE_EVEN_ODD)
            canvas.setSource(CountriesMapStyle.fill(share: CountriesMapStyle.share(days: count, mostDays: Int(most))))
            cairo_fill(context)
        }
        MapDecorations.drawAttribution("Travelog · Natural Earth", projection: projection, on: canvas)
        return try canvas.pngData()
    }
}

/// The countries map's colours, as the page shades them (`explore.js`'s `shade`, the list and the map).
public enum CountriesMapStyle {
    /// A country's place between one day (near 0) and the most days (1), on a logarithmic scale: a
    /// linear one left every country but home nearly blank (1 day against 300 at home).
    public static func share(days: Int, mostDays: Int) -> Double {
        guard days > 0, mostDays > 0 else { return 0 }
        return min(1, log1p(Double(days)) / log1p(Double(mostDays)))
    }

    /// Blue, from 15 % opaque for few days to 85 % for the most days.
    public static func fill(share: Double) -> RenderColor {
        RenderColor(rgb: 0x3182BD, alpha: 0.15 + 0.7 * min(1, max(0, share)))
    }
}
