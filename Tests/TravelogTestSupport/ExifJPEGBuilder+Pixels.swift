import Foundation

extension ExifJPEGBuilder {
    /// A 64×48 grey ramp (dark on the left, light on the right) as a baseline JPEG without
    /// metadata, made with libvips: `vips xyz`, its x band, `jpegsave --Q 40 --strip`.
    static let rampJPEG = Data(base64Encoded: "/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/wAALCAAwAEABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/AONFPFSCninininipBWQKeKkFPFPFPFPFSCsgU8VIKeKeKeKeKkFZAp4qQU8U8U8U8VIKyBTxUgp4p4p4p4qQVkCnipBTxTxTxTxUgr/2Q==")!

    /// A 160×120 grey ramp as a baseline JPEG without metadata (`vips xyz`, its x band × 1.5,
    /// `jpegsave --Q 40 --strip`): the size of the preview cameras embed as the EXIF thumbnail.
    public static let previewJPEG = Data(base64Encoded: "/9j/2wBDABQODxIPDRQSEBIXFRQYHjIhHhwcHj0sLiQySUBMS0dARkVQWnNiUFVtVkVGZIhlbXd7gYKBTmCNl4x9lnN+gXz/wAALCAB4AKABAREA/8QAHwAAAQUBAQEBAQEAAAAAAAAAAAECAwQFBgcICQoL/8QAtRAAAgEDAwIEAwUFBAQAAAF9AQIDAAQRBRIhMUEGE1FhByJxFDKBkaEII0KxwRVS0fAkM2JyggkKFhcYGRolJicoKSo0NTY3ODk6Q0RFRkdISUpTVFVWV1hZWmNkZWZnaGlqc3R1dnd4eXqDhIWGh4iJipKTlJWWl5iZmqKjpKWmp6ipqrKztLW2t7i5usLDxMXGx8jJytLT1NXW19jZ2uHi4+Tl5ufo6erx8vP09fb3+Pn6/9oACAEBAAA/AOOWpVqRalWpVqValWpFqValWpVqVakWpVqValWpVqRalWpVryRalWpFqValWpVqVakWpVqValWpVqRalWpVqValWpFqValWvJFqVakWpVqValWpVqRalWpVqValWpFqValWpVqVakWpVqVa8kWpVqRalWpVqValWpFqValWpVqVakWpVqValWpVqRalWpVryRalWpFqValWpVqVakWpVqValWpVqRalWpVqValWpFqValWvJFqVakWpVqValWpVqRalWpVqValWpFqValWpVqVakWpVqVa8kWpVqRalWpVqValWpFqValWpVqVakWpVqValWpVqRalWpVryRalWpFqValWpVqVakWpVqValWpVqRalWpVqValWpFqValWvJFqVakWpVqValWpVqRalWpVqValWpFqValWpVqVakWpVqVa8kWpVqRalWpVqValWpFqValWpVqVakWpVqValWpVqRalWpVryRalWpFqValWpVqVakWpVqValWpVqRalWpVqValWpFqValWvJFqVakWpVqValWpVqRalWpVqValWpFqValWpVqVakWpVqVa8kWpVqRalWpVqValWpFqValWpVqVakWpVqValWpVqRalWpVryRalWpFqValWpVqVakWpVqValWpVqRalWpVqValWpFqValWvJFqVakWpVqValWpVqRalWpVqValWpFqValWpVqVakWpVqVa/9k=")!

    /// The same EXIF as `jpeg()` in front of real pixels (the ramp), so an image library can decode
    /// it: for thumbnails. `width` and `height` are the ramp's, 64×48.
    public func decodableJPEG() -> Data {
        let exifOnly = jpeg()
        // SOI and APP1 of the EXIF, then the ramp's segments after its own SOI.
        let app1Length = Int(exifOnly[4]) << 8 | Int(exifOnly[5])
        return exifOnly.prefix(4 + app1Length) + Self.rampJPEG.dropFirst(2)
    }
}
