import Foundation
import Testing
import TravelogCore
@testable import TravelogTracking

@Suite("Heading: true, magnetic with the WMM declination, the heading filter, course from fixes")
struct HeadingTests {
    @Test("a true heading is reported as it is; the 1° filter drops smaller changes, across north too")
    func trueHeadingAndFilter() {
        var processor = HeadingProcessor(filterDegrees: 1, model: nil)
        #expect(processor.ingest(.trueHeading(degrees: 359.6, accuracyDegrees: 0.5, at: Fixes.time(0)))?.trueHeadingDegrees == 359.6)
        #expect(processor.ingest(.trueHeading(degrees: 0.4, accuracyDegrees: 0.5, at: Fixes.time(1))) == nil)
        #expect(processor.ingest(.trueHeading(degrees: 0.7, accuracyDegrees: nil, at: Fixes.time(2)))?.headingAccuracyDegrees == -1)
    }

    @Test("a magnetic heading with no known location has no true heading (-1), as CLHeading")
    func magneticWithoutLocation() {
        var processor = HeadingProcessor(filterDegrees: nil, model: nil)
        let heading = processor.ingest(.magneticHeading(degrees: 90, accuracyDegrees: 2, at: Fixes.time(0)))
        #expect(heading == Heading(magneticHeadingDegrees: 90, trueHeadingDegrees: -1, headingAccuracyDegrees: 2, timestamp: Fixes.time(0)))
    }

    @Test("a magnetic heading becomes true by adding the WMM2025 declination at the last fix",
          .enabled(if: WMMReference.available, WMMReference.absentReason))
    func magneticToTrue() throws {
        let model = try WMMReference.model()
        var processor = HeadingProcessor(filterDegrees: nil, model: model)
        let date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01
        _ = processor.ingest(.location(Location(coordinate: Coordinate(validLatitude: 46.5, longitude: 6.6)!, timestamp: date)))
        let reported = processor.ingest(.magneticHeading(degrees: 350, accuracyDegrees: nil, at: date))
        let heading = try #require(reported)
        let declination = try model.declinationDegrees(latitudeDegrees: 46.5, longitudeDegrees: 6.6, decimalYear: DecimalYear.of(date))
        #expect(declination > 1 && declination < 5)  // western Switzerland, a few degrees east
        #expect(heading.trueHeadingDegrees == Heading.normalizedDegrees(350 + declination))
    }

    @Test("course comes from the fixes once the device moved farther than their accuracy")
    func courseFromFixes() throws {
        var estimator = CourseEstimator()
        _ = estimator.ingest(Fixes.at(northMeters: 0, second: 0, accuracyMeters: 5))
        #expect(estimator.ingest(Fixes.at(northMeters: 8, second: 1, accuracyMeters: 5)).courseIfKnown == nil)
        let moving = estimator.ingest(Fixes.at(northMeters: 30, second: 2, accuracyMeters: 5))
        let course = try #require(moving.courseIfKnown)
        #expect(Heading.separationDegrees(course, 0) < 1e-6)
        #expect(moving.courseAccuracyDegrees > 0 && moving.courseAccuracyDegrees < 45)
    }

    @Test("a course the receiver reported is kept")
    func reportedCourseKept() {
        var estimator = CourseEstimator()
        _ = estimator.ingest(Fixes.at(northMeters: 0, second: 0))
        var fix = Fixes.at(northMeters: 100, second: 1)
        fix.courseDegrees = 12
        #expect(estimator.ingest(fix).courseDegrees == 12)
    }
}
