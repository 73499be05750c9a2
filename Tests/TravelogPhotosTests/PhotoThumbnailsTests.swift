import Foundation
import Testing
import TravelogTestSupport
@testable import TravelogPhotos

@Suite("photos' thumbnails (libvips)")
struct PhotoThumbnailsTests {
    typealias B = ExifJPEGBuilder

    /// The size of a JPEG as Exiv2 reads it.
    static func size(_ url: URL) throws -> (width: Int?, height: Int?) {
        let metadata = try PhotoMetadataReader.read(path: url.path)
        return (metadata.pixelWidth, metadata.pixelHeight)
    }

    @Test("orientation 6 is applied (64×48 stored, 48×64 shown), a small image is never enlarged, and both are made once")
    func upright() throws {
        var builder = ExifJPEGBuilder()
        builder.ifd0 = [(B.orientation, .short(6))]
        let data = builder.decodableJPEG()
        let thumbnails = PhotoThumbnails(directory: TestDirectory.makeFolder("thumbnails"))
        try thumbnails.make(digest: "ab12", data: data, path: "turned.jpg")
        for size in PhotoThumbnails.Size.allCases {
            let url = thumbnails.url(digest: "ab12", size: size)
            #expect(url.path.hasSuffix("/ab/ab12-\(size.rawValue).jpg"))
            let (width, height) = try Self.size(url)
            #expect(width == 48 && height == 64)
        }
        let small = try Data(contentsOf: thumbnails.url(digest: "ab12", size: .small))
        #expect(small.starts(with: [0xFF, 0xD8]))
        let made = try FileManager.default.attributesOfItem(atPath: thumbnails.url(digest: "ab12", size: .large).path)[.modificationDate] as? Date
        try thumbnails.make(digest: "ab12", data: Data("no longer decoded: cached".utf8), path: "turned.jpg")
        let again = try FileManager.default.attributesOfItem(atPath: thumbnails.url(digest: "ab12", size: .large).path)[.modificationDate] as? Date
        #expect(made == again)
        let mode = try FileManager.default.attributesOfItem(atPath: thumbnails.url(digest: "ab12", size: .large).deletingLastPathComponent().path)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test("a JPEG without pixels and bytes that are no image are refused with libvips's reason, nothing cached")
    func undecodable() throws {
        let thumbnails = PhotoThumbnails(directory: TestDirectory.makeFolder("thumbnails"))
        for (name, data) in [("header-only.jpg", ExifJPEGBuilder().jpeg()), ("text.jpg", Data("hello".utf8))] {
            #expect {
                try thumbnails.make(digest: "cd34", data: data, path: name)
            } throws: { error in
                guard case .undecodable(let path, let message)? = error as? PhotoThumbnails.Failure else { return false }
                return path == name && !message.isEmpty
            }
            #expect(!thumbnails.exist(digest: "cd34"))
        }
    }

    @Test("real photos: HEIC and a JPEG of orientation 6 become upright thumbnails within their sizes; a truncated HEIC is refused",
          .enabled(if: BuildData.exists("photos/pillow-heif/xiaomi.heic"), BuildData.absentReason("photos", goal: "photo-samples", checks: "real HEIC and JPEG files")))
    func realPhotos() throws {
        let thumbnails = PhotoThumbnails(directory: TestDirectory.makeFolder("thumbnails"))
        for name in ["pillow-heif/xiaomi.heic", "pillow/hopper_orientation_6.jpg", "pillow/flower.webp", "pillow/exif.png"] {
            let path = BuildData.path("photos/" + name)
            let metadata = try PhotoMetadataReader.read(path: path)
            try thumbnails.make(digest: metadata.contentDigest, data: PhotoMetadataReader.contents(path: path), path: path)
            let turned = (5...8).contains(metadata.orientation ?? 1)
            let (storedWidth, storedHeight) = try (#require(metadata.pixelWidth), #require(metadata.pixelHeight))
            let (width, height) = turned ? (storedHeight, storedWidth) : (storedWidth, storedHeight)
            for size in PhotoThumbnails.Size.allCases {
                let (thumbWidth, thumbHeight) = try Self.size(thumbnails.url(digest: metadata.contentDigest, size: size))
                let (w, h) = try (#require(thumbWidth), #require(thumbHeight))
                #expect(max(w, h) == min(size.longSidePixels, max(width, height)), "\(name) \(size)")
                // The shape is kept (to a pixel of rounding), the long side where it was.
                #expect((w >= h) == (width >= height), "\(name) \(size): \(w)×\(h) of \(width)×\(height)")
            }
        }
        let truncated = BuildData.path("photos/pillow-heif/truncated.heic")
        #expect(throws: PhotoThumbnails.Failure.self) {
            try thumbnails.make(digest: "truncated", data: PhotoMetadataReader.contents(path: truncated), path: truncated)
        }
    }
}
