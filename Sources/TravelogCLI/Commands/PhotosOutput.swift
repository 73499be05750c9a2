import Foundation
import TravelogCore
import TravelogFormats
import TravelogPhotos

/// One photo in `travelog photos read|geotag --json`. Keys are left out when there is nothing to say.
struct PhotoJSON: Encodable {
    var file: String
    var sha256: String?
    var mimeType: String?
    var width: Int?
    var height: Int?
    var orientation: Int?
    var make: String?
    var model: String?
    /// The camera's clock as written, "2024-05-07T09:33:04.046" (no zone).
    var cameraTime: String?
    var cameraOffset: String?
    var gpsTime: String?
    /// The photo's instant in UTC (geotag: after the camera's offset is known).
    var time: String?
    var offsetSource: String?
    var latitude: Double?
    var longitude: Double?
    var altitudeMeters: Double?
    var directionDegrees: Double?
    var horizontalErrorMeters: Double?
    /// geotag: `own-gps`, `interpolated`, `visit`, or absent when not placed.
    var placed: String?
    var accuracyMeters: Double?
    /// geotag: why a photo was not placed.
    var reason: String?
    var ignoredTags: [String]?
    var error: String?
    /// geotag --xmp: the sidecar written, or why not.
    var sidecar: String?
    var sidecarError: String?
    /// geotag --write: the photo written and its kept original, or why it was not written.
    var written: String?
    var original: String?
    var writeError: String?

    enum CodingKeys: String, CodingKey {
        case file, sha256, width, height, orientation, make, model, time, latitude, longitude, placed, reason, error
        case mimeType = "mime_type", cameraTime = "camera_time", cameraOffset = "camera_offset", gpsTime = "gps_time"
        case offsetSource = "offset_source", altitudeMeters = "altitude_m", directionDegrees = "direction_deg"
        case horizontalErrorMeters = "horizontal_error_m", accuracyMeters = "accuracy_m", ignoredTags = "ignored_tags"
        case sidecar, sidecarError = "sidecar_error", written, original, writeError = "write_error"
    }

    init(file: String, error: String) {
        self.file = file
        self.error = error
    }

    init(_ metadata: PhotoMetadata) {
        file = metadata.path
        sha256 = metadata.contentDigest
        mimeType = metadata.mimeType
        width = metadata.pixelWidth
        height = metadata.pixelHeight
        orientation = metadata.orientation
        make = metadata.cameraMake
        model = metadata.cameraModel
        if let capture = metadata.captureTime {
            cameraTime = PhotoText.clock(capture)
            cameraOffset = capture.utcOffsetSeconds.map(PhotoText.offset)
            time = capture.instant.map(ISO8601TimeFormatter.string)
        }
        gpsTime = metadata.gpsTime.map(ISO8601TimeFormatter.string)
        if let position = metadata.position {
            latitude = position.coordinate.latitude
            longitude = position.coordinate.longitude
            altitudeMeters = position.altitudeMeters
            directionDegrees = position.directionDegrees
            horizontalErrorMeters = position.horizontalErrorMeters
        }
        ignoredTags = metadata.ignoredTags.isEmpty ? nil : metadata.ignoredTags.map(\.description)
    }

    init(_ result: PhotoGeotagger.Result) {
        guard let metadata = result.metadata else {
            self.init(file: result.path, error: result.error?.description ?? "unreadable")
            return
        }
        self.init(metadata)
        time = result.instant.map(ISO8601TimeFormatter.string)
        offsetSource = result.offsetSource?.rawValue
        switch result.placement {
        case nil where metadata.position != nil:
            placed = "own-gps"
        case nil:
            break
        case .interpolated(let coordinate, let accuracy, _, _)?:
            (placed, latitude, longitude, accuracyMeters) = ("interpolated", coordinate.latitude, coordinate.longitude, accuracy)
        case .visit(let coordinate, let accuracy, _, _)?:
            (placed, latitude, longitude, accuracyMeters) = ("visit", coordinate.latitude, coordinate.longitude, accuracy)
        case .unplaced(let refusal)?:
            reason = refusal.description
        }
    }

    static func encode(_ records: [PhotoJSON]) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(records), as: UTF8.self)
    }
}

/// The same for people.
enum PhotoText {
    static func clock(_ capture: PhotoCaptureTime) -> String { PhotoClockText.clock(capture) }

    static func offset(_ seconds: Int) -> String {
        String(format: "%@%02d:%02d", seconds < 0 ? "-" : "+", abs(seconds) / 3600, abs(seconds) % 3600 / 60)
    }

    static func describe(_ metadata: PhotoMetadata) -> String {
        var parts = [metadata.path + ":"]
        if let capture = metadata.captureTime {
            parts.append("taken " + clock(capture) + (capture.utcOffsetSeconds.map(offset) ?? " (camera zone unknown)"))
        } else {
            parts.append("no capture time")
        }
        if let position = metadata.position {
            parts.append(String(format: "at %.7f, %.7f", position.coordinate.latitude, position.coordinate.longitude)
                         + (position.altitudeMeters.map { String(format: ", %.1f m", $0) } ?? ""))
        } else {
            parts.append("no position")
        }
        if let width = metadata.pixelWidth, let height = metadata.pixelHeight { parts.append("\(width)×\(height)") }
        if let orientation = metadata.orientation, orientation != 1 { parts.append("orientation \(orientation)") }
        let camera = [metadata.cameraMake, metadata.cameraModel].compactMap { $0 }.joined(separator: " ")
        if !camera.isEmpty { parts.append(camera) }
        return parts.joined(separator: " ") + metadata.ignoredTags.map { "\n  ignored: \($0)" }.joined()
    }

    static func describe(_ result: PhotoGeotagger.Result) -> String {
        guard let metadata = result.metadata else { return "\(result.path): skipped: \(result.error?.description ?? "unreadable")" }
        let time = result.instant.map { " at " + ISO8601TimeFormatter.string($0) + " (\(result.offsetSource?.rawValue ?? ""))" } ?? ""
        switch result.placement {
        case nil where metadata.position != nil:
            return "\(result.path):\(time) has its own GPS position, left alone"
        case nil:
            return "\(result.path):\(time) not placed"
        case .unplaced(let refusal)?:
            return "\(result.path):\(time) not placed: \(refusal)"
        case let placement?:
            let how = if case .visit = placement { "inside a visit" } else { "between fixes" }
            return String(format: "%@:%@ placed at %.7f, %.7f ± %.0f m (%@)", result.path, time,
                          placement.coordinate?.latitude ?? .nan, placement.coordinate?.longitude ?? .nan,
                          placement.accuracyMeters ?? .nan, how)
        }
    }
}
