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

    /// The image as PNG bytes.
    /// - Throws: ``RenderError/cairoFailed(status:operation:)``.
    public func pngData() throws(RenderError) -> Data {
        cairo_surface_flush(surface)
        let writer = PNGByteWriter()
        let status = withExtendedLifetime(writer) {
            cairo_surface_write_to_png_stream(surface, { closure, bytes, length in
                guard let closure, let bytes else { return CAIRO_STATUS_WRITE_ERROR }
                Unmanaged<PNGByteWriter>.fromOpaque(closure).takeUnretainedValue().data.append(bytes, count: Int(length))
                return CAIRO_STATUS_SUCCESS
            }, Unmanaged.passUnretained(writer).toOpaque())
        }
        try Self.check(status, "encode a PNG image")
        return writer.data
    }

    /// The pixels row by row from the top, four bytes each (red, green, blue, alpha), with
    /// straight alpha: what a PNG of the canvas holds.
    public func rgbaBytes() -> [UInt8] {
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        guard let data = cairo_image_surface_get_data(surface) else { return [] }
        var bytes = [UInt8](repeating: 0, count: widthPixels * heightPixels * 4)
        for row in 0..<heightPixels {
            let line = UnsafeRawPointer(data + row * stride).assumingMemoryBound(to: UInt32.self)
            for column in 0..<widthPixels {
                let pixel = line[column]  // premultiplied ARGB in native byte order
                let alpha = Int(pixel >> 24)
                let target = (row * widthPixels + column) * 4
                bytes[target + 3] = UInt8(alpha)
                guard alpha > 0 else { continue }
                for (offset, shift) in [(0, 16), (1, 8), (2, 0)] as [(Int, UInt32)] {
                    let premultiplied = Int((pixel >> shift) & 0xFF)
                    bytes[target + offset] = UInt8(min(255, (premultiplied * 255 + alpha / 2) / alpha))
                }
            }
        }
        return bytes
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

/// Collects what cairo's PNG writer hands out.
private final class PNGByteWriter {
    var data = Data()
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
