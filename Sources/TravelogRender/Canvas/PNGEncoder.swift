import CPNG
import Foundation

/// Encodes cairo's premultiplied ARGB32 pixels as PNG through libpng's simplified write API,
/// tuned for map tiles: a paletted image (with transparency) when the image has at most 256
/// distinct pixels, as a one-colour path tile has, otherwise 8-bit RGBA; paletted images and
/// tiles without row filters and at a low zlib level (libpng's `PNG_IMAGE_FLAG_FAST`), which
/// writes a tile several times faster than cairo's own PNG writer at zlib's default level.
///
/// Both forms decode to the same straight-alpha pixels as ``Canvas/rgbaBytes()``.
struct PNGEncoder {
    /// The most entries a PNG palette holds.
    static let paletteCapacity = 256
    /// libpng's `PNG_FORMAT_RGBA` (a macro Swift does not import).
    static let rgba = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)

    /// The most pixels an RGBA image may have to be written fast: a tile at twice the density.
    /// Larger ones (snapshots) are written at libpng's default filters and level, half the size.
    static let fastPixelLimit = 512 * 512

    /// The pixels: `heightPixels` rows of `strideBytes` bytes, each pixel a native-endian
    /// premultiplied ARGB `UInt32`.
    let pixels: UnsafeRawPointer
    let widthPixels: Int
    let heightPixels: Int
    let strideBytes: Int

    /// The PNG bytes.
    /// - Throws: ``RenderError/pngEncodingFailed(message:)`` when libpng refuses.
    func encode() throws(RenderError) -> Data {
        if let (indices, palette) = paletted() {
            return try write(format: Self.rgba | UInt32(PNG_FORMAT_FLAG_COLORMAP), rows: indices, rowBytes: widthPixels,
                             colormap: palette, colormapEntries: palette.count / 4)
        }
        return try write(format: Self.rgba, rows: straightRGBA(), rowBytes: widthPixels * 4,
                         colormap: nil, colormapEntries: 0)
    }

    /// A palette index per pixel and the palette (straight RGBA, four bytes an entry), or `nil`
    /// when the image has more than ``paletteCapacity`` distinct pixels.
    /// - Complexity: O(pixels); a pixel equal to its left neighbour (most of a tile) costs one compare.
    func paletted() -> (indices: [UInt8], palette: [UInt8])? {
        // Open addressing over premultiplied pixel values; the slot holds index + 1 (0: empty).
        let slotCount = 1024, mask = slotCount - 1
        var keys = [UInt32](repeating: 0, count: slotCount)
        var slots = [UInt16](repeating: 0, count: slotCount)
        var palette: [UInt8] = []
        palette.reserveCapacity(Self.paletteCapacity * 4)
        var indices = [UInt8](repeating: 0, count: widthPixels * heightPixels)
        var complete = true
        indices.withUnsafeMutableBufferPointer { out in
            var previous: UInt32?, previousIndex: UInt8 = 0
            rows: for row in 0..<heightPixels {
                let line = (pixels + row * strideBytes).assumingMemoryBound(to: UInt32.self)
                for column in 0..<widthPixels {
                    let pixel = line[column]
                    if pixel != previous {
                        var slot = Int((pixel &* 0x9E37_79B1) >> 22) & mask
                        while slots[slot] != 0, keys[slot] != pixel { slot = (slot + 1) & mask }
                        if slots[slot] == 0 {
                            guard palette.count < Self.paletteCapacity * 4 else { complete = false; break rows }
                            keys[slot] = pixel
                            slots[slot] = UInt16(palette.count / 4 + 1)
                            let rgba = Self.straight(pixel)
                            palette.append(rgba.red); palette.append(rgba.green); palette.append(rgba.blue); palette.append(rgba.alpha)
                        }
                        previous = pixel
                        previousIndex = UInt8(slots[slot] - 1)
                    }
                    out[row * widthPixels + column] = previousIndex
                }
            }
        }
        return complete ? (indices, palette) : nil
    }

    /// The pixels row by row from the top, four bytes each (red, green, blue, straight alpha).
    func straightRGBA() -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: widthPixels * heightPixels * 4)
        bytes.withUnsafeMutableBufferPointer { out in
            for row in 0..<heightPixels {
                let line = (pixels + row * strideBytes).assumingMemoryBound(to: UInt32.self)
                for column in 0..<widthPixels where line[column] != 0 {
                    let rgba = Self.straight(line[column])
                    let target = (row * widthPixels + column) * 4
                    out[target] = rgba.red; out[target + 1] = rgba.green; out[target + 2] = rgba.blue; out[target + 3] = rgba.alpha
                }
            }
        }
        return bytes
    }

    /// One premultiplied ARGB pixel with straight alpha, rounded as cairo's PNG writer rounds.
    static func straight(_ pixel: UInt32) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let alpha = pixel >> 24
        guard alpha > 0 else { return (0, 0, 0, 0) }
        func channel(_ shift: UInt32) -> UInt8 {
            UInt8(min(255, (((pixel >> shift) & 0xFF) * 255 + alpha / 2) / alpha))
        }
        return (channel(16), channel(8), channel(0), UInt8(alpha))
    }

    /// Hands the rows to libpng and returns the file it writes.
    private func write(format: UInt32, rows: [UInt8], rowBytes: Int, colormap: [UInt8]?,
                       colormapEntries: Int) throws(RenderError) -> Data {
        let fast = colormap != nil || widthPixels * heightPixels <= Self.fastPixelLimit
        // Unfiltered rows, zlib's stored-block overhead, chunk headers and the palette: enough
        // in practice; libpng says how much it needs when it is not.
        var capacity = (rowBytes + 1) * heightPixels
        capacity += capacity / 1000 * 5 + 1024 + colormapEntries * 4
        var message = ""
        for _ in 0..<2 {
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            image.width = UInt32(widthPixels)
            image.height = UInt32(heightPixels)
            image.format = format
            image.flags = fast ? UInt32(PNG_IMAGE_FLAG_FAST) : 0
            image.colormap_entries = UInt32(colormapEntries)
            var output = Data(count: capacity)
            var size = capacity
            let written = output.withUnsafeMutableBytes { memory in
                rows.withUnsafeBytes { buffer in
                    colormap.withUnsafeBytes { map in
                        png_image_write_to_memory(&image, memory.baseAddress, &size, 0, buffer.baseAddress,
                                                  Int32(rowBytes), map?.baseAddress)
                    }
                }
            }
            if written != 0 {
                output.count = size
                return output
            }
            message = withUnsafeBytes(of: image.message) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            png_image_free(&image)
            guard size > capacity else { break }
            capacity = size
        }
        throw .pngEncodingFailed(message: message)
    }
}

private extension Optional where Wrapped == [UInt8] {
    /// The bytes' address for the duration of `body`, or `nil` for no array.
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer?) -> Result) -> Result {
        switch self {
        case let .some(array): array.withUnsafeBytes { body($0) }
        case .none: body(nil)
        }
    }
}
