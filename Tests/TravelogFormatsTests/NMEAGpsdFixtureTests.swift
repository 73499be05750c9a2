import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Our fixes against gpsd's own decoding of real receiver logs (../shared/fixtures/gpsd/nmea:
/// each `.log` and the `.log.chk` gpsd produced from it by `gpsfake`).
///
/// Every gpsd epoch (a TPV with mode ≥ 2, a position and a time) must be one of our fixes, at the
/// same millisecond and within 1e-9° (gpsd prints 9 decimals, so its rounding alone is 5e-10°),
/// with the same altitude above mean sea level when gpsd gives one (to its 4 decimals).
/// We have a few fixes gpsd has no time for; each must be one of two gpsd habits, checked here:
/// - gpsd reported the position without a time: the first fix after acquisition (or of a log),
///   whose date gpsd only trusts from the next cycle; we date it from its own RMC or ZDA, or from
///   the next date (held back).
/// - gpsd reports an epoch when the next one begins, so the last epoch of a log, or of a capture
///   before the time jumps back (bt451.log joins two), never gets a TPV.
/// One exception, listed in `dateShiftDays` with its reason.
@Suite("NMEA against gpsd's decoding", .enabled(if: SharedFixtures.available, SharedFixtures.absentReason))
struct NMEAGpsdFixtureTests {
    struct GpsdFixes {
        /// By time, as gpsd prints it (ISO, milliseconds).
        var timed: [String: Coordinate] = [:]
        /// Altitude above mean sea level by time, metres (the last TPV of the epoch that has one).
        var altitudes: [String: Double] = [:]
        /// Positions gpsd reported with a fix but without a time.
        var untimed: [Coordinate] = []
    }

    /// Logs whose gpsd times are shifted from the receiver's dates, in days to add to gpsd's.
    /// - neo-m8n.log: gpsd dates it 2034-11-01, 1024 GPS weeks after what its RMCs say (`180315`)
    ///   and after its header (`# Date = 2015-03-18`): gpsd's own week-rollover guess, not the
    ///   receiver's. We keep the receiver's date.
    static let dateShiftDays = ["neo-m8n.log": -(1024 * 7)]

    /// gpsd prints 9 decimals of a degree.
    static let toleranceDegrees = 1e-9

    static func gpsdFixes(_ url: URL, shiftDays: Int) throws -> GpsdFixes {
        let text = try String(decoding: Data(contentsOf: url), as: UTF8.self)
        var fixes = GpsdFixes()
        for line in text.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let mode = object["mode"] as? Int, mode >= 2,
                  let latitude = object["lat"] as? Double, let longitude = object["lon"] as? Double,
                  let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { continue }
            if let time = object["time"] as? String {
                let key = shiftDays == 0 ? time : shifted(time, days: shiftDays)
                fixes.timed[key] = coordinate
                if let altitude = object["altMSL"] as? Double { fixes.altitudes[key] = altitude }
            } else {
                fixes.untimed.append(coordinate)
            }
        }
        return fixes
    }

    static func shifted(_ time: String, days: Int) -> String {
        guard let date = CivilDate(isoDate: String(time.prefix(10))), case let moved = date.adding(days: days) else { return time }
        return moved.description + time.dropFirst(10)
    }

    static var logs: [String] {
        let folder = SharedFixtures.url("gpsd/nmea")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".log") && names.contains($0 + ".chk") }.sorted()
    }

    struct Agreement {
        var gpsdEpochs = 0
        var matched = 0
        var unmatched: [String] = []
        var untimedByGpsd = 0
        var lastOfCapture = 0
        var unexplained: [String] = []
    }

    static func agreement(_ log: String) throws -> Agreement {
        let url = SharedFixtures.url("gpsd/nmea/" + log)
        let gpsd = try gpsdFixes(URL(fileURLWithPath: url.path + ".chk"), shiftDays: dateShiftDays[log] ?? 0)
        let ours = NMEATestSupport.locations(try NMEATestSupport.records(file: url))
        var result = Agreement(gpsdEpochs: gpsd.timed.count)
        let times = ours.map { NMEATestSupport.isoMilliseconds($0.timestamp) }
        func near(_ a: Coordinate, _ b: Coordinate) -> Bool {
            abs(a.latitude - b.latitude) <= toleranceDegrees && abs(a.longitude - b.longitude) <= toleranceDegrees
        }
        for (index, location) in ours.enumerated() {
            if let theirs = gpsd.timed[times[index]] {
                let altitudeAgrees = gpsd.altitudes[times[index]].map { theirs in
                    location.altitudeMeters.map { abs($0 - theirs) <= 0.5e-4 + 1e-9 } ?? false  // gpsd prints 4 decimals
                } ?? true
                if near(location.coordinate, theirs) && altitudeAgrees {
                    result.matched += 1
                } else {
                    result.unmatched.append("\(times[index]): ours \(location.coordinate) \(location.altitudeMeters ?? .nan), "
                                            + "gpsd \(theirs) \(gpsd.altitudes[times[index]] ?? .nan)")
                }
            } else if gpsd.untimed.contains(where: { near($0, location.coordinate) }) {
                result.untimedByGpsd += 1
            } else if index == ours.count - 1 || ours[index + 1].timestamp < location.timestamp {
                result.lastOfCapture += 1
            } else {
                result.unexplained.append(times[index])
            }
        }
        let missing = Set(gpsd.timed.keys).subtracting(times)
        result.unmatched += missing.sorted().map { "\($0): gpsd only" }
        return result
    }

    @Test("every gpsd fix is ours, at the same time and position; our extra fixes are gpsd's habits",
          arguments: logs)
    func log(_ log: String) throws {
        let agreement = try Self.agreement(log)
        #expect(agreement.matched == agreement.gpsdEpochs, "\(agreement.unmatched.prefix(5))")
        #expect(agreement.unmatched.isEmpty, "\(agreement.unmatched.prefix(5))")
        #expect(agreement.unexplained.isEmpty, "\(agreement.unexplained.prefix(5))")
    }

    /// The figures in the report: 35 logs, 653 gpsd epochs, all matched.
    @Test("agreement over all logs")
    func total() throws {
        var total = Agreement()
        for log in Self.logs {
            let agreement = try Self.agreement(log)
            total.gpsdEpochs += agreement.gpsdEpochs
            total.matched += agreement.matched
            total.untimedByGpsd += agreement.untimedByGpsd
            total.lastOfCapture += agreement.lastOfCapture
        }
        print("gpsd logs \(Self.logs.count), gpsd epochs \(total.gpsdEpochs), matched \(total.matched), "
              + "ours without gpsd time: first fixes \(total.untimedByGpsd), last of a capture \(total.lastOfCapture)")
        #expect(Self.logs.count == 35)
        #expect(total.gpsdEpochs == 653)
        #expect(total.matched == 653)
    }
}
