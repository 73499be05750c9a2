import Foundation
import TravelogCore
import TravelogFormats

/// What a photo's EXIF says about when and where it was taken, read by `PhotoMetadataReader`.
/// Every field is `nil` when the file does not carry it, or carries a value that cannot be true
/// (then `ignoredTags` says which tag and why).
public struct PhotoMetadata: Hashable, Sendable {
    /// The file as it was named to the reader.
    public var path: String
    /// SHA-256 over the whole file, lower-case hexadecimal: the photo's identity (a moved file is the same photo).
    public var contentDigest: String
    public var byteCount: Int
    /// The container's MIME type as Exiv2 recognised it (`image/jpeg`, `image/heic`, `image/tiff`, …).
    public var mimeType: String
    /// The image's size in pixels as stored (before `orientation` is applied).
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// EXIF orientation, 1–8 (1: as stored; 6: turn 90° clockwise to view).
    public var orientation: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    /// `DateTimeOriginal` with `SubSecTimeOriginal` and `OffsetTimeOriginal`.
    public var captureTime: PhotoCaptureTime?
    /// `GPSDateStamp` and `GPSTimeStamp`: the receiver's UTC time of the fix, when both are present.
    public var gpsTime: Date?
    public var position: PhotoPosition?
    /// Tags that were present but could not be used.
    public var ignoredTags: [IgnoredTag]

    /// A tag present in the file whose value was refused.
    public struct IgnoredTag: Hashable, Sendable, CustomStringConvertible {
        /// Exiv2's key, e.g. `Exif.GPSInfo.GPSLatitude`.
        public var key: String
        public var value: String
        public var reason: String

        public var description: String { "\(key) = \"\(value)\": \(reason)" }
    }
}

/// When the camera's clock said the photo was taken.
public struct PhotoCaptureTime: Hashable, Sendable {
    /// The camera's wall-clock time, sub-seconds included.
    public var clock: CivilDateTime
    /// `OffsetTimeOriginal` in seconds east of UTC, when the camera wrote one.
    public var utcOffsetSeconds: Int?

    /// The wall-clock time read as if it were UTC, in seconds since 1970 (sub-seconds included).
    public var clockSecondsSince1970: Double {
        Double(clock.secondsSince1970) + Double(clock.nanosecond) / 1e9
    }

    /// The instant, with the camera's own offset.
    public var instant: Date? { utcOffsetSeconds.map(instant(utcOffsetSeconds:)) }

    /// The instant had the camera's clock kept this offset from UTC.
    public func instant(utcOffsetSeconds offset: Int) -> Date {
        Date(timeIntervalSince1970: clockSecondsSince1970 - Double(offset))
    }
}

/// Where the photo's GPS tags place it.
public struct PhotoPosition: Hashable, Sendable {
    public var coordinate: Coordinate
    /// Metres above sea level (negative below, `GPSAltitudeRef` 1).
    public var altitudeMeters: Double?
    /// `GPSImgDirection`: where the camera pointed, degrees clockwise from north, [0, 360).
    public var directionDegrees: Double?
    /// Whether `directionDegrees` is from true north (`T`) or magnetic north (`M`), as the file says.
    public var directionIsMagnetic: Bool?
    /// `GPSHPositioningError`, metres.
    public var horizontalErrorMeters: Double?
}
