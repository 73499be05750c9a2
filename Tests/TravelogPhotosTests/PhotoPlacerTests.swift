import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport
@testable import TravelogPhotos

@Suite("placing photos by the history")
struct PhotoPlacerTests {
    static let helsinki = try! Coordinate(latitude: 60.1699, longitude: 24.9384)
    static let espoo = try! Coordinate(latitude: 60.2055, longitude: 24.6559)

    static func fix(_ coordinate: Coordinate, _ seconds: Double, accuracy: Double = 5) -> Location {
        Location(coordinate: coordinate, horizontalAccuracyMeters: accuracy, timestamp: Date(timeIntervalSince1970: seconds))
    }

    @Test("a photo between two fixes is on the geodesic at its share of the time")
    func interpolates() throws {
        let placement = PhotoPlacer().place(at: Date(timeIntervalSince1970: 1075), before: Self.fix(Self.helsinki, 1000),
                                            after: Self.fix(Self.espoo, 1300, accuracy: 12))
        guard case .interpolated(let coordinate, let accuracy, _, _) = placement else { Issue.record("\(placement)"); return }
        let whole = Self.helsinki.distanceMeters(to: Self.espoo)
        // A quarter of the way, on the geodesic: the distances add up to the whole (GeographicLib's direct problem).
        #expect(abs(Self.helsinki.distanceMeters(to: coordinate) - whole / 4) < 1e-6)
        #expect(abs(coordinate.distanceMeters(to: Self.espoo) - 3 * whole / 4) < 1e-6)
        #expect(abs(accuracy - (12 + whole / 4)) < 1e-6)
    }

    @Test("a photo at a fix's time is at that fix, as sure as it")
    func atFix() {
        let placement = PhotoPlacer().place(at: Date(timeIntervalSince1970: 1000), before: Self.fix(Self.helsinki, 1000),
                                            after: Self.fix(Self.helsinki, 1000))
        #expect(placement == .interpolated(coordinate: Self.helsinki, accuracyMeters: 5, before: Date(timeIntervalSince1970: 1000),
                                           after: Date(timeIntervalSince1970: 1000)))
    }

    @Test("fixes further apart than --max-gap refuse, at the limit they place")
    func maxGap() {
        let placer = PhotoPlacer(maxGapSeconds: 300)
        let at = Date(timeIntervalSince1970: 1100)
        #expect(placer.place(at: at, before: Self.fix(Self.helsinki, 1000), after: Self.fix(Self.espoo, 1300)).coordinate != nil)
        let refused = placer.place(at: at, before: Self.fix(Self.helsinki, 1000), after: Self.fix(Self.espoo, 1301))
        #expect(refused == .unplaced(.gapTooLong(before: Date(timeIntervalSince1970: 1000), after: Date(timeIntervalSince1970: 1301),
                                                 maxGapSeconds: 300)))
        #expect("\(PhotoPlacementRefusal.gapTooLong(before: Date(timeIntervalSince1970: 1000), after: Date(timeIntervalSince1970: 1301), maxGapSeconds: 300))"
                == "the fixes around it are 301 s apart, more than --max-gap 300 s")
    }

    @Test("before the first fix and after the last there is nothing to place by")
    func ends() {
        let placer = PhotoPlacer()
        #expect(placer.place(at: Date(timeIntervalSince1970: 900), before: nil, after: Self.fix(Self.helsinki, 1000))
                == .unplaced(.noFixBefore(nextFixAfterSeconds: 100)))
        #expect(placer.place(at: Date(timeIntervalSince1970: 1100), before: Self.fix(Self.helsinki, 1000), after: nil)
                == .unplaced(.noFixAfter(lastFixBeforeSeconds: 100)))
    }

    @Test("inside a visit the visit's centre is used, whatever the gap")
    func visit() {
        let visit = PhotoPlacer.Visit(arrival: Date(timeIntervalSince1970: 0), departure: Date(timeIntervalSince1970: 10_000),
                                      center: Self.espoo, radiusMeters: 40)
        let placement = PhotoPlacer().place(at: Date(timeIntervalSince1970: 5000), before: Self.fix(Self.helsinki, 100),
                                            after: Self.fix(Self.helsinki, 9000), visits: [visit])
        #expect(placement.coordinate == Self.espoo && placement.accuracyMeters == 40)
    }

    @Test("the camera's clock: option, zone (with daylight saving), the photo's own offset, then the history's zone")
    func cameraClock() async throws {
        // 2024-07-01 12:00:00 on the camera.
        let clock = try CivilDateTime(year: 2024, month: 7, day: 1, hour: 12, minute: 0, second: 0)
        let noon = 1_719_835_200.0   // 2024-07-01T12:00:00Z
        let bare = PhotoCaptureTime(clock: clock, utcOffsetSeconds: nil)
        let noZone: (Date) async throws -> TimeZone? = { _ in nil }
        let helsinki = try #require(TimeZone(identifier: "Europe/Helsinki"))
        #expect(try await CameraClock.offset(seconds: 7200).instant(of: bare, zoneNear: noZone)?.instant == Date(timeIntervalSince1970: noon - 7200))
        // Helsinki keeps +03:00 in July.
        #expect(try await CameraClock.zone(helsinki).instant(of: bare, zoneNear: noZone)?.instant == Date(timeIntervalSince1970: noon - 10_800))
        let withOffset = PhotoCaptureTime(clock: clock, utcOffsetSeconds: -14_400)
        let own = try await CameraClock.automatic.instant(of: withOffset, zoneNear: noZone)
        #expect(own?.instant == Date(timeIntervalSince1970: noon + 14_400) && own?.source == .photo)
        #expect(try await CameraClock.automatic.instant(of: bare, zoneNear: noZone) == nil)
        let fromHistory = try await CameraClock.automatic.instant(of: bare, zoneNear: { _ in helsinki })
        #expect(fromHistory?.instant == Date(timeIntervalSince1970: noon - 10_800) && fromHistory?.source == .history)
        #expect(CameraClock.offsetSeconds("+0530") == 19_800 && CameraClock.offsetSeconds("Z") == 0 && CameraClock.offsetSeconds("5") == nil)
    }

    @Test("geotagging: a photo with its own position is left alone, one without a time says so")
    func geotagger() async throws {
        struct Track: PhotoHistory {
            let fixes: [Location]
            func fixes(around instant: Date) async throws -> (before: Location?, after: Location?) {
                (fixes.last { $0.timestamp <= instant }, fixes.first { $0.timestamp >= instant })
            }
            func visits(holding instant: Date) async throws -> [PhotoPlacer.Visit] { [] }
            func timeZone(near instant: Date) async throws -> TimeZone? { TimeZone(identifier: "UTC") }
        }
        let track = Track(fixes: [Self.fix(Self.helsinki, 1_700_000_000), Self.fix(Self.espoo, 1_700_000_200)])
        typealias B = ExifJPEGBuilder
        var untagged = ExifJPEGBuilder()
        untagged.exif = [(B.dateTimeOriginal, .ascii("2023:11:14 22:15:00"))]   // 1_700_000_100 in UTC
        let placed = try await PhotoGeotagger().geotag(try PhotoMetadataReader.read(data: untagged.jpeg(), path: "a.jpg"), history: track)
        #expect(placed.offsetSource == .history && placed.instant == Date(timeIntervalSince1970: 1_700_000_100))
        let coordinate = try #require(placed.placement?.coordinate)
        #expect(abs(coordinate.distanceMeters(to: Self.helsinki) - coordinate.distanceMeters(to: Self.espoo)) < 1e-6)
        let own = try await PhotoGeotagger().geotag(PhotoMetadataReaderTests.southWestPhoto().jpeg().withPath("b.jpg"), history: track)
        #expect(own.placement == nil && own.metadata?.position != nil)
        let timeless = try await PhotoGeotagger().geotag(ExifJPEGBuilder().jpeg().withPath("c.jpg"), history: track)
        #expect(timeless.placement == .unplaced(.noCaptureTime))
    }
}

private extension Data {
    func withPath(_ path: String) throws -> PhotoMetadata { try PhotoMetadataReader.read(data: self, path: path) }
}
