import Foundation
import Testing
import TravelogCore
import TravelogTestSupport
@testable import TravelogPhotos

/// `PhotoEXIFWriter`'s refusals on real photos (`make photo-samples`); writing JPEG and TIFF is
/// checked against ExifTool by `PhotosWriteCommandTests` through the command.
@Suite("writing a position into a photo's EXIF")
struct PhotoEXIFWriterTests {
    static let samples = BuildData.path("photos") + "/pillow"

    @Test("--overwrite-original keeps no copy; an existing .original, a HEIC and a photo with GPS are refused, the file untouched")
    func refusals() throws {
        guard FileManager.default.fileExists(atPath: Self.samples) else {
            Issue.record("\(Self.samples) is absent: run `make photo-samples` (`make test` does)")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travelog-write-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fix = PhotoEXIFWriter.Fix(coordinate: try Coordinate(latitude: -33.8688, longitude: 151.2093), altitudeMeters: -3,
                                      horizontalErrorMeters: 12, time: Date(timeIntervalSince1970: 1_071_403_304.5))
        func copy(_ name: String, from sub: String = "pillow") throws -> String {
            let target = folder.appendingPathComponent(name).path
            try FileManager.default.copyItem(atPath: BuildData.path("photos") + "/\(sub)/" + name, toPath: target)
            return target
        }
        let plain = try copy("iptc.jpg")
        try PhotoEXIFWriter.write(fix, into: plain, keepOriginal: false)
        #expect(!FileManager.default.fileExists(atPath: plain + ".original"))
        let read = try PhotoMetadataReader.read(path: plain)
        #expect(try #require(read.position).coordinate.distanceMeters(to: fix.coordinate) < 1)
        #expect(read.position?.altitudeMeters == -3)

        let kept = try copy("xmp_test.jpg")
        try Data("an earlier original".utf8).write(to: URL(fileURLWithPath: kept + ".original"))
        let keptBytes = try Data(contentsOf: URL(fileURLWithPath: kept))
        #expect(throws: PhotoEXIFWriter.Failure.originalExists(path: kept)) { try PhotoEXIFWriter.write(fix, into: kept) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: kept)) == keptBytes)
        #expect(try String(contentsOfFile: kept + ".original", encoding: .utf8) == "an earlier original")

        let heic = try copy("L_exif_xmp_iptc.heic", from: "pillow-heif")
        let heicBytes = try Data(contentsOf: URL(fileURLWithPath: heic))
        do {
            try PhotoEXIFWriter.write(fix, into: heic)
            Issue.record("a HEIC was written")
        } catch {
            guard case .formatNotWritable(_, let mimeType, let reason) = error else { Issue.record("\(error)"); return }
            #expect(mimeType == "image/heic" && reason.hasPrefix("Exiv2 0.27"), "\(reason)")
            #expect(error.description.contains("--xmp"))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: heic)) == heicBytes)

        let withGPS = try copy("ifd_tag_type.tiff")
        #expect(throws: PhotoEXIFWriter.Failure.hasPosition(path: withGPS)) { try PhotoEXIFWriter.write(fix, into: withGPS) }
        let damaged = folder.appendingPathComponent("cut.jpg").path
        try Data(keptBytes.prefix(300)).write(to: URL(fileURLWithPath: damaged))
        #expect(throws: PhotoEXIFWriter.Failure.self) { try PhotoEXIFWriter.write(fix, into: damaged) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
                == ["L_exif_xmp_iptc.heic", "cut.jpg", "ifd_tag_type.tiff", "iptc.jpg", "xmp_test.jpg", "xmp_test.jpg.original"])
    }


    @Test("damaged photos (cut or with bytes changed) are refused or written, never a crash")
    func damagedInputs() throws {
        guard FileManager.default.fileExists(atPath: Self.samples) else {
            Issue.record("\(Self.samples) is absent: run `make photo-samples` (`make test` does)")
            return
        }
        let fix = PhotoEXIFWriter.Fix(coordinate: try Coordinate(latitude: 60.17, longitude: 24.94), horizontalErrorMeters: 5,
                                      time: Date(timeIntervalSince1970: 1_700_000_000))
        var random = SplitMix64(seed: 32)
        var written = 0, refused = 0
        for name in ["flower.jpg", "g4_orientation_6.tif", "exif.png", "flower.webp"] {
            let original = try Data(contentsOf: URL(fileURLWithPath: Self.samples + "/" + name))
            for round in 0..<150 {
                var bytes = [UInt8](original)
                if round % 3 == 0 {
                    bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &random)))
                } else {
                    // Bytes changed in the metadata's neighbourhood (the first 4 kB), where the parsers read.
                    for _ in 0..<Int.random(in: 1...16, using: &random) where !bytes.isEmpty {
                        bytes[Int.random(in: 0..<min(bytes.count, 4096), using: &random)] = UInt8.random(in: 0...255, using: &random)
                    }
                }
                do {
                    let output = try PhotoEXIFWriter.encode(fix, into: Data(bytes), path: name)
                    #expect(!output.isEmpty)
                    written += 1
                } catch {
                    #expect(error.description.hasPrefix(name + ": not written: "), "\(error)")
                    refused += 1
                }
            }
        }
        #expect(written + refused == 600 && refused > 0, "\(written) written, \(refused) refused")
    }
}
