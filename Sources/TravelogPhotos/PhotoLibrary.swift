import Foundation
import TravelogCore
import TravelogFormats
import TravelogStore

/// Adds photos to a user's library (`travelog photos add`, the server's uploads): reads each file
/// once, works out its instant and position (`PhotoGeotagger`: its own GPS, else placed by the
/// history, else why not), makes its thumbnails and keeps its record. A photo is its content digest:
/// adding it again stores nothing, and a moved original is followed.
public struct PhotoLibrary: Sendable {
    public let store: any PhotoStore
    public let userID: UserID
    /// The device the photos are added for (its track places them when the history is narrowed to it).
    public let deviceID: DeviceID?
    public let geotagger: PhotoGeotagger
    public let history: any PhotoHistory
    /// The thumbnails' cache and the user's uploads.
    public let folder: PhotoFolder

    public init(store: any PhotoStore, userID: UserID, deviceID: DeviceID?, geotagger: PhotoGeotagger, history: any PhotoHistory,
                folder: PhotoFolder) {
        self.store = store
        self.userID = userID
        self.deviceID = deviceID
        self.geotagger = geotagger
        self.history = history
        self.folder = folder
    }

    var thumbnails: PhotoThumbnails { folder.thumbnails }

    /// What became of one file.
    public enum Outcome: Sendable {
        case added(StoredPhoto)
        /// The user has it already (the digest is known); nothing was stored.
        case known(StoredPhoto)
        /// The user had it at another path, which is gone: the record now points here.
        case moved(StoredPhoto)
        /// Not a photo, damaged, or undecodable: named with the reason; nothing was stored.
        case skipped(path: String, reason: String)
    }

    /// Adds the file at `path`, referenced where it is.
    public func add(path: String) async throws(StoreError) -> Outcome {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
        let data: Data
        do {
            data = try PhotoMetadataReader.contents(path: path)
        } catch {
            return .skipped(path: path, reason: error.description)
        }
        return try await add(data: data, path: absolute, named: path, uploaded: false)
    }

    /// Adds an uploaded file: kept in the user's `originals/` under its digest when it is new.
    /// - Parameter name: the file's name as sent, for errors and its extension.
    public func upload(data: Data, name: String) async throws(StoreError) -> Outcome {
        let metadata: PhotoMetadata
        do {
            metadata = try PhotoMetadataReader.read(data: data, path: name)
        } catch {
            return .skipped(path: name, reason: error.description)
        }
        let originals = folder.originals(userID: userID)
        let suffix = (name as NSString).pathExtension.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        let target = originals.appendingPathComponent(metadata.contentDigest + (suffix.isEmpty ? "" : "." + suffix))
        let existed = FileManager.default.fileExists(atPath: target.path)
        do {
            try FileManager.default.createDirectory(at: originals, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            if !existed { try data.write(to: target, options: .atomic) }
        } catch {
            return .skipped(path: name, reason: "cannot be kept: \((error as NSError).localizedDescription)")
        }
        let outcome = try await add(data: data, metadata: metadata, path: target.path, uploaded: true)
        // A copy nothing refers to goes: the file was refused, or the user has the photo from elsewhere.
        switch outcome {
        case .skipped where !existed: try? FileManager.default.removeItem(at: target)
        case .known(let photo) where !existed && photo.record.path != target.path: try? FileManager.default.removeItem(at: target)
        default: break
        }
        return outcome
    }

    func add(data: Data, path: String, named: String, uploaded: Bool) async throws(StoreError) -> Outcome {
        let metadata: PhotoMetadata
        do {
            metadata = try PhotoMetadataReader.read(data: data, path: named)
        } catch {
            return .skipped(path: named, reason: error.description)
        }
        return try await add(data: data, metadata: metadata, path: path, uploaded: uploaded)
    }

    func add(data: Data, metadata: PhotoMetadata, path: String, uploaded: Bool) async throws(StoreError) -> Outcome {
        // The thumbnails first: a file whose image cannot be decoded (or, for a large JPEG whose small size
        // comes from its embedded preview, that is cut short) is skipped, nothing stored.
        do {
            try thumbnails.makeForAdding(digest: metadata.contentDigest, data: data, metadata: metadata)
        } catch {
            return .skipped(path: metadata.path, reason: error.description)
        }
        let result: PhotoGeotagger.Result
        do {
            result = try await geotagger.geotag(metadata, history: history)
        } catch let error as StoreError {
            throw error
        } catch {
            throw .database(operation: "placing a photo", message: String(describing: error))
        }
        let (photo, added) = try await store.addPhoto(Self.record(result, metadata: metadata, path: path, uploaded: uploaded,
                                                                  deviceID: deviceID), userID: userID)
        if added { return .added(photo) }
        if photo.record.path != path, !photo.record.uploaded, !FileManager.default.fileExists(atPath: photo.record.path),
           try await store.relocatePhoto(id: photo.id, userID: userID, path: path) {
            var moved = photo
            moved.record.path = path
            return .moved(moved)
        }
        return .known(photo)
    }

    /// The record of a photo read and placed.
    static func record(_ result: PhotoGeotagger.Result, metadata: PhotoMetadata, path: String, uploaded: Bool,
                       deviceID: DeviceID?) -> PhotoRecord {
        var record = PhotoRecord(
            digest: metadata.contentDigest, path: path, uploaded: uploaded, deviceID: deviceID, mimeType: metadata.mimeType,
            byteCount: metadata.byteCount, pixelWidth: metadata.pixelWidth, pixelHeight: metadata.pixelHeight,
            orientation: metadata.orientation, cameraMake: metadata.cameraMake, cameraModel: metadata.cameraModel,
            cameraTime: metadata.captureTime.map { PhotoClockText.clock($0) }, takenAt: result.instant ?? metadata.gpsTime,
            offsetSource: result.offsetSource?.rawValue ?? (result.instant == nil && metadata.gpsTime != nil ? "GPSDateStamp" : nil),
            positionSource: .unplaced, addedAt: Date())
        if let position = metadata.position {
            record.coordinate = position.coordinate
            record.altitudeMeters = position.altitudeMeters
            record.directionDegrees = position.directionDegrees
            record.accuracyMeters = position.horizontalErrorMeters
            record.positionSource = .ownGPS
            return record
        }
        switch result.placement {
        case .interpolated(let coordinate, let accuracy, _, _)?:
            (record.coordinate, record.accuracyMeters, record.positionSource) = (coordinate, accuracy, .interpolated)
        case .visit(let coordinate, let accuracy, _, _)?:
            (record.coordinate, record.accuracyMeters, record.positionSource) = (coordinate, accuracy, .visit)
        case .unplaced(let refusal)?:
            record.unplacedReason = refusal.description
        case nil:
            record.unplacedReason = "not placed"
        }
        return record
    }
}

/// The camera's clock as text, `2024-05-07T09:33:04.046` (no zone).
public enum PhotoClockText {
    public static func clock(_ capture: PhotoCaptureTime) -> String {
        let clock = capture.clock
        var text = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", clock.year, clock.month, clock.day, clock.hour, clock.minute, clock.second)
        if clock.nanosecond > 0 {
            text += "." + String(String(format: "%09d", clock.nanosecond).reversed().drop { $0 == "0" }.reversed())
        }
        return text
    }
}
