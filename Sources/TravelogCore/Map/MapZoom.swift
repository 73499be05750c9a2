import Foundation

/// Zoom levels, zoom scales and road widths.
///
/// A zoom scale is MapKit's `MKZoomScale`: pixels per map point. With 256-pixel tiles the world
/// is 256 × 2^z pixels wide at zoom level z, so the zoom scale is 2^(z − 20).
public enum MapZoom {
    /// Pixels per map point at a (possibly fractional) zoom level: 2^(zoomLevel − 20).
    public static func zoomScale(zoomLevel: Double) -> Double {
        exp2(zoomLevel - WebMercator.unitScaleZoomLevel)
    }

    /// Pixels per map point at a whole zoom level, exactly 2^(zoomLevel − 20).
    public static func zoomScale(zoomLevel: Int) -> Double {
        Double(sign: .plus, exponent: zoomLevel - Int(WebMercator.unitScaleZoomLevel), significand: 1)
    }

    /// The zoom level at which a zoom scale (pixels per map point, positive) is reached:
    /// 20 + log2(zoomScale), fractional in general.
    public static func zoomLevel(zoomScale: Double) -> Double {
        WebMercator.unitScaleZoomLevel + log2(zoomScale)
    }

    /// The width of a line drawn like a road at a zoom level, in pixels.
    ///
    /// 3 px at zoom 13 (a city), growing by √2 per zoom level in (6 px at 15, 12 px at 17,
    /// 24 px at 19) and shrinking the same way out, never below 1 px. Growing by √2 rather than
    /// 2 keeps a line readable both zoomed out and close in, as road styles of slippy maps do.
    /// Travelog's own curve, in the spirit of MapKit's `MKRoadWidthAtZoomScale`, whose values
    /// are not documented.
    public static func roadWidthPixels(zoomLevel: Double) -> Double {
        max(cityRoadWidthPixels * exp2((zoomLevel - cityZoomLevel) / 2), minimumRoadWidthPixels)
    }

    /// The width of a road-like line at a zoom scale (pixels per map point), in map points: what
    /// a renderer drawing in map points strokes so that the line is
    /// ``roadWidthPixels(zoomLevel:)`` wide on screen.
    public static func roadWidthMapPoints(zoomScale: Double) -> Double {
        roadWidthPixels(zoomLevel: zoomLevel(zoomScale: zoomScale)) / zoomScale
    }

    /// The zoom level of a city, at which a road is ``cityRoadWidthPixels`` wide.
    static let cityZoomLevel: Double = 13
    /// A road's width at ``cityZoomLevel``, in pixels.
    static let cityRoadWidthPixels: Double = 3
    /// No road is drawn thinner than this, in pixels.
    static let minimumRoadWidthPixels: Double = 1
}
