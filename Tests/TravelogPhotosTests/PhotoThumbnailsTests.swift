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

    /// A photo as `photos add` reads it, claimed to be 4000×3000 (the fast path is for large photos;
    /// the pixels are the 64×48 ramp, the preview the 160×120 one, both 4:3).
    static func large(_ data: Data) throws -> PhotoMetadata {
        var metadata = try PhotoMetadataReader.read(data: data, path: "large.jpg")
        (metadata.pixelWidth, metadata.pixelHeight) = (4000, 3000)
        return metadata
    }

    @Test("a large JPEG that embeds a preview gets its small size from the preview (turned upright) and its large size when first asked for")
    func preview() throws {
        var builder = ExifJPEGBuilder()
        builder.ifd0 = [(B.orientation, .short(6))]
        builder.thumbnail = ExifJPEGBuilder.previewJPEG
        let data = builder.decodableJPEG()
        #expect(PhotoPreview.read(data, minLongSide: 256).map { $0.width == 160 && $0.height == 120 } == true)
        let folder = TestDirectory.makeFolder("preview-thumbnails")
        let original = folder.appendingPathComponent("large.jpg")
        try data.write(to: original)
        let thumbnails = PhotoThumbnails(directory: folder.appendingPathComponent("thumbnails"))
        #expect(try thumbnails.makeForAdding(digest: "ef56", data: data, metadata: Self.large(data)))
        let small = try Self.size(thumbnails.url(digest: "ef56", size: .small))
        #expect(small.width == 120 && small.height == 160, "the preview, never enlarged, turned by orientation 6: \(small)")
        #expect(!FileManager.default.fileExists(atPath: thumbnails.url(digest: "ef56", size: .large).path), "not made while adding")
        let large = try thumbnails.file(digest: "ef56", size: .large, originalPath: original.path)
        let shown = try Self.size(large)
        #expect(shown.width == 48 && shown.height == 64, "made from the original when first asked for: \(shown)")
        // Small photos are decoded whatever they embed: cheap, and sharper than a 160 px preview.
        #expect(try !thumbnails.makeForAdding(digest: "ab90", data: data, metadata: PhotoMetadataReader.read(data: data, path: "small.jpg")))
        #expect(thumbnails.exist(digest: "ab90"))
    }

    @Test("the preview stands in only for a whole file with a preview of its own proportions")
    func previewRefused() throws {
        var builder = ExifJPEGBuilder()
        builder.thumbnail = ExifJPEGBuilder.previewJPEG
        let data = builder.decodableJPEG()
        let metadata = try Self.large(data)
        #expect(PhotoThumbnails.smallFromPreview(data: data, metadata: metadata) != nil)
        // Cut short anywhere in its image data: no end-of-image marker, so the image is decoded (and refused).
        let scan = try #require(data.indices.last { data[$0] == 0xFF && data[$0 + 1] == 0xDA })
        for cut in [scan + 20, data.count - 40, data.count - 1] {
            #expect(PhotoThumbnails.smallFromPreview(data: data.prefix(cut), metadata: metadata) == nil, "cut at \(cut) of \(data.count)")
        }
        // A 3:2 photo with a 4:3 preview (a letterboxed thumbnail) and a photo without a preview.
        var wide = metadata
        wide.pixelWidth = 4500
        #expect(PhotoThumbnails.smallFromPreview(data: data, metadata: wide) == nil)
        #expect(PhotoThumbnails.smallFromPreview(data: ExifJPEGBuilder().decodableJPEG(), metadata: metadata) == nil)
    }

    @Test("a JPEG is whole from its start of image, through its markers and scan, to its end of image; data after it is allowed")
    func wholeJPEG() {
        let data = ExifJPEGBuilder().decodableJPEG()
        #expect(PhotoPreview.jpegIsWhole(data))
        #expect(PhotoPreview.jpegIsWhole(data + Data(repeating: 0x42, count: 1000)), "a motion photo's video after the image")
        for cut in stride(from: 0, to: data.count - 1, by: 7) { #expect(!PhotoPreview.jpegIsWhole(data.prefix(cut)), "cut at \(cut)") }
        #expect(!PhotoPreview.jpegIsWhole(ExifJPEGBuilder().jpeg()), "markers but no scan")
        #expect(!PhotoPreview.jpegIsWhole(Data("hello, not a JPEG".utf8)))
        var broken = data
        broken[2] = 0x00   // the first marker's 0xFF gone
        #expect(!PhotoPreview.jpegIsWhole(broken))
    }

    @Test("real photos with an EXIF thumbnail: Pillow's Ultra HDR phone JPEG embeds a 189×336 preview but is cut short (48 KB for 4 MP), so it is decoded; flower.jpg is small, so decoded too",
          .enabled(if: BuildData.exists("photos/pillow/ultrahdr.jpg"), BuildData.absentReason("photos", goal: "photo-samples", checks: "real JPEG previews")))
    func realPreview() throws {
        let path = BuildData.path("photos/pillow/ultrahdr.jpg")
        let data = try PhotoMetadataReader.contents(path: path)
        let metadata = try PhotoMetadataReader.read(data: data, path: path)
        #expect(metadata.pixelWidth == 1512 && metadata.pixelHeight == 2688)
        let preview = try #require(PhotoPreview.read(data, minLongSide: 256))
        #expect(preview.width == 189 && preview.height == 336)
        #expect(!PhotoPreview.jpegIsWhole(data), "its scan data ends without an end-of-image marker")
        let thumbnails = PhotoThumbnails(directory: TestDirectory.makeFolder("real-preview"))
        #expect(try !thumbnails.makeForAdding(digest: "ultrahdr", data: data, metadata: metadata))
        #expect(thumbnails.exist(digest: "ultrahdr"), "both sizes decoded (libvips fills what is missing, with warnings)")
        let flower = BuildData.path("photos/pillow/flower.jpg")
        let flowerData = try PhotoMetadataReader.contents(path: flower)
        #expect(PhotoPreview.read(flowerData, minLongSide: 256).map { $0.width == 160 && $0.height == 120 } == true)
        #expect(PhotoPreview.jpegIsWhole(flowerData))
        #expect(try !thumbnails.makeForAdding(digest: "flower", data: flowerData, metadata: PhotoMetadataReader.read(data: flowerData, path: flower)))
        #expect(thumbnails.exist(digest: "flower"))
    }
}
