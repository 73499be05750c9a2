/// The world wraps east-west: a rect east of x = 2^28 continues at x = 0. These members treat
/// rects as regions of that cylinder.
extension MapRect {
    /// The same rect moved by whole world widths so that its west edge lies in [0, 2^28);
    /// null stays null.
    public var worldWrapped: MapRect {
        if isNull { return self }
        let world = WebMercator.worldSizeMapPoints
        if minX >= 0 && minX < world { return self }
        let shift = (minX / world).rounded(.down) * world
        return MapRect(origin: MapPoint(x: minX - shift, y: minY), size: size)
    }

    /// Whether the rect, once wrapped, runs across the 180th meridian (MapKit's
    /// `MKMapRectSpans180thMeridian`): its east edge lies beyond the world's.
    public var spansAntimeridian: Bool {
        if isNull { return false }
        return worldWrapped.maxX > WebMercator.worldSizeMapPoints
    }

    /// The part of the wrapped rect that lies east of the world, moved back to the west edge of
    /// the world (MapKit's `MKMapRectRemainder`), or ``null`` when the rect does not span the
    /// 180th meridian. A rect a world wide or wider leaves a remainder as wide as its excess.
    public var remainder: MapRect {
        guard spansAntimeridian else { return .null }
        let world = WebMercator.worldSizeMapPoints
        let wrapped = worldWrapped
        return MapRect(x: 0, y: wrapped.minY, width: min(wrapped.maxX - world, world), height: wrapped.height)
    }

    /// The wrapped rect cut at the 180th meridian into one or two rects whose x lie in
    /// [0, 2^28]; y is left as it is. A null rect gives none, a rect a world wide or wider gives
    /// the world's full width.
    public var worldParts: [MapRect] {
        if isNull { return [] }
        let world = WebMercator.worldSizeMapPoints
        if width >= world { return [MapRect(x: 0, y: minY, width: world, height: height)] }
        let wrapped = worldWrapped
        guard wrapped.maxX > world else { return [wrapped] }
        return [MapRect(x: wrapped.minX, y: minY, width: world - wrapped.minX, height: height), remainder]
    }

    /// Whether the rects meet on the wrapped world: whether `other`, moved east or west by any
    /// number of world widths, intersects this rect.
    public func intersectsOnWrappedWorld(_ other: MapRect) -> Bool {
        if isNull || other.isNull { return false }
        guard minY <= other.maxY && other.minY <= maxY else { return false }
        let world = WebMercator.worldSizeMapPoints
        if width >= world || other.width >= world { return true }
        let a = worldWrapped, b = other.worldWrapped
        // Both west edges now lie in [0, world) and both widths are below a world: only the
        // copies one world east and west can still meet.
        return [-world, 0, world].contains { shift in
            a.minX <= b.maxX + shift && b.minX + shift <= a.maxX
        }
    }
}
