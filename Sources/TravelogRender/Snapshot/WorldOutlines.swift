import CCairo
import Foundation
import TravelogCore

/// The world's land as country outlines (Natural Earth 1:110m, public domain), read from the file
/// `scripts/build-world-outlines.py` writes once at build time (`.build-data/world.tlworld`; the
/// layout is described there): the offline base of snapshots and of the page when no tile server
/// answers.
public struct WorldOutlines: Sendable {
    /// The rings in map points, each with its bounding rect.
    let rings: [(points: [MapPoint], bounds: MapRect)]
    /// The rings as read, longitude and latitude in degrees (outer rings clockwise, holes counter-clockwise).
    let coordinates: [[Coordinate]]
    /// Each ring's country, ISO 3166-1 alpha-2 (`nil` for every ring of a TLWORLD1 file).
    let countryCodes: [String?]

    /// Reads an outline file (TLWORLD2, or TLWORLD1 without the countries' codes).
    /// - Throws: ``RenderError/malformedOutlines(path:reason:)``.
    public init(contentsOf path: String) throws(RenderError) {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .malformedOutlines(path: path, reason: "cannot be read")
        }
        let bytes = [UInt8](data)
        let magic = bytes.count >= 16 ? Array(bytes[0..<8]) : []
        let coded = magic == Array("TLWORLD2".utf8)
        guard coded || magic == Array("TLWORLD1".utf8) else {
            throw .malformedOutlines(path: path, reason: "no TLWORLD1 or TLWORLD2 header")
        }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16 | UInt32(bytes[offset + 3]) << 24
        }
        let ringCount = Int(u32(8)), pointCount = Int(u32(12))
        let codeBytes = coded ? 2 * ringCount : 0
        guard bytes.count == 16 + 4 * ringCount + codeBytes + 8 * pointCount else {
            throw .malformedOutlines(path: path, reason: "\(bytes.count) bytes for \(ringCount) rings of \(pointCount) points")
        }
        var codes: [String?] = []
        for ring in 0..<ringCount {
            guard coded else { codes.append(nil); continue }
            let first = bytes[16 + 4 * ringCount + 2 * ring], second = bytes[16 + 4 * ringCount + 2 * ring + 1]
            if first == 0 && second == 0 { codes.append(nil); continue }
            guard (0x41...0x5A).contains(first), (0x41...0x5A).contains(second) else {
                throw .malformedOutlines(path: path, reason: "ring \(ring)'s country is not two capital letters")
            }
            codes.append(String(decoding: [first, second], as: UTF8.self))
        }
        var offset = 16 + 4 * ringCount + codeBytes
        var rings: [(points: [MapPoint], bounds: MapRect)] = []
        var coordinates: [[Coordinate]] = []
        for ring in 0..<ringCount {
            let count = Int(u32(16 + 4 * ring))
            var points: [MapPoint] = [], read: [Coordinate] = []
            points.reserveCapacity(count)
            read.reserveCapacity(count)
            for _ in 0..<count {
                let longitude = Double(Float(bitPattern: u32(offset))), latitude = Double(Float(bitPattern: u32(offset + 4)))
                offset += 8
                guard let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else {
                    throw .malformedOutlines(path: path, reason: "a position (\(latitude), \(longitude)) off the globe")
                }
                points.append(MapPoint(coordinate))
                read.append(coordinate)
            }
            rings.append((points, MapRect(bounding: points)))
            coordinates.append(read)
        }
        self.rings = rings
        self.coordinates = coordinates
        self.countryCodes = codes
    }

    /// The default file beside the package: `.build-data/world.tlworld` under the current
    /// directory or `TRAVELOG_WORLD` when set.
    public static var defaultPath: String {
        ProcessInfo.processInfo.environment["TRAVELOG_WORLD"] ?? ".build-data/world.tlworld"
    }

    /// How many rings (islands, mainlands, lakes) the file holds.
    public var ringCount: Int { rings.count }

    /// The countries with an outline (ISO 3166-1 alpha-2), none for a TLWORLD1 file.
    public var countries: Set<String> { Set(countryCodes.compactMap { $0 }) }
}

/// Colours of the offline base.
public enum WorldBaseStyle {
    public static let sea = RenderColor(rgb: 0xDCE9F2)
    public static let land = RenderColor(rgb: 0xF4F1EA)
    public static let border = RenderColor(rgb: 0xB9B2A3)
    public static let graticule = RenderColor(rgb: 0x8FA9BF, alpha: 0.6)
}

extension WorldOutlines {
    /// Paints sea, land and borders, then a graticule whose step follows the zoom (30° for the
    /// world, down to 0.01° at a street).
    public func draw(projection: MapProjection, on canvas: Canvas) {
        let context = canvas.context
        canvas.fill(WorldBaseStyle.sea)
        let renderer = OverlayRenderer(projection: projection)
        for ring in rings {
            for shift in projection.worldShifts(for: ring.bounds) {
                renderer.appendLine(ring.points, shift: shift, to: context)
                cairo_close_path(context)
            }
        }
        canvas.setSource(WorldBaseStyle.land)
        cairo_fill_preserve(context)
        canvas.setSource(WorldBaseStyle.border)
        cairo_set_line_width(context, 0.8 * projection.pixelScale)
        cairo_stroke(context)
        drawGraticule(projection: projection, on: canvas)
    }

    /// The graticule's step for an image: about four to eight lines across it.
    static func graticuleStepDegrees(spanDegrees: Double) -> Double {
        let steps = [30.0, 15, 10, 5, 2, 1, 0.5, 0.2, 0.1, 0.05, 0.02, 0.01]
        return steps.first { spanDegrees / $0 >= 4 } ?? 0.01
    }

    private func drawGraticule(projection: MapProjection, on canvas: Canvas) {
        let context = canvas.context
        let rect = projection.mapRect
        let west = WebMercator.longitudeDegrees(x: rect.minX), east = WebMercator.longitudeDegrees(x: rect.maxX)
        let north = WebMercator.latitudeDegrees(y: rect.minY), south = WebMercator.latitudeDegrees(y: rect.maxY)
        let step = Self.graticuleStepDegrees(spanDegrees: min(east - west, north - south))
        var longitude = (west / step).rounded(.up) * step
        while longitude <= east {
            let x = (WebMercator.x(longitudeDegrees: longitude) - rect.minX) * projection.pixelsPerMapPoint
            cairo_move_to(context, x, 0)
            cairo_line_to(context, x, projection.heightPixels)
            longitude += step
        }
        var latitude = (south / step).rounded(.up) * step
        while latitude <= north {
            let y = (WebMercator.y(latitudeDegrees: latitude) - rect.minY) * projection.pixelsPerMapPoint
            cairo_move_to(context, 0, y)
            cairo_line_to(context, projection.widthPixels, y)
            latitude += step
        }
        canvas.setSource(WorldBaseStyle.graticule)
        cairo_set_line_width(context, 0.6 * projection.pixelScale)
        cairo_stroke(context)
    }
}
