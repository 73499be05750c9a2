/// How an overlay is drawn (MapKit's `MKOverlayPathRenderer` properties).
public struct OverlayStyle: Hashable, Sendable {
    /// The outline's colour, or `nil` for no outline.
    public var strokeColor: RenderColor?
    /// The inside's colour (polygons and circles), or `nil` for none.
    public var fillColor: RenderColor?
    /// The outline's width in display points, or `nil` for the width of a road at the zoom
    /// (``TravelogCore/MapZoom/roadWidthPixels(zoomLevel:)``).
    public var lineWidthPoints: Double?

    public init(strokeColor: RenderColor? = RenderColor.device(0), fillColor: RenderColor? = nil,
                lineWidthPoints: Double? = nil) {
        self.strokeColor = strokeColor
        self.fillColor = fillColor
        self.lineWidthPoints = lineWidthPoints
    }

    /// A line in a device's colour, as wide as a road.
    public static func path(deviceIndex: Int) -> OverlayStyle {
        OverlayStyle(strokeColor: RenderColor.device(deviceIndex))
    }
}
