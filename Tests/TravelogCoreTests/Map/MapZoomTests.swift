import Testing
@testable import TravelogCore

@Suite("Zoom scales, road widths and region snapping")
struct MapZoomTests {
    private static let world = WebMercator.worldSizeMapPoints

    @Test("zoom level 20 is one pixel per map point; each level out halves the scale")
    func zoomScale() {
        #expect(MapZoom.zoomScale(zoomLevel: 20) == 1)
        #expect(MapZoom.zoomScale(zoomLevel: 0) == 1.0 / Double(1 << 20))
        #expect(MapZoom.zoomScale(zoomLevel: 0) * Self.world == 256)
        #expect(MapZoom.zoomLevel(zoomScale: 0.25) == 18)
    }

    @Test("zoom level → zoom scale → zoom level returns the level", arguments: [0.0, 3.5, 12.25, 19.9, 22.0])
    func zoomRoundTrip(level: Double) {
        // exp2 and log2 each round once.
        #expect(abs(MapZoom.zoomLevel(zoomScale: MapZoom.zoomScale(zoomLevel: level)) - level) < 1e-12)
    }

    @Test("a road is a few pixels wide at city zooms and grows as you zoom in")
    func roadWidth() {
        let city = MapZoom.roadWidthPixels(zoomLevel: 13)
        #expect(city >= 2 && city <= 4)
        var previous = 0.0
        for level in stride(from: 0.0, through: 22, by: 0.5) {
            let width = MapZoom.roadWidthPixels(zoomLevel: level)
            #expect(width >= previous)
            #expect(width >= 1)
            previous = width
        }
        #expect(MapZoom.roadWidthPixels(zoomLevel: 18) > MapZoom.roadWidthPixels(zoomLevel: 15))
        #expect(MapZoom.roadWidthPixels(zoomLevel: 3) == 1)
    }

    @Test("a road width in map points covers the same pixels at every zoom scale", arguments: [5, 13, 17, 20])
    func roadWidthMapPoints(level: Int) {
        let scale = MapZoom.zoomScale(zoomLevel: level)
        let mapPoints = MapZoom.roadWidthMapPoints(zoomScale: scale)
        // One rounding in exp2 and one in log2.
        #expect(abs(mapPoints * scale - MapZoom.roadWidthPixels(zoomLevel: Double(level))) < 1e-12)
    }

    @Test("a viewport needs a positive size and zoom levels in 0...28")
    func viewportInvariants() {
        #expect(throws: MapGeometryError.viewportSizeNotPositive(widthPixels: 0, heightPixels: 10)) {
            try MapViewport(widthPixels: 0, heightPixels: 10)
        }
        #expect(throws: MapGeometryError.zoomOutOfRange(29)) {
            try MapViewport(widthPixels: 10, heightPixels: 10, zoomLevels: 0...29)
        }
    }

    @Test("a region exactly one tile wide fits a 256-pixel viewport at that tile's zoom, and not one pixel less")
    func snapToTile() throws {
        let tile = try Tile(zoom: 12, x: 2200, y: 1343)
        let region = try CoordinateRegion(tile.mapRect)
        let fit = try MapViewport(widthPixels: 256, heightPixels: 256).fit(region)
        #expect(fit.zoomLevel == 12)
        // The region's rect is the tile's up to the projection's rounding (< 1e-6 map points).
        #expect(abs(fit.mapRect.minX - tile.mapRect.minX) < 1e-6)
        #expect(abs(fit.mapRect.width - tile.mapRect.width) < 1e-6)
        let narrower = try MapViewport(widthPixels: 255, heightPixels: 256).fit(region)
        #expect(narrower.zoomLevel == 11)
    }

    @Test("the snapped region contains the requested one, which would not fit one level closer", arguments: [
        (52.52, 13.40, 0.05, 0.12, 1024, 768), (-33.86, 151.2, 2.0, 0.5, 400, 800), (10.0, 179.5, 3.0, 4.0, 640, 480),
    ])
    func snapContainsRequest(
        latitude: Double, longitude: Double, latitudeDelta: Double, longitudeDelta: Double, width: Int, height: Int
    ) throws {
        let requested = try CoordinateRegion(
            center: Coordinate(latitude: latitude, longitude: longitude),
            span: CoordinateSpan(latitudeDeltaDegrees: latitudeDelta, longitudeDeltaDegrees: longitudeDelta)
        )
        let viewport = try MapViewport(widthPixels: width, heightPixels: height)
        let fit = viewport.fit(requested)
        let rect = MapRect(requested)
        #expect(fit.zoomScale == MapZoom.zoomScale(zoomLevel: fit.zoomLevel))
        #expect(fit.mapRect.width == Double(width) / fit.zoomScale)
        #expect(fit.mapRect.intersectsOnWrappedWorld(rect))
        #expect(fit.mapRect.worldWrapped.contains(rect.worldWrapped))
        let closer = MapZoom.zoomScale(zoomLevel: fit.zoomLevel + 1)
        #expect(rect.width * closer > Double(width) || rect.height * closer > Double(height))
        for corner in [
            (requested.northLatitude, requested.westLongitude), (requested.southLatitude, requested.eastLongitude),
        ] {
            #expect(fit.region.contains(try Coordinate(latitude: corner.0, longitude: corner.1)))
        }
    }

    @Test("a tiny region is capped at the deepest zoom offered; the whole world needs zoom 0")
    func zoomBounds() throws {
        let center = try Coordinate(latitude: 48.8584, longitude: 2.2945)
        let tiny = try CoordinateRegion(center: center, latitudinalMeters: 1, longitudinalMeters: 1)
        #expect(try MapViewport(widthPixels: 800, heightPixels: 600).fit(tiny).zoomLevel == 19)
        #expect(try MapViewport(widthPixels: 800, heightPixels: 600, zoomLevels: 3...17).fit(tiny).zoomLevel == 17)
        let world = try CoordinateRegion(MapRect.world)
        let fit = try MapViewport(widthPixels: 300, heightPixels: 300).fit(world)
        #expect(fit.zoomLevel == 0)
        #expect(fit.region.span.longitudeDeltaDegrees == 360)
    }

    @Test("near a pole the shown rect is moved south to stay inside the world")
    func staysInsideTheWorld() throws {
        let north = try CoordinateRegion(
            center: Coordinate(latitude: 84, longitude: 0),
            span: CoordinateSpan(latitudeDeltaDegrees: 1, longitudeDeltaDegrees: 10)
        )
        // A tall viewport: the width decides the zoom, leaving far more height than the region needs.
        let fit = try MapViewport(widthPixels: 500, heightPixels: 4000).fit(north)
        #expect(fit.mapRect.minY == 0)
        #expect(fit.mapRect.contains(MapRect(north)))
    }
}
