import Foundation
import TravelogCore

/// What a store keeps of a photo: where the original is, what its EXIF says, its instant and its
/// position with where that position came from. Times are kept to the millisecond, coordinates to 1e-7°.
public struct PhotoRecord: Hashable, Sendable {
    /// SHA-256 of the whole file, lower-case hexadecimal: the photo's identity for its user.
    public var digest: String
    /// The original's absolute path (an upload's: in the server's data folder).
    public var path: String
    /// Whether the file was uploaded (the server owns it and deletes it with the photo).
    public var uploaded: Bool
    /// The device whose track placed it, or that the photo was added for.
    public var deviceID: DeviceID?
    public var mimeType: String
    public var byteCount: Int
    public var pixelWidth: Int?
    public var pixelHeight: Int?
    /// EXIF orientation, 1–8.
    public var orientation: Int?
    public var cameraMake: String?
    public var cameraModel: String?
    /// The camera's clock as written, e.g. `2024-05-07T09:33:04.046` (no zone).
    public var cameraTime: String?
    /// The instant it was taken, once the camera's offset is known.
    public var takenAt: Date?
    /// Where that offset came from (`OffsetTimeOriginal`, `camera-offset`, `camera-zone`, `history-zone`).
    public var offsetSource: String?
    public var coordinate: Coordinate?
    public var altitudeMeters: Double?
    /// Where the camera pointed, degrees clockwise from north.
    public var directionDegrees: Double?
    /// The position's accuracy: `GPSHPositioningError` for its own GPS, the placer's for a placed one.
    public var accuracyMeters: Double?
    public var positionSource: PhotoPositionSource
    /// Why the history could not place it (`positionSource` `.unplaced`).
    public var unplacedReason: String?
    public var addedAt: Date

    public init(digest: String, path: String, uploaded: Bool = false, deviceID: DeviceID? = nil, mimeType: String, byteCount: Int,
                pixelWidth: Int? = nil, pixelHeight: Int? = nil, orientation: Int? = nil, cameraMake: String? = nil,
                cameraModel: String? = nil, cameraTime: String? = nil, takenAt: Date? = nil, offsetSource: String? = nil,
                coordinate: Coordinate? = nil, altitudeMeters: Double? = nil, directionDegrees: Double? = nil,
                accuracyMeters: Double? = nil, positionSource: PhotoPositionSource, unplacedReason: String? = nil, addedAt: Date) {
        self.digest = digest
        self.path = path
        self.uploaded = uploaded
        self.deviceID = deviceID
        self.mimeType = mimeType
        self.byteCount = byteCount
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.orientation = orientation
        self.cameraMake = cameraMake
        self.cameraModel = cameraModel
        self.cameraTime = cameraTime
        self.takenAt = takenAt
        self.offsetSource = offsetSource
        self.coordinate = coordinate
        self.altitudeMeters = altitudeMeters
        self.directionDegrees = directionDegrees
        self.accuracyMeters = accuracyMeters
        self.positionSource = positionSource
        self.unplacedReason = unplacedReason
        self.addedAt = addedAt
    }

    /// The record as every store returns it: times to the millisecond, the coordinate to 1e-7°.
    public var rounded: PhotoRecord {
        var copy = self
        copy.takenAt = takenAt.map { StoragePrecision.date(milliseconds: StoragePrecision.milliseconds($0)) }
        copy.addedAt = StoragePrecision.date(milliseconds: StoragePrecision.milliseconds(addedAt))
        copy.coordinate = coordinate.flatMap {
            Coordinate(validLatitude: StoragePrecision.degrees(e7: StoragePrecision.e7($0.latitude)),
                       longitude: StoragePrecision.degrees(e7: StoragePrecision.e7($0.longitude)))
        }
        return copy
    }
}

/// Where a photo's position came from.
public enum PhotoPositionSource: String, Hashable, Sendable, CaseIterable {
    /// The photo's own GPS tags.
    case ownGPS = "own-gps"
    /// Placed by the history between two fixes.
    case interpolated
    /// Placed by the history at a visit's centre.
    case visit
    /// Not placed (`unplacedReason` says why).
    case unplaced
}

/// A photo as a store returns it.
public struct StoredPhoto: Hashable, Sendable {
    public var id: PhotoID
    public var userID: UserID
    public var record: PhotoRecord

    public init(id: PhotoID, userID: UserID, record: PhotoRecord) {
        self.id = id
        self.userID = userID
        self.record = record
    }
}
