import Foundation
import Testing
import TravelogCore
import TravelogRender

@Suite("Map snapshotter")
struct MapSnapshotterTests {
    /// `.build-data/world.tlworld` of this checkout (`make world` builds it).
    static let outlinesPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../.build-data/world.tlworld").standardized.path
    static let outlines = try? WorldOutlines(contentsOf: outlinesPath)

    static func day() -> HistoryTileIndex {
        var index = HistoryTileIndex()
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        for step in 0..<600 {
            let angle = Double(step) / 600 * 2 * .pi
            let coordinate = Coordinate(validLatitude: 52.52 + 0.03 * sin(angle), longitude: 13.40 + 0.05 * sin(2 * angle))!
            index.append(Location(coordinate: coordinate, timestamp: start.addingTimeInterval(Double(step) * 30)), deviceIndex: 0)
        }
        return index
    }

    @Test("a coordinate's pixel: the region's centre is the image's centre, east is right and north is up")
    func pointForCoordinate() throws {
        let center = Coordinate(validLatitude: 48.8566, longitude: 2.3522)!
        let region = try CoordinateRegion(center: center, span: CoordinateSpan(latitudeDeltaDegrees: 0.1, longitudeDeltaDegrees: 0.1))
        let snapshotter = MapSnapshotter(options: .init(region: region, widthPoints: 400, heightPoints: 300, pixelScale: 2))
        let snapshot = try snapshotter.snapshot(index: HistoryTileIndex(), filter: .init(), outlines: nil)
        #expect(snapshot.widthPixels == 800 && snapshot.heightPixels == 600)
        let middle = snapshot.point(for: center)
        #expect(abs(middle.x - 400) < 0.5 && abs(middle.y - 300) < 0.5)  // exact up to rounding of map points
        let northEast = snapshot.point(for: Coordinate(validLatitude: 48.86, longitude: 2.36)!)
        #expect(northEast.x > middle.x && northEast.y < middle.y)
        let image = try Canvas(png: snapshot.pngData)
        #expect(image.widthPixels == 800)
    }

    @Test("without a region the snapshot shows the data's bounds, at the deepest zoom that holds them")
    func dataBounds() throws {
        let index = Self.day()
        let (projection, zoom) = try MapSnapshotter(options: .init(widthPoints: 600, heightPoints: 400)).plan(index: index, filter: .init())
        let bounds = index.bounds(filter: .init())
        #expect(projection.mapRect.contains(bounds))
        #expect(zoom == 12)  // 0.1° × 0.06° plus margins: 1.6 of 2.3 tile widths at 12, too wide at 13
    }

    @Test("a view is shown exactly: its zoom level, its centre in the middle, one display point per pixel of that level")
    func exactView() throws {
        // The page's map at zoom 15, 1400 × 900 points, on a phone's double-density screen: the
        // region route snapped a view's bounds to 14 when rounding made them a hair too big.
        let center = Coordinate(validLatitude: 60.1699, longitude: 24.9384)!
        var options = MapSnapshotter.Options(widthPoints: 1400, heightPoints: 900, pixelScale: 2)
        try options.setPlace(region: nil, view: "60.1699,24.9384,15")
        let (projection, zoom) = try MapSnapshotter(options: options).plan(index: Self.day(), filter: .init())
        #expect(zoom == 15)
        #expect(projection.mapRect.width == 1400 * 32 && projection.mapRect.height == 900 * 32)  // 2^(20 − 15) map points a point
        let middle = MapPoint(center)
        #expect(abs(projection.mapRect.midX - middle.x) < 1e-6 && abs(projection.mapRect.midY - middle.y) < 1e-6)
        #expect(projection.widthPixels == 2800 && projection.heightPixels == 1800)
    }

    @Test("a view is LAT,LON,ZOOM with a whole zoom from 0 to 19, and not given with a region")
    func viewParsing() throws {
        for bad in ["60,24", "60,24,15.5", "60,24,20", "60,24,-1", "91,24,3", "a,b,c", "60,,3"] {
            #expect(throws: SnapshotParameterError.view(bad)) { try MapSnapshotter.Options.view(parsing: bad) }
        }
        var options = MapSnapshotter.Options()
        #expect(throws: SnapshotParameterError.regionAndView) { try options.setPlace(region: "60,24,0.1", view: "60,24,3") }
        try options.setPlace(region: "", view: "0,0,0")
        #expect(options.region == nil && options.view?.zoomLevel == 0)
    }

    @Test("a size of zero is refused")
    func badSize() {
        #expect(throws: RenderError.sizeOutOfRange(widthPixels: 0, heightPixels: 10)) {
            try MapSnapshotter(options: .init(widthPoints: 0, heightPoints: 10)).plan(index: HistoryTileIndex(), filter: .init())
        }
    }

    @Test("a day's path with pins on the offline world base matches the golden image",
          .enabled(if: outlines != nil, "needs .build-data/world.tlworld: run make world"))
    func offlineGolden() throws {
        let pins = [MapPin(coordinate: Coordinate(validLatitude: 52.5163, longitude: 13.3777)!, title: "Brandenburger Tor"),
                    MapPin(coordinate: Coordinate(validLatitude: 52.5219, longitude: 13.4132)!, title: "Alexanderplatz")]
        let snapshotter = MapSnapshotter(options: .init(widthPoints: 360, heightPoints: 240))
        let snapshot = try snapshotter.snapshot(index: Self.day(), filter: .init(), pins: pins, outlines: Self.outlines)
        #expect(snapshot.basemap == .offline)
        try GoldenImage.expectMatches(try Canvas(png: snapshot.pngData), "snapshot-offline")
        let world = try MapSnapshotter(options: .init(region: nil, widthPoints: 360, heightPoints: 240, layer: .heat))
            .snapshot(index: HistoryTileIndex(), filter: .init(), outlines: Self.outlines)
        try GoldenImage.expectMatches(try Canvas(png: world.pngData), "snapshot-world")
    }

    @Test("the outline file holds the world's land", .enabled(if: outlines != nil, "needs .build-data/world.tlworld"))
    func outlineFile() throws {
        #expect(try #require(Self.outlines).ringCount > 200)
        #expect(throws: RenderError.self) { try WorldOutlines(contentsOf: "/nonexistent") }
    }
}
