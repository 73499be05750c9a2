import Foundation
import TravelogFormats

/// Request bodies as the phone apps send them (shapes from PROTOCOLS.md), deterministic and with
/// a unique timestamp per point, so no point of a run is a duplicate of another.
enum ServerPayloads {
    /// The first fix's time: 2024-03-01T00:00:00Z.
    static let startEpochSeconds: Int64 = 1_709_251_200

    /// Overland batch `index`: `{"locations":[Feature…]}` with `points` Features carrying the
    /// properties the iOS app sends with its statistics on (~560 bytes a point). Point `n` of the
    /// run is at `start + n` seconds (plus a millisecond fraction).
    static func overlandBatch(index: Int, points: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(index) &+ 0x0E7A_1A4D)
        var buffer = ByteBuffer()
        var latitude = 52.52 + Double(index % 100) * 1e-3, longitude = 13.405 + Double(index / 100) * 1e-3
        buffer.append(#"{"locations":["#)
        for point in 0..<points {
            let number = Int64(index * points + point)
            latitude += (random.nextUnit() - 0.5) * 1e-4
            longitude += (random.nextUnit() - 0.5) * 1.5e-4
            if point > 0 { buffer.append(",") }
            buffer.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":["#)
            buffer.append(fixed: longitude)
            buffer.append(",")
            buffer.append(fixed: latitude)
            buffer.append(#"]},"properties":{"timestamp":""#)
            buffer.appendISO8601(milliseconds: (startEpochSeconds + number) * 1000 + Int64(random.nextUnit() * 1000))
            buffer.append(#"","altitude":"#)
            buffer.append(Int64(30 + random.nextUnit() * 20))
            buffer.append(#","speed":"#)
            buffer.append(decimal: random.nextUnit() * 15)
            buffer.append(#","horizontal_accuracy":"#)
            buffer.append(Int64(5 + random.nextUnit() * 30))
            buffer.append(#","vertical_accuracy":"#)
            buffer.append(Int64(3 + random.nextUnit() * 10))
            buffer.append(#","speed_accuracy":"#)
            buffer.append(decimal: random.nextUnit())
            buffer.append(#","course":"#)
            buffer.append(decimal: random.nextUnit() * 360)
            buffer.append(#","course_accuracy":"#)
            buffer.append(decimal: random.nextUnit() * 45)
            buffer.append(#","motion":["driving","stationary"],"battery_state":"unplugged","battery_level":0.87,"#)
            buffer.append(#""wifi":"","device_id":"bench-phone","unique_id":"5C2A7B1E-0D4F-4B8A-9E36-71F0C2D8A4B9","#)
            buffer.append(#""pauses":false,"activity":"other_navigation","desired_accuracy":100,"deferred":0,"#)
            buffer.append(#""significant_change":"disabled","locations_in_payload":"#)
            buffer.append(Int64(points))
            buffer.append("}}")
        }
        buffer.append("]}")
        return buffer.bytes
    }

    /// OwnTracks location message `index`, as the Android app posts it in HTTP mode.
    static func owntracksLocation(index: Int) -> [UInt8] {
        var random = SplitMix64(seed: UInt64(index) &+ 0x0A7C)
        var buffer = ByteBuffer()
        buffer.append(#"{"_type":"location","lat":"#)
        buffer.append(fixed: 47.3769 + Double(index) * 1e-5)
        buffer.append(#","lon":"#)
        buffer.append(fixed: 8.5417 + Double(index) * 1e-5)
        buffer.append(#","tst":"#)
        buffer.append(startEpochSeconds + Int64(index) * 10)
        buffer.append(#","tid":"ph","acc":"#)
        buffer.append(Int64(5 + random.nextUnit() * 20))
        buffer.append(#","alt":"#)
        buffer.append(Int64(400 + random.nextUnit() * 50))
        buffer.append(#","vac":3,"vel":"#)
        buffer.append(Int64(random.nextUnit() * 60))
        buffer.append(#","cog":"#)
        buffer.append(Int64(random.nextUnit() * 360))
        buffer.append(#","batt":81,"bs":1,"conn":"w","t":"u","m":1,"created_at":"#)
        buffer.append(startEpochSeconds + Int64(index) * 10 + 1)
        buffer.append("}")
        return buffer.bytes
    }
}

extension ByteBuffer {
    /// Two decimals, as the apps write speeds and courses.
    mutating func append(decimal value: Double) {
        append(FixedDecimalFormatter.string(value, decimals: 2, trimmingTrailingZeros: true))
    }
}
