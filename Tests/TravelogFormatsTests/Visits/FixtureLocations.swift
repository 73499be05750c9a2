import Foundation
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Timed locations read from a real file with the format the detector recognises.
enum FixtureLocations {
    enum Failure: Error { case unrecognised(String) }

    /// Every timed point of the file, in file order.
    static func read(_ url: URL) throws -> [Location] {
        let handle = try FileHandle(forReadingFrom: url)
        let prefix = try handle.read(upToCount: FormatDetector.prefixLength) ?? Data()
        try handle.close()
        guard case .format(let format) = FormatDetector.detect(prefix: Array(prefix)) else {
            throw Failure.unrecognised(url.path)
        }
        var reader = try format.makeReader(source: try FileByteSource(path: url.path))
        var locations: [Location] = []
        while let record = try reader.next() {
            if case .point(let point) = record, let location = point.position.location { locations.append(location) }
        }
        return locations
    }
}
