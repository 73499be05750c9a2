/// Why an image could not be drawn, encoded or read.
public enum RenderError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An image must be at least one pixel wide and high, and at most ``Canvas/maximumSidePixels``.
    case sizeOutOfRange(widthPixels: Int, heightPixels: Int)
    /// More pixels than ``MapSnapshotter/Options/maximumPixels``.
    case tooManyPixels(widthPixels: Int, heightPixels: Int)
    /// The task drawing was cancelled (its client went away).
    case cancelled
    /// cairo refused to create or draw on a surface; the value is cairo's `cairo_status_t`.
    case cairoFailed(status: UInt32, operation: String)
    /// libpng refused to encode an image; the value is libpng's message.
    case pngEncodingFailed(message: String)
    /// The bytes are not a PNG image cairo can read.
    case notAPNG(byteCount: Int)
    /// A file of world outlines is not in the format ``WorldOutlines`` reads.
    case malformedOutlines(path: String, reason: String)

    public var description: String {
        switch self {
        case let .sizeOutOfRange(width, height):
            "an image of \(width) × \(height) pixels: each side must be from 1 to \(Canvas.maximumSidePixels)"
        case let .tooManyPixels(width, height):
            "an image of \(width) × \(height) pixels: at most \(MapSnapshotter.Options.maximumPixels) pixels are drawn"
        case .cancelled: "the drawing was cancelled"
        case let .cairoFailed(status, operation): "cairo failed to \(operation) (status \(status))"
        case let .pngEncodingFailed(message): "libpng failed to encode a PNG image: \(message)"
        case let .notAPNG(count): "\(count) bytes are not a PNG image"
        case let .malformedOutlines(path, reason): "\(path) is not a world outline file: \(reason)"
        }
    }
}
