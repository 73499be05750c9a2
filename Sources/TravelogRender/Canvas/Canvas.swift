import CCairo
import Foundation

/// A raster image being drawn: a cairo ARGB32 image surface and its drawing context, antialiased.
///
/// Not thread-safe: a canvas belongs to the one task that draws it. Coordinates are pixels from
/// the top-left corner.
public final class Canvas {
    /// The longest side accepted, in pixels (a 16384-pixel square is 1 GiB of pixels).
    public static let maximumSidePixels = 16_384

    /// Width in pixels.
    public let widthPixels: Int
    /// Height in pixels.
    public let heightPixels: Int
    let surface: OpaquePointer
    /// The cairo context; drawing code in this module uses it directly.
    let context: OpaquePointer

    /// A transparent canvas.
    /// - Throws: ``RenderError/sizeOutOfRange(widthPixels:heightPixels:)`` or
    ///   ``RenderError/cairoFailed(status:operation:)``.
    public init(widthPixels: Int, heightPixels: Int) throws(RenderError) {
        guard (1...Self.maximumSidePixels).contains(widthPixels), (1...Self.maximumSidePixels).contains(heightPixels) else {
            throw .sizeOutOfRange(widthPixels: widthPixels, heightPixels: heightPixels)
        }
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(widthPixels), Int32(heightPixels)) else {
            throw .cairoFailed(status: 1, operation: "create an image surface")
        }
        try Self.check(cairo_surface_status(surface), "create an image surface") { cairo_surface_destroy(surface) }
        guard let context = cairo_create(surface) else {
            cairo_surface_destroy(surface)
            throw .cairoFailed(status: 1, operation: "create a drawing context")
        }
        self.widthPixels = widthPixels
        self.heightPixels = heightPixels
        self.surface = surface
        self.context = context
        cairo_set_antialias(context, CAIRO_ANTIALIAS_DEFAULT)
        cairo_set_line_cap(context, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(context, CAIRO_LINE_JOIN_ROUND)
    }

    /// A canvas holding a decoded PNG image.
    /// - Throws: ``RenderError/notAPNG(byteCount:)`` when cairo cannot read the bytes.
    public convenience init(png: Data) throws(RenderError) {
        let reader = PNGByteReader(data: png)
        let image = withExtendedLifetime(reader) {
            cairo_image_surface_create_from_png_stream({ closure, buffer, length in
                guard let closure, let buffer else { return CAIRO_STATUS_READ_ERROR }
                let reader = Unmanaged<PNGByteReader>.fromOpaque(closure).takeUnretainedValue()
                return reader.read(into: buffer, count: Int(length)) ? CAIRO_STATUS_SUCCESS : CAIRO_STATUS_READ_ERROR
            }, Unmanaged.passUnretained(reader).toOpaque())
        }
        guard let image else { throw .notAPNG(byteCount: png.count) }
        defer { cairo_surface_destroy(image) }
        guard cairo_surface_status(image) == CAIRO_STATUS_SUCCESS else { throw .notAPNG(byteCount: png.count) }
        try self.init(widthPixels: Int(cairo_image_surface_get_width(image)),
                      heightPixels: Int(cairo_image_surface_get_height(image)))
        cairo_set_source_surface(context, image, 0, 0)
        cairo_paint(context)
    }

    deinit {
        cairo_destroy(context)
        cairo_surface_destroy(surface)
    }

    /// Paints the whole canvas with a colour (replacing what is there).
    public func fill(_ color: RenderColor) {
        cairo_save(context)
        cairo_set_operator(context, CAIRO_OPERATOR_SOURCE)
        setSource(color)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Draws another canvas with its top-left corner at a pixel position, scaled by a factor.
    public func draw(_ image: Canvas, atX x: Double, y: Double, scale: Double = 1) {
        cairo_surface_flush(image.surface)
        cairo_save(context)
        cairo_translate(context, x, y)
        cairo_scale(context, scale, scale)
        cairo_set_source_surface(context, image.surface, 0, 0)
        cairo_pattern_set_filter(cairo_get_source(context), CAIRO_FILTER_GOOD)
        cairo_paint(context)
        cairo_restore(context)
    }

    /// Makes transparent every pixel for which `cleared(x, y)` holds (pixels from the top-left corner).
    public func clearPixels(where cleared: (Int, Int) -> Bool) {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return }
        let stride = Int(cairo_image_surface_get_stride(surface))
        for y in 0..<heightPixels {
            let row = data + y * stride
            for x in 0..<widthPixels where cleared(x, y) { (row + 4 * x).update(repeating: 0, count: 4) }
        }
        cairo_surface_mark_dirty(surface)
    }

    /// The image as PNG bytes (paletted when it has at most 256 distinct pixels; ``PNGEncoder``).
    /// - Throws: ``RenderError/pngEncodingFailed(message:)``.
    public func pngData() throws(RenderError) -> Data {
        try withPixels { (encoder) throws(RenderError) in try encoder.encode() }
    }

    /// The pixels row by row from the top, four bytes each (red, green, blue, alpha), with
    /// straight alpha: what a PNG of the canvas holds.
    public func rgbaBytes() -> [UInt8] {
        (try? withPixels { $0.straightRGBA() }) ?? []
    }

    /// Runs `body` on the surface's pixels, flushed.
    private func withPixels<Result>(_ body: (PNGEncoder) throws(RenderError) -> Result) throws(RenderError) -> Result {
        cairo_surface_flush(surface)
        guard let data = cairo_image_surface_get_data(surface) else {
            throw .cairoFailed(status: cairo_surface_status(surface).rawValue, operation: "read the pixels")
        }
        return try body(PNGEncoder(pixels: UnsafeRawPointer(data), widthPixels: widthPixels, heightPixels: heightPixels,
                                   strideBytes: Int(cairo_image_surface_get_stride(surface))))
    }

    func setSource(_ color: RenderColor) {
        cairo_set_source_rgba(context, color.red, color.green, color.blue, color.alpha)
    }

    static func check(_ status: cairo_status_t, _ operation: String,
                      cleanup: () -> Void = {}) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else {
            cleanup()
            throw .cairoFailed(status: status.rawValue, operation: operation)
        }
    }
}

/// Hands PNG bytes to cairo's reader in the pieces it asks for.
private final class PNGByteReader {
    let data: Data
    var offset = 0
    init(data: Data) { self.data = data }

    func read(into buffer: UnsafeMutablePointer<UInt8>, count: Int) -> Bool {
        guard offset + count <= data.count else { return false }
        data.copyBytes(to: buffer, from: data.startIndex + offset ..< data.startIndex + offset + count)
        offset += count
        return true
    }
}
