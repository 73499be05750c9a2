import Foundation
import Testing
import TravelogCore

@Suite("Location plausibility")
struct LocationPlausibilityTests {
    static let now = Date(timeIntervalSince1970: 1_750_000_000)
    static let limits = LocationPlausibility()

    static func fix(altitude: Double? = 34, accuracy: Double = 5, speed: Double = 1.4, course: Double = 90,
                    at time: Date = now) -> Location {
        Location(coordinate: Coordinate(validLatitude: 52.5, longitude: 13.4)!, altitudeMeters: altitude,
                 horizontalAccuracyMeters: accuracy, verticalAccuracyMeters: 3, speedMetersPerSecond: speed,
                 courseDegrees: course, timestamp: time)
    }

    @Test("speed 0, course 0, accuracy 1 and latitude 0 are ordinary values, kept as they are")
    func zerosAndOnes() throws {
        var fix = Self.fix(altitude: 0, accuracy: 1, speed: 0, course: 0)
        fix.coordinate = Coordinate(validLatitude: 0, longitude: 0)!
        #expect(try Self.limits.checked(fix, now: Self.now) == fix)
    }

    @Test("accuracy 0 or below means invalid and becomes -1, as in Core Location; -1 speed and course stay unknown")
    func unknownMarkers() throws {
        let checked = try Self.limits.checked(Self.fix(accuracy: 0, speed: -1, course: -1), now: Self.now)
        #expect(checked.horizontalAccuracyMeters == -1)
        #expect(checked.speedMetersPerSecond == -1)
        #expect(checked.courseDegrees == -1)
        #expect(try Self.limits.checked(Self.fix(course: 360), now: Self.now).courseDegrees == 0)
    }

    @Test("absurd values are refused, naming the field and the range",
          arguments: [
            (fix(altitude: 1e308), "altitude"), (fix(altitude: -501), "altitude"), (fix(accuracy: 1e20), "horizontalAccuracy"),
            (fix(speed: 2000.5), "speed"), (fix(speed: 1e308), "speed"), (fix(course: 361), "course"),
          ])
    func absurdValues(fix: Location, field: String) {
        #expect {
            try Self.limits.checked(fix, now: Self.now)
        } throws: { error in
            guard case .outOfRange(let named, _, _) = error as? ImplausibleLocation else { return false }
            return named.rawValue == field && "\(error)".contains(field)
        }
    }

    @Test("times before 1990 or more than a day ahead are refused; the earliest time can be moved for old history")
    func times() throws {
        #expect(throws: ImplausibleLocation.self) { try Self.limits.checked(Self.fix(at: Date(timeIntervalSince1970: 0)), now: Self.now) }
        #expect(throws: ImplausibleLocation.self) {
            try Self.limits.checked(Self.fix(at: Self.now.addingTimeInterval(86_401)), now: Self.now)
        }
        #expect(throws: ImplausibleLocation.self) {
            try Self.limits.checked(Self.fix(at: Date(timeIntervalSince1970: 253_402_300_799)), now: Self.now)  // 9999-12-31
        }
        let hourAhead = Self.fix(at: Self.now.addingTimeInterval(3600))
        #expect(try Self.limits.checked(hourAhead, now: Self.now) == hourAhead)
        let old = Self.fix(at: Date(timeIntervalSince1970: 400_000_000))  // 1982
        #expect(try LocationPlausibility(earliest: Date(timeIntervalSince1970: 0)).checked(old, now: Self.now) == old)
        let message = "\(LocationPlausibility.init().checkedError(old))"
        #expect(message.contains("1982-09-04T") && message.contains("1990-01-01T00:00:00Z"), "\(message)")
    }

    @Test("sanitizing turns what checking refuses into unknown and keeps the rest")
    func sanitized() {
        let poisoned = Self.fix(altitude: 1e308, accuracy: 1e20, speed: 1e20, course: 1e20)
        let clean = Self.limits.sanitized(poisoned)
        #expect(clean.altitudeMeters == nil && clean.horizontalAccuracyMeters == -1)
        #expect(clean.speedMetersPerSecond == -1 && clean.courseDegrees == -1)
        #expect(Self.limits.sanitized(Self.fix()) == Self.fix())
    }
}

extension LocationPlausibility {
    /// The error checking `location` throws (a test's shorthand).
    func checkedError(_ location: Location) -> any Error {
        do {
            _ = try checked(location, now: LocationPlausibilityTests.now)
            return CancellationError()
        } catch {
            return error
        }
    }
}
