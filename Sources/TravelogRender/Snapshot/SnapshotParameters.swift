import Foundation
import TravelogCore

/// Why a snapshot parameter given as text (by `travelog snapshot` or `GET /api/v1/snapshot`) was
/// refused.
public enum SnapshotParameterError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Not `LAT,LON,SPAN` in degrees with a positive span that stays off the poles.
    case region(String)
    /// Not `WIDTHxHEIGHT` in display points, each 16 to 4096.
    case size(String)
    /// Not a pixel scale from 1 to 4.
    case scale(String)
    /// Size × scale gives more than ``MapSnapshotter/Options/maximumPixels``.
    case pixels(widthPixels: Int, heightPixels: Int)
    /// Not `path`, `heat` or `points`.
    case layer(String)
    /// Not `LAT,LON,ZOOM` with a whole zoom level from 0 to 19.
    case view(String)
    /// Both a region and a view: the image shows one or the other.
    case regionAndView

    public var description: String {
        switch self {
        case let .region(text): "region '\(text)': expected LAT,LON,SPAN in degrees (e.g. 52.52,13.40,0.2)"
        case let .size(text): "size '\(text)': expected WIDTHxHEIGHT, each from 16 to 4096 (e.g. 1200x800)"
        case let .scale(text): "scale '\(text)': expected a number from 1 to 4"
        case let .layer(text): "layer '\(text)': expected path, heat or points"
        case let .view(text): "view '\(text)': expected LAT,LON,ZOOM with a whole zoom level from 0 to 19 (e.g. 52.52,13.40,15)"
        case .regionAndView: "region and view were both given: a snapshot shows a region fitted to the image or exactly a view, not both"
        case let .pixels(width, height):
            "an image of \(width) × \(height) = \(width * height) pixels (size × scale): at most "
                + "\(MapSnapshotter.Options.maximumPixels) (4096x4096 at scale 1, 2048x2048 at scale 2, 1024x1024 at scale 4)"
        }
    }
}

extension MapSnapshotter.Options {
    /// The most pixels a snapshot may have (width × height × scale²): 4096 × 4096, a 40 × 30 cm
    /// print at 300 dpi (4724 × 3543). Drawing takes about 20 bytes a pixel at its peak (the
    /// image, the heatmap's density grids and its colour layer), so 320 MB at most.
    public static let maximumPixels = 4096 * 4096

    /// The image's size in pixels.
    public var pixelSize: (width: Int, height: Int) {
        (Int((Double(widthPoints) * pixelScale).rounded()), Int((Double(heightPoints) * pixelScale).rounded()))
    }

    /// Refuses a size × scale over ``maximumPixels``.
    public func checkPixelCount() throws(SnapshotParameterError) {
        let (width, height) = pixelSize
        guard width * height <= Self.maximumPixels else { throw .pixels(widthPixels: width, heightPixels: height) }
    }

    /// A region `LAT,LON,SPAN`: centred there, SPAN degrees of latitude high and of longitude wide.
    public static func region(parsing text: String) throws(SnapshotParameterError) -> CoordinateRegion {
        let parts = text.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 3, let latitude = parts[0], let longitude = parts[1], let span = parts[2], span > 0, span <= 360,
              let center = Coordinate(validLatitude: latitude, longitude: longitude),
              let region = try? CoordinateRegion(center: center, span: CoordinateSpan(latitudeDeltaDegrees: min(span, 170),
                                                                                       longitudeDeltaDegrees: span))
        else { throw .region(text) }
        return region
    }

    /// A view `LAT,LON,ZOOM`: the image's centre and a whole zoom level from 0 to 19 (those of
    /// OpenStreetMap's tiles).
    public static func view(parsing text: String) throws(SnapshotParameterError) -> MapSnapshotter.MapView {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 3, let latitude = Double(parts[0]), let longitude = Double(parts[1]), let zoom = Int(parts[2]),
              (0...19).contains(zoom), let center = Coordinate(validLatitude: latitude, longitude: longitude)
        else { throw .view(text) }
        return MapSnapshotter.MapView(center: center, zoomLevel: zoom)
    }

    /// The region or the view of a snapshot as text (either may be absent or empty); both is refused.
    public mutating func setPlace(region: String?, view: String?) throws(SnapshotParameterError) {
        let region = region.flatMap { $0.isEmpty ? nil : $0 }, view = view.flatMap { $0.isEmpty ? nil : $0 }
        if region != nil && view != nil { throw .regionAndView }
        self.region = try region.map { text throws(SnapshotParameterError) in try Self.region(parsing: text) }
        self.view = try view.map { text throws(SnapshotParameterError) in try Self.view(parsing: text) }
    }

    /// A size `WIDTHxHEIGHT` in display points.
    public static func size(parsing text: String) throws(SnapshotParameterError) -> (widthPoints: Int, heightPoints: Int) {
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1],
              (16...4096).contains(width), (16...4096).contains(height) else { throw .size(text) }
        return (width, height)
    }

    /// A pixel scale from 1 to 4.
    public static func scale(parsing text: String) throws(SnapshotParameterError) -> Double {
        guard let scale = Double(text), (1...4).contains(scale) else { throw .scale(text) }
        return scale
    }

    /// A layer name.
    public static func layer(parsing text: String) throws(SnapshotParameterError) -> HistoryLayer {
        guard let layer = HistoryLayer(rawValue: text) else { throw .layer(text) }
        return layer
    }
}
