import Foundation
import Testing
import TravelogRender

/// Compares a canvas with a committed PNG made by this renderer, with a tolerance: cairo's
/// antialiasing may differ by a few levels between pixman builds, so a pixel may differ by up to
/// `channelTolerance` in any channel, and up to `outlierShare` of the pixels by more (measured:
/// the same cairo 1.16 / pixman 0.42 build gives identical bytes; the margin is for others).
/// `TRAVELOG_UPDATE_GOLDENS=1 swift test …` writes the images anew (then look at them).
enum GoldenImage {
    static let channelTolerance = 12
    static let outlierShare = 0.002

    static var directory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    }

    /// The share of pixels differing by more than the tolerance, and the largest difference.
    static func difference(_ canvas: Canvas, _ golden: Canvas) -> (share: Double, largest: Int) {
        let a = canvas.rgbaBytes(), b = golden.rgbaBytes()
        var outliers = 0, largest = 0
        for pixel in stride(from: 0, to: a.count, by: 4) {
            var worst = 0
            for channel in 0..<4 {
                // Colour does not matter where both are (nearly) transparent.
                if channel < 3 && a[pixel + 3] < 8 && b[pixel + 3] < 8 { continue }
                worst = max(worst, abs(Int(a[pixel + channel]) - Int(b[pixel + channel])))
            }
            largest = max(largest, worst)
            if worst > channelTolerance { outliers += 1 }
        }
        return (Double(outliers) / Double(a.count / 4), largest)
    }

    static func expectMatches(_ canvas: Canvas, _ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name + ".png")
        if ProcessInfo.processInfo.environment["TRAVELOG_UPDATE_GOLDENS"] == "1" {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try canvas.pngData().write(to: url)
            return
        }
        let golden = try Canvas(png: try Data(contentsOf: url))
        #expect(golden.widthPixels == canvas.widthPixels && golden.heightPixels == canvas.heightPixels,
                sourceLocation: sourceLocation)
        guard golden.widthPixels == canvas.widthPixels, golden.heightPixels == canvas.heightPixels else { return }
        let (share, largest) = difference(canvas, golden)
        if share > outlierShare {
            let failed = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-actual.png")
            try? canvas.pngData().write(to: failed)
            Issue.record("\(name): \(share * 100)% of pixels differ by more than \(channelTolerance) (largest \(largest)); the image is at \(failed.path)",
                         sourceLocation: sourceLocation)
        }
    }
}
