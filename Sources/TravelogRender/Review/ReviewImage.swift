import CCairo
import Foundation
import TravelogCore
import TravelogStore

/// The image of a year or a month in review: a map of the period's lines on the offline world base
/// (``WorldOutlines``) with the figures beside it, as PNG or as PDF (cairo's PDF surface: the text
/// and the frame in vectors, the map as its raster). Drawn offline.
public struct ReviewImage {
    /// One figure: a label ("Distance") and its value ("1,234 km · 210 days").
    public struct Figure: Hashable, Sendable {
        public var label: String
        public var value: String
        public init(label: String, value: String) {
            self.label = label
            self.value = value
        }
    }

    /// A line of fixes in a device's colour (``RenderColor/device(_:)``).
    public struct Line: Sendable {
        public var colorIndex: Int
        public var coordinates: [Coordinate]
        public init(colorIndex: Int, coordinates: [Coordinate]) {
            self.colorIndex = colorIndex
            self.coordinates = coordinates
        }
    }

    /// A marked point (home, the furthest point) with a short label.
    public struct Marker: Sendable {
        public var coordinate: Coordinate
        public var label: String
        public init(coordinate: Coordinate, label: String) {
            self.coordinate = coordinate
            self.label = label
        }
    }

    /// The map's side and the figures' column, in points.
    public static let mapSidePoints = 900
    public static let panelWidthPoints = 560
    /// The smallest span shown, map points (about 3 km at the equator): a day at home is not a pixel.
    static let minimumSpanMapPoints = 20_000.0

    public var title: String
    public var subtitle: String
    public var figures: [Figure]
    public var lines: [Line]
    public var markers: [Marker]
    public var outlines: WorldOutlines?

    public init(title: String, subtitle: String, figures: [Figure], lines: [Line], markers: [Marker] = [], outlines: WorldOutlines?) {
        self.title = title
        self.subtitle = subtitle
        self.figures = figures
        self.lines = lines
        self.markers = markers
        self.outlines = outlines
    }

    var widthPoints: Int { Self.mapSidePoints + Self.panelWidthPoints }
    var heightPoints: Int { Self.mapSidePoints }

    /// The image as PNG, `pixelScale` pixels per point.
    public func pngData(pixelScale: Double = 1) throws(RenderError) -> Data {
        let map = try drawMap(pixelScale: pixelScale)
        let canvas = try Canvas(widthPixels: Int((Double(widthPoints) * pixelScale).rounded()),
                                heightPixels: Int((Double(heightPoints) * pixelScale).rounded()))
        canvas.fill(.white)
        canvas.draw(map, atX: 0, y: 0)
        cairo_save(canvas.context)
        cairo_scale(canvas.context, pixelScale, pixelScale)
        drawPanel(on: canvas.context)
        cairo_restore(canvas.context)
        return try canvas.pngData()
    }

    /// The image as a one-page PDF (a page of the image's size in points; the map at 2 pixels per point).
    public func pdfData() throws(RenderError) -> Data {
        let map = try drawMap(pixelScale: 2)
        let sink = PDFByteSink()
        let surface = withExtendedLifetime(sink) {
            cairo_pdf_surface_create_for_stream({ closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<PDFByteSink>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(sink).toOpaque(), Double(widthPoints), Double(heightPoints))
        }
        guard let surface else { throw .cairoFailed(status: 1, operation: "create a PDF surface") }
        try Canvas.check(cairo_surface_status(surface), "create a PDF surface") { cairo_surface_destroy(surface) }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "Travelog")
        guard let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .cairoFailed(status: 1, operation: "create a PDF drawing context")
        }
        cairo_set_source_rgb(context, 1, 1, 1)
        cairo_paint(context)
        cairo_save(context)
        cairo_scale(context, 0.5, 0.5)
        cairo_surface_flush(map.surface)
        cairo_set_source_surface(context, map.surface, 0, 0)
        cairo_paint(context)
        cairo_restore(context)
        drawPanel(on: context)
        cairo_show_page(context)
        let status = cairo_status(context)
        cairo_destroy(context)
        cairo_surface_finish(surface)
        let finished = cairo_surface_status(surface)
        cairo_surface_destroy(surface)
        try Canvas.check(status, "draw the PDF")
        try Canvas.check(finished, "write the PDF")
        return withExtendedLifetime(sink) { sink.data }
    }

    /// The map rect the lines and markers need, square, with a tenth around them (the world when empty).
    func mapRect() -> MapRect {
        let points = lines.lazy.flatMap(\.coordinates).map(MapPoint.init) + markers.map { MapPoint($0.coordinate) }
        let world = WebMercator.worldSizeMapPoints
        guard !points.isEmpty else { return MapRect(x: 0, y: world * 0.1, width: world, height: world * 0.8) }
        let bounds = MapRect(bounding: points)
        let side = min(world, max(Self.minimumSpanMapPoints, max(bounds.width, bounds.height) * 1.2))
        let x = min(max(0, bounds.midX - side / 2), world - side), y = min(max(0, bounds.midY - side / 2), world - side)
        return MapRect(x: x, y: y, width: side, height: side)
    }

    func drawMap(pixelScale: Double) throws(RenderError) -> Canvas {
        let side = Int((Double(Self.mapSidePoints) * pixelScale).rounded())
        let projection = MapProjection(mapRect: mapRect(), widthPixels: side, pixelScale: pixelScale)
        let canvas = try Canvas(widthPixels: side, heightPixels: side)
        if let outlines { outlines.draw(projection: projection, on: canvas) } else { canvas.fill(WorldBaseStyle.land) }
        // A mask per device (``LineMask``), not cairo's stroker: a year at a fix a second is one
        // line of about a million vertices, which cairo took minutes and gigabytes to stroke.
        try LineMask.stroke(lines.map { ($0.colorIndex, $0.coordinates.map(MapPoint.init)) }, lineWidthPixels: 2.5 * pixelScale,
                            projection: projection, on: canvas)
        for marker in markers {
            let point = projection.point(for: marker.coordinate)
            cairo_new_path(canvas.context)  // the last label left its end as the current point
            cairo_arc(canvas.context, point.x, point.y, 6 * pixelScale, 0, 2 * .pi)
            canvas.setSource(RenderColor(rgb: 0xC0392B))
            cairo_fill_preserve(canvas.context)
            canvas.setSource(.white)
            cairo_set_line_width(canvas.context, 2 * pixelScale)
            cairo_stroke(canvas.context)
            MapDecorations.drawText(marker.label, x: point.x + 9 * pixelScale, y: point.y + 4 * pixelScale, sizePoints: 12,
                                    scale: pixelScale, on: canvas)
        }
        MapDecorations.drawScaleBar(projection: projection, on: canvas)
        MapDecorations.drawAttribution(outlines == nil ? "Travelog" : "Travelog · Natural Earth", projection: projection, on: canvas)
        return canvas
    }

    /// The title and the figures in the column right of the map, in points.
    func drawPanel(on context: OpaquePointer) {
        let left = Double(Self.mapSidePoints) + 32, width = Double(Self.panelWidthPoints) - 56
        var y = 56.0
        func show(_ text: String, size: Double, bold: Bool, gray: Double) {
            cairo_select_font_face(context, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL)
            cairo_set_font_size(context, size)
            cairo_set_source_rgb(context, gray, gray, gray)
            for line in Self.wrap(text, width: width, context: context) {
                cairo_move_to(context, left, y)
                cairo_show_text(context, line)
                y += size * 1.3
            }
        }
        show(title, size: 30, bold: true, gray: 0.12)
        y += 4
        show(subtitle, size: 14, bold: false, gray: 0.4)
        y += 14
        for figure in figures where y < Double(heightPoints) - 30 {
            show(figure.label.uppercased(), size: 11, bold: true, gray: 0.45)
            show(figure.value, size: 15, bold: false, gray: 0.12)
            y += 10
        }
    }

    /// The text cut into lines of at most `width` points at spaces.
    static func wrap(_ text: String, width: Double, context: OpaquePointer) -> [String] {
        var lines: [String] = [], current = ""
        for word in text.split(separator: " ") {
            let candidate = current.isEmpty ? String(word) : current + " " + word
            var extents = cairo_text_extents_t()
            cairo_text_extents(context, candidate, &extents)
            if extents.x_advance > width, !current.isEmpty {
                lines.append(current)
                current = String(word)
            } else {
                current = candidate
            }
        }
        if !current.isEmpty { lines.append(current) }
        return lines.isEmpty ? [""] : lines
    }
}

/// Collects what cairo's PDF surface writes.
private final class PDFByteSink {
    var data = Data()
}

extension ReviewImage {
    /// The lines of each device in its colour (the page's and the tiles' colour of that device).
    public static func lines(_ byDevice: [DeviceID: [[Coordinate]]], devices: [Device]) -> [Line] {
        let colors = HistoryIndexLoader.colorIndices(devices)
        return byDevice.sorted { $0.key < $1.key }.flatMap { device, pieces in
            pieces.map { Line(colorIndex: colors[device] ?? 0, coordinates: $0) }
        }
    }
}
