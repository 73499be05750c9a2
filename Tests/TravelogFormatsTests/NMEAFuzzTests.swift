import Foundation
import Testing
import TravelogCore
import TravelogFormats
import TravelogTestSupport

/// Garbage in, no crash out: random bytes and damaged logs give points, rejections or a
/// `FormatError`, never a trap, and every point they give is a valid one.
@Suite("NMEA reader on garbage")
struct NMEAFuzzTests {

    static let sample = [
        "$GPZDA,201530.00,04,07,2002,00,00*60",
        "$GPRMC,201530.00,A,4807.038,N,01131.000,E,022.4,084.4,040702,003.1,W,A*2F",
        "$GPGGA,201530.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*61",
        "$GPGSA,A,3,04,05,,09,12,,,24,,,,,2.5,1.3,2.1*39",
        "$GPVTG,054.7,T,034.4,M,005.5,N,010.2,K*48",
        "$GPGST,201530.00,004.0,008.7,004.7,132.3,006.8,007.2,00014*49",
        "$GNGNS,201530.00,4807.038,N,01131.000,E,AAAAN,14,1.3,250.8,50.0,,,V*66",
        "$GPGLL,4807.038,N,01131.000,E,201530.00,A,A*6E",
    ].joined(separator: "\r\n") + "\r\n"

    /// Reads everything; checks that every point is well formed. A `FormatError` (odd UTF-16) is fine.
    static func check(_ bytes: [UInt8], chunk: Int) {
        guard let records = try? NMEATestSupport.records(bytes, chunk: chunk) else { return }
        for point in NMEATestSupport.points(records) {
            let coordinate = point.position.coordinate
            #expect((-90...90).contains(coordinate.latitude) && (-180...180).contains(coordinate.longitude))
            if let location = point.position.location {
                #expect(location.timestamp.timeIntervalSince1970.isFinite)
                #expect(location.courseDegrees < 360)
                #expect(location.horizontalAccuracyMeters.isFinite && location.speedMetersPerSecond.isFinite)
            }
        }
    }

    @Test("random bytes, random NMEA-looking characters", arguments: [1, 2, 3])
    func randomBytes(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let alphabet = Array("$!*,.-+0123456789ABCDEFGNPRSVWZ#{}\r\n ".utf8)
        for _ in 0..<300 {
            let length = Int.random(in: 0...600, using: &random)
            let nmeaLike = Bool.random(using: &random)
            let bytes = (0..<length).map { _ in
                nmeaLike ? alphabet.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
            }
            Self.check(bytes, chunk: Int.random(in: 1...64, using: &random))
        }
    }

    @Test("a real log with bytes flipped, inserted and deleted", arguments: [7, 8, 9])
    func damagedLog(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        let original = Array((Self.sample + Self.sample).utf8)
        for _ in 0..<300 {
            var bytes = original
            for _ in 0..<Int.random(in: 1...12, using: &random) where !bytes.isEmpty {
                let index = Int.random(in: 0..<bytes.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: bytes[index] = UInt8.random(in: 0...255, using: &random)
                case 1: bytes.insert(UInt8.random(in: 0...255, using: &random), at: index)
                default: bytes.remove(at: index)
                }
            }
            Self.check(bytes, chunk: Int.random(in: 1...4096, using: &random))
        }
    }

    @Test("the undamaged sample gives one fix and no rejection")
    func sampleIsClean() throws {
        let records = try NMEATestSupport.records(Self.sample)
        #expect(NMEATestSupport.rejections(records).isEmpty)
        #expect(NMEATestSupport.locations(records).count == 1)
    }
}
