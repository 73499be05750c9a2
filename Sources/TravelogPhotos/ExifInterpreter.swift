import Foundation
import TravelogCore
import TravelogFormats

/// Turns Exiv2's tags into `PhotoMetadata`'s fields (EXIF 2.32 / CIPA DC-008 for the meanings),
/// refusing values that cannot be true and saying why in `ignoredTags`.
struct ExifInterpreter {
    let tags: [String: ExifTag]
    private var ignored: [PhotoMetadata.IgnoredTag] = []

    init(tags: [String: ExifTag]) {
        self.tags = tags
    }

    mutating func fill(_ metadata: inout PhotoMetadata) {
        metadata.cameraMake = text("Exif.Image.Make")
        metadata.cameraModel = text("Exif.Image.Model")
        if let tag = tags["Exif.Image.Orientation"] {
            if let value = tag.numbers.first, (1...8).contains(value) { metadata.orientation = Int(value) }
            else { ignore(tag, "an orientation is 1 to 8") }
        }
        metadata.captureTime = captureTime()
        metadata.gpsTime = gpsTime()
        metadata.position = position()
        metadata.ignoredTags = ignored
    }

    // MARK: Time

    private mutating func captureTime() -> PhotoCaptureTime? {
        guard let tag = tags["Exif.Photo.DateTimeOriginal"] else { return nil }
        guard let clock = Self.dateTime(tag.text) else {
            ignore(tag, "not a date and time as YYYY:MM:DD HH:MM:SS")
            return nil
        }
        var nanosecond = 0
        if let subSecond = tags["Exif.Photo.SubSecTimeOriginal"] {
            let digits = subSecond.text.trimmingCharacters(in: .whitespaces.union(.controlCharacters))
            if !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) {
                nanosecond = value * Int(pow(10, Double(9 - digits.count)))
            } else if !digits.isEmpty {
                ignore(subSecond, "not decimal digits of a second")
            }
        }
        var offset: Int?
        if let offsetTag = tags["Exif.Photo.OffsetTimeOriginal"] {
            let written = offsetTag.text.trimmingCharacters(in: .whitespaces.union(.controlCharacters))
            // "   :  " is what a camera writes that knows no zone.
            if let seconds = Self.offsetSeconds(written) { offset = seconds }
            else if !written.allSatisfy({ $0 == " " || $0 == ":" }) { ignore(offsetTag, "not an offset as ±HH:MM") }
        }
        let withSubSeconds = try? CivilDateTime(year: clock.year, month: clock.month, day: clock.day, hour: clock.hour,
                                                minute: clock.minute, second: clock.second, nanosecond: nanosecond)
        return PhotoCaptureTime(clock: withSubSeconds ?? clock, utcOffsetSeconds: offset)
    }

    private mutating func gpsTime() -> Date? {
        guard let dateTag = tags["Exif.GPSInfo.GPSDateStamp"], let timeTag = tags["Exif.GPSInfo.GPSTimeStamp"] else { return nil }
        let parts = dateTag.text.trimmingCharacters(in: .whitespaces.union(.controlCharacters)).split(separator: ":")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
              let date = CivilDate(year: year, month: month, day: day) else {
            ignore(dateTag, "not a date as YYYY:MM:DD")
            return nil
        }
        guard timeTag.numbers.count == 3, timeTag.numbers.allSatisfy({ $0.isFinite && $0 >= 0 }),
              timeTag.numbers[0] < 24, timeTag.numbers[1] < 60, timeTag.numbers[2] < 61 else {
            ignore(timeTag, "not an hour, minute and second of UTC")
            return nil
        }
        let seconds = Double(date.daysSince1970) * 86_400 + timeTag.numbers[0] * 3600 + timeTag.numbers[1] * 60 + timeTag.numbers[2]
        return Date(timeIntervalSince1970: seconds)
    }

    /// "YYYY:MM:DD HH:MM:SS" (ExifTool also takes "-" or "/" between the date's fields; so does this).
    static func dateTime(_ text: String) -> CivilDateTime? {
        let bytes = Array(text.utf8.prefix { $0 != 0 })
        guard bytes.count >= 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let separators: Set<UInt8> = [UInt8(ascii: ":"), UInt8(ascii: "-"), UInt8(ascii: "/")]
        guard separators.contains(bytes[4]), separators.contains(bytes[7]), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19) else { return nil }
        return try? CivilDateTime(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// "+08:00", "-05:30" → seconds east of UTC.
    static func offsetSeconds(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes[0] == UInt8(ascii: "+") || bytes[0] == UInt8(ascii: "-"), bytes[3] == UInt8(ascii: ":"),
              let hours = Int(String(decoding: bytes[1..<3], as: UTF8.self)),
              let minutes = Int(String(decoding: bytes[4..<6], as: UTF8.self)),
              hours <= 14, minutes < 60 else { return nil }
        let seconds = hours * 3600 + minutes * 60
        return bytes[0] == UInt8(ascii: "-") ? -seconds : seconds
    }

    // MARK: Position

    private mutating func position() -> PhotoPosition? {
        let latitudeTag = tags["Exif.GPSInfo.GPSLatitude"], longitudeTag = tags["Exif.GPSInfo.GPSLongitude"]
        guard let latitudeTag, let longitudeTag else {
            if let only = latitudeTag ?? longitudeTag { ignore(only, "the other half of the position is missing") }
            return nil
        }
        guard let latitude = degrees(latitudeTag, reference: "Exif.GPSInfo.GPSLatitudeRef", negative: "S", positive: "N", limit: 90),
              let longitude = degrees(longitudeTag, reference: "Exif.GPSInfo.GPSLongitudeRef", negative: "W", positive: "E", limit: 180),
              let coordinate = Coordinate(validLatitude: latitude, longitude: longitude) else { return nil }
        // Cameras without a fix write 0/0 or 0/1 everywhere: (0, 0) is no position.
        if latitude == 0, longitude == 0 {
            ignore(latitudeTag, "latitude and longitude are both 0 (the camera had no fix)")
            return nil
        }
        var position = PhotoPosition(coordinate: coordinate)
        if let tag = tags["Exif.GPSInfo.GPSAltitude"] {
            if let meters = tag.numbers.first, meters.isFinite, tag.numbers.count == 1 {
                let below = tags["Exif.GPSInfo.GPSAltitudeRef"]?.numbers.first == 1
                position.altitudeMeters = below ? -meters : meters
            } else {
                ignore(tag, "not one finite rational")
            }
        }
        if let tag = tags["Exif.GPSInfo.GPSImgDirection"] {
            if let value = tag.numbers.first, value.isFinite, (0...360).contains(value) {
                position.directionDegrees = value == 360 ? 0 : value
                switch text("Exif.GPSInfo.GPSImgDirectionRef")?.uppercased() {
                case "M": position.directionIsMagnetic = true
                case "T": position.directionIsMagnetic = false
                default: break
                }
            } else {
                ignore(tag, "a direction is 0 to 360 degrees")
            }
        }
        if let tag = tags["Exif.GPSInfo.GPSHPositioningError"] {
            if let meters = tag.numbers.first, meters.isFinite, meters >= 0 { position.horizontalErrorMeters = meters }
            else { ignore(tag, "not a distance in metres") }
        }
        return position
    }

    /// Degrees, minutes and seconds (each a rational; cameras put fractions in any of them) with the
    /// hemisphere's letter.
    private mutating func degrees(_ tag: ExifTag, reference: String, negative: String, positive: String, limit: Double) -> Double? {
        let parts = tag.numbers
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0.isFinite && $0 >= 0 }) else {
            ignore(tag, "not degrees, minutes and seconds")
            return nil
        }
        let value = parts[0] + (parts.count > 1 ? parts[1] / 60 : 0) + (parts.count > 2 ? parts[2] / 3600 : 0)
        guard value <= limit else {
            ignore(tag, "more than \(Int(limit)) degrees")
            return nil
        }
        let hemisphere = text(reference)?.uppercased()
        switch hemisphere {
        case negative: return -value
        case positive: return value
        default:
            // ExifTool reads a missing reference as north or east; so does this.
            return value
        }
    }

    // MARK: Plain values

    private func text(_ key: String) -> String? {
        guard let tag = tags[key] else { return nil }
        let value = tag.text.trimmingCharacters(in: .whitespaces.union(.controlCharacters))
        return value.isEmpty ? nil : value
    }

    private mutating func ignore(_ tag: ExifTag, _ reason: String) {
        ignored.append(PhotoMetadata.IgnoredTag(key: tag.key, value: String(tag.text.prefix(80)), reason: reason))
    }
}
