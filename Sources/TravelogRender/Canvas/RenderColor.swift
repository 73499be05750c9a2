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

    /// The colours devices are drawn in, in the order of their index (the page uses the same list).
    public static let devicePalette: [RenderColor] = [
        0x1F6FEB, 0xD1242F, 0x1A7F37, 0x8250DF, 0xBF8700, 0x0A7E8C, 0xCF222E, 0x57606A,
    ].map { RenderColor(rgb: $0) }

    /// The colour of the device with this index (the palette repeats).
    public static func device(_ index: Int) -> RenderColor {
        devicePalette[index % devicePalette.count]
    }

    /// The palette entry of a device's colour, from its name alone, so a device keeps its colour
    /// whatever the order its user's devices are listed in: FNV-1a (32 bits) of the name's UTF-16
    /// code units, modulo the palette's size. The page computes the same (journal-map.js).
    /// - Complexity: O(length of the name).
    public static func devicePaletteIndex(name: String) -> Int {
        var hash: UInt32 = 0x811C_9DC5
        for unit in name.utf16 {
            hash ^= UInt32(unit)
            hash = hash &* 0x0100_0193
        }
        return Int(hash % UInt32(devicePalette.count))
    }
}
