/// A shape drawn over the map (MapKit's `MKOverlay`): a renderer asks for its bounding rect and
/// whether it touches a tile before drawing anything.
public protocol Overlay: Sendable {
    /// The smallest map rect holding the whole shape; it may extend east of the world when the
    /// shape crosses the 180th meridian, and is ``MapRect/null`` for an empty shape.
    var boundingMapRect: MapRect { get }

    /// Whether the shape may touch a map rect; `false` means nothing needs drawing there.
    /// Rects are compared on the wrapped world, so a tile just east of the 180th meridian
    /// meets a shape that crosses it.
    func intersects(_ mapRect: MapRect) -> Bool
}

extension Overlay {
    /// Compares the bounding rect with the rect, on the wrapped world.
    public func intersects(_ mapRect: MapRect) -> Bool {
        boundingMapRect.intersectsOnWrappedWorld(mapRect)
    }
}
