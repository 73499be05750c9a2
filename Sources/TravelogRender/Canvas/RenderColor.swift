/// A colour with straight (not premultiplied) alpha, each component in [0, 1].
public struct RenderColor: Hashable, Sendable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    /// Creates a colour; components are clamped to [0, 1].
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = min(max(red, 0), 1)
        self.green = min(max(green, 0), 1)
        self.blue = min(max(blue, 0), 1)
        self.alpha = min(max(alpha, 0), 1)
    }

    /// A colour from a 24-bit `0xRRGGBB` value.
    public init(rgb: UInt32, alpha: Double = 1) {
        self.init(red: Double((rgb >> 16) & 0xFF) / 255, green: Double((rgb >> 8) & 0xFF) / 255,
                  blue: Double(rgb & 0xFF) / 255, alpha: alpha)
    }

    /// The same colour with another alpha.
    public func withAlpha(_ alpha: Double) -> RenderColor {
        RenderColor(red: red, green: green, blue: blue, alpha: alpha)
    }

    public static let white = RenderColor(rgb: 0xFFFFFF)
    public static let black = RenderColor(rgb: 0x000000)

    /// The colours devices are drawn in, in the order of their index: the page's twelve (colors.js),
    /// Okabe & Ito's eight without black, then Paul Tol's muted and dark ones that differ most from
    /// them, told apart with the common colour-vision deficiencies as far as twelve can be.
    public static let devicePalette: [RenderColor] = [
        0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x332288,
        0x882255, 0x117733, 0x999933, 0xAA4499, 0x44AA99,
    ].map { RenderColor(rgb: $0) }

    /// The colour of the device with this index (the palette repeats).
    public static func device(_ index: Int) -> RenderColor {
        devicePalette[index % devicePalette.count]
    }
}
