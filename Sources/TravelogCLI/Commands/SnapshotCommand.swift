import ArgumentParser
import Foundation
import TravelogCore
import TravelogPhotos
import TravelogRender
import TravelogStore

/// `travelog snapshot`
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Draw a stretch of history on the map as a PNG image.",
        discussion: """
            The region (or the bounds of the drawn fixes) at the deepest zoom level that shows it whole, \
            the path or heatmap, the journal's visits as pins with their titles, a scale bar and the \
            attribution. The basemap comes from --tiles when it answers (tiles are kept in --tile-cache), \
            otherwise from the offline world base (make world). Prints how a coordinate maps to a pixel.
            """)

    @OptionGroup var storeOptions: StoreOptions
    @OptionGroup var account: AccountOptions
    @OptionGroup var range: TimeRangeOptions

    @Option(help: ArgumentHelp("Only this device (repeat for several).", valueName: "name"))
    var device: [String] = []

    @Option(help: ArgumentHelp("The region shown: centre and span in degrees (default: the data's bounds).", valueName: "lat,lon,span"))
    var region: String?

    @Option(help: ArgumentHelp("Exactly the map view at this centre and whole zoom level (0 to 19), instead of a region.",
                               valueName: "lat,lon,zoom"))
    var view: String?

    @Option(help: ArgumentHelp("The image size in display points.", valueName: "WxH"))
    var size = "1200x800"

    @Option(help: ArgumentHelp("Image pixels per display point (1 to 4).", valueName: "n"))
    var scale = "1"

    @Option(help: ArgumentHelp("path, heat or points.", valueName: "layer"))
    var layer = "path"

    @Option(help: ArgumentHelp("Basemap tiles: a URL template with {z}/{x}/{y}; 'none' for the offline base only.", valueName: "url"))
    var tiles = "https://tile.openstreetmap.org/{z}/{x}/{y}.png"

    @Option(help: ArgumentHelp("Where fetched basemap tiles are kept.", valueName: "dir"))
    var tileCache = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-tiles").path

    @Option(help: ArgumentHelp("The offline world base's outline file (built by `make world`).",
                               discussion: "Default: $TRAVELOG_WORLD, else world.tlworld beside the default database, else in PREFIX/share/travelog (make install), else .build-data/world.tlworld in the current folder.",
                               valueName: "file"))
    var world: String?

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("The PNG file to write.", valueName: "file"))
    var output: String

    @Flag(help: "Print the projection as JSON.")
    var json = false

    @Flag(help: "Draw the range's photos as pins, grouped where they crowd (\"12 photos\"), as the page's map does.")
    var photos = false

    /// What `--json` prints: the image and how a map point maps to its pixels (as the API's
    /// `X-Travelog-Map-Rect` and `X-Travelog-Pixels-Per-Map-Point` headers).
    struct Projection: Encodable {
        var width: Int
        var height: Int
        var zoomLevel: Int
        /// x, y, width, height in map points.
        var mapRect: [Double]
        var pixelsPerMapPoint: Double
        var basemap: String
        var fixes: Int
        var pins: Int
        /// Of the pins, those of photos (`--photos`).
        var photoPins: Int
    }

    func options() throws -> MapSnapshotter.Options {
        var options = MapSnapshotter.Options()
        try options.setPlace(region: region, view: view)
        (options.widthPoints, options.heightPoints) = try MapSnapshotter.Options.size(parsing: size)
        options.pixelScale = try MapSnapshotter.Options.scale(parsing: scale)
        options.layer = try MapSnapshotter.Options.layer(parsing: layer)
        return options
    }

    func validate() throws {
        do { _ = try options() } catch { throw ValidationError("\(error)") }
    }

    func run() async throws {
        let store = try await storeOptions.openStore()
        let user = try await account.resolveUser(in: store, createIfEmpty: false)
        let devices = try await account.devices(named: device, of: user, in: store)
        let loaded = try await HistoryIndexLoader.load(store: store, userID: user.id, devices: devices,
                                                       from: range.fromDate, to: range.toDate)
        let visitPins = try await HistoryIndexLoader.pins(store: store, userID: user.id, devices: devices,
                                                          from: range.fromDate, to: range.toDate)
        let snapshotter = MapSnapshotter(options: try options())
        let (projection, zoom) = try snapshotter.plan(index: loaded.index, filter: .init())
        var photoPins: [MapPin] = []
        if photos {
            guard let photoStore = store as? any PhotoStore else { throw ValidationError("this store keeps no photos") }
            let taken = try await photoStore.photoPins(PhotoQuery(userID: user.id, from: range.fromDate, to: range.toDate))
            photoPins = PhotoClusters(photos: taken, zoom: zoom).clusters.map { MapPin(coordinate: $0.coordinate, title: $0.title) }
        }
        let pins = visitPins + photoPins
        var images: [Tile: Data]?
        let basemap = TileServerBasemap(urlTemplate: tiles, cacheDirectory: URL(fileURLWithPath: tileCache))
        if tiles != "none" {
            images = await basemap.images(for: MapSnapshotter.basemapTiles(for: projection, zoomLevel: zoom))
        }
        let worldPath = GazetteerOptions.worldBasePath(option: world)
        if worldPath == nil { FileHandle.standardError.write(Data("note: \(GazetteerOptions.missingWorldBase())\n".utf8)) }
        let outlines = worldPath.flatMap { try? WorldOutlines(contentsOf: $0) }
        let snapshot = try snapshotter.snapshot(index: loaded.index, filter: .init(), pins: pins, outlines: outlines,
                                                basemapTiles: images, tileAttribution: basemap.attribution)
        try snapshot.pngData.write(to: URL(fileURLWithPath: output), options: .atomic)
        let rect = snapshot.projection.mapRect
        if json {
            let answer = Projection(width: snapshot.widthPixels, height: snapshot.heightPixels, zoomLevel: snapshot.zoomLevel,
                                    mapRect: [rect.minX, rect.minY, rect.width, rect.height],
                                    pixelsPerMapPoint: snapshot.projection.pixelsPerMapPoint, basemap: snapshot.basemap.rawValue,
                                    fixes: loaded.index.fixCount, pins: pins.count, photoPins: photoPins.count)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(answer), as: UTF8.self))
        } else {
            print("wrote \(output): \(snapshot.widthPixels)×\(snapshot.heightPixels) px, zoom \(snapshot.zoomLevel), "
                  + "\(loaded.index.fixCount) fixes, \(pins.count) pins\(photos ? " (\(photoPins.count) of photos)" : ""), basemap \(snapshot.basemap.rawValue)")
        }
    }
}
