import Foundation
import HTTPTypes
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogJournal
import TravelogPhotos
import TravelogStore

/// The user's photos (issue 32): `GET /api/v1/photos?from=&to=&bbox=` (by instant, with position
/// and how it was placed), `GET /api/v1/photos/{id}` (metadata), `GET /api/v1/photos/{id}/thumbnail?size=small|large`
/// (JPEG, upright), `GET /api/v1/photos/{id}/original` (the file as added), `POST /api/v1/photos` (one file, as the raw body with `?filename=` or as
/// `multipart/form-data`; kept in the server's photo folder) and `DELETE /api/v1/photos/{id}`.
/// Another user's photo is a 404, as an unknown one.
struct PhotoRoutes {
    let store: any TravelogStore
    /// The photo folder (`thumbnails/`, `originals/USER/`); `nil`: uploads are refused (503).
    let folder: URL?
    let placeTimeZones: PlaceTimeZones?
    /// The largest photo accepted, bytes.
    static let uploadLimitBytes = 512 << 20

    func add(to router: RouteRegistry) {
        router.get("/api/v1/photos") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            let limit = try request.integerQuery("limit", in: 1...200_000, default: 100_000)
            let found = try await photos().photos(PhotoQuery(userID: identity.user.id, from: parameters.from, to: parameters.to,
                                                             box: parameters.area, limit: limit))
            let devices = try await deviceNames(identity.user.id)
            return try Response.json(PhotoListJSON(photos: found.map { PhotoJSON($0, devices: devices) }))
        }
        router.get("/api/v1/photos/clusters") { request, context in try await clusters(request, context) }
        router.get("/api/v1/photos/times") { request, context in
            let identity = try context.requireIdentity()
            let parameters = try await ReadParameters(request, identity: identity, store: store)
            let pins = try await photos().photoPins(PhotoQuery(userID: identity.user.id, from: parameters.from, to: parameters.to))
            return try Response.json(PhotoTimesJSON(pins))
        }
        router.get("/api/v1/photos/{id}") { _, context in
            let identity = try context.requireIdentity()
            let photo = try await photo(context, identity)
            return try Response.json(PhotoJSON(photo, devices: try await deviceNames(identity.user.id), full: true))
        }
        router.get("/api/v1/photos/{id}/thumbnail") { request, context in
            let identity = try context.requireIdentity()
            let photo = try await photo(context, identity)
            return try Self.thumbnail(photo, size: request.query("size"), folder: folder)
        }
        router.get("/api/v1/photos/{id}/original") { _, context in
            let identity = try context.requireIdentity()
            let photo = try await photo(context, identity)
            let path = photo.record.path
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue,
                  FileManager.default.isReadableFile(atPath: path) else {
                throw APIError.notFound("photo \(photo.id): its file \((path as NSString).lastPathComponent) is no longer where it was added from")
            }
            var headers = HTTPFields()
            headers[.contentType] = photo.record.mimeType
            headers[.contentDisposition] = FileDownload.disposition("inline", fileName: (path as NSString).lastPathComponent)
            headers[.cacheControl] = "private, max-age=86400"
            return FileDownload.streamed(path: path, headers: headers)
        }
        router.post("/api/v1/photos") { request, context in try await upload(request, context) }
        router.delete("/api/v1/photos/{id}") { _, context in
            let identity = try context.requirePerson()
            let photo = try await photo(context, identity)
            guard let deleted = try await photos().deletePhoto(id: photo.id, userID: identity.user.id) else {
                throw APIError.notFound("no photo \(photo.id)")
            }
            if deleted.record.uploaded { try? FileManager.default.removeItem(atPath: deleted.record.path) }
            return Response(status: .noContent)
        }
    }

    /// A photo's thumbnail (`size` small or large, default small) as a JPEG answer; a large one made
    /// on first view needs the original, and when that is moved or gone the small one stands in.
    /// The owner's route and a share link's use it.
    static func thumbnail(_ photo: StoredPhoto, size name: String?, folder: URL?) throws -> Response {
        let name = name ?? "small"
        guard let size = PhotoThumbnails.Size(rawValue: name) else {
            throw APIError.badRequest("size '\(name)': expected small (256 px) or large (1280 px)")
        }
        guard let folder else { throw APIError.notFound("this server keeps no photo folder") }
        let thumbnails = PhotoFolder(root: folder).thumbnails
        let file: URL
        do {
            file = try thumbnails.file(digest: photo.record.digest, size: size, originalPath: photo.record.path)
        } catch {
            let small = thumbnails.url(digest: photo.record.digest, size: .small)
            guard size == .large, FileManager.default.fileExists(atPath: small.path) else {
                throw APIError.notFound("no thumbnail of photo \(photo.id): \(error)")
            }
            file = small
        }
        let data = try Data(contentsOf: file)
        // The same id is the same content: private, and kept a day.
        return Response.bytes(data, contentType: "image/jpeg", extraHeaders: [.cacheControl: "private, max-age=86400"])
    }

    /// `GET /api/v1/photos/clusters?from=&to=&zoom=&bbox=`: the range's photos grouped for a map at
    /// `zoom` (``PhotoClusters``), those inside `bbox` (the view) listed, with the range's counts and
    /// bounds: what the page draws when a range holds too many photos to pin each one.
    func clusters(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        let parameters = try await ReadParameters(request, identity: identity, store: store)
        let zoom = try request.integerQuery("zoom", in: 0...PhotoClusters.deepestZoom, default: 0)
        let store = try photos()
        let pins = try await store.photoPins(PhotoQuery(userID: identity.user.id, from: parameters.from, to: parameters.to))
        let grouped = PhotoClusters(photos: pins, zoom: zoom, view: parameters.area)
        // The whole records of the photos shown: each cluster's newest.
        let shown = Dictionary(uniqueKeysWithValues: try await store.photos(ids: grouped.clusters.map(\.newest.id), userID: identity.user.id)
            .map { ($0.id, $0) })
        let devices = try await deviceNames(identity.user.id)
        return try Response.json(PhotoClustersJSON(grouped, shown: shown, zoom: zoom, devices: devices))
    }

    /// `POST /api/v1/photos`: 201 with the photo, 200 when the user has it already, 422 saying why a
    /// file is not a photo or cannot be decoded (nothing kept).
    func upload(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requirePerson()
        guard let folder else { throw APIError.http(status: .serviceUnavailable, "this server keeps no photo folder") }
        let body = try await SpooledBody(request, limitBytes: Self.uploadLimitBytes)
        let contentType = request.headers[.contentType] ?? ""
        let file: UploadedFile
        if FormParameters.mediaType(of: contentType) == "multipart/form-data" {
            let form = try UploadForm(body: body, contentType: contentType, maximumParts: 4)
            guard form.files.count == 1, let only = form.files.first else {
                throw APIError.badRequest("send one photo per request (the form holds \(form.files.count) files)")
            }
            file = only
        } else {
            let name = request.query("filename").map { ($0 as NSString).lastPathComponent } ?? "upload"
            file = UploadedFile(name: name.isEmpty ? "upload" : name, byteRange: 0..<body.byteCount)
        }
        let data = Data(body.bytes(in: file.byteRange, limit: file.byteRange.count))
        guard !data.isEmpty else { throw APIError.badRequest("\(file.name): the file is empty") }
        var zoneAt: (@Sendable (Coordinate) -> TimeZone?)?
        if let zones = placeTimeZones { zoneAt = { zones.timeZone(at: $0) } }
        let history = PhotoStoreHistory(store: store, userID: identity.user.id, deviceIDs: nil, zoneAt: zoneAt)
        let library = PhotoLibrary(store: try photos(), userID: identity.user.id, deviceID: nil, geotagger: PhotoGeotagger(),
                                   history: history, folder: PhotoFolder(root: folder))
        let devices = try await deviceNames(identity.user.id)
        switch try await library.upload(data: data, name: file.name) {
        case .added(let photo): return try Response.json(PhotoJSON(photo, devices: devices, full: true), status: .created)
        case .known(let photo), .moved(let photo): return try Response.json(PhotoJSON(photo, devices: devices, full: true))
        case .skipped(_, let reason): throw APIError.http(status: .unprocessableContent, reason)
        }
    }

    func photos() throws(APIError) -> any PhotoStore {
        guard let photos = store as? any PhotoStore else { throw .notFound("this store keeps no photos") }
        return photos
    }

    /// The user's photo named by the path, else a 404 (another user's too).
    func photo(_ context: TravelogRequestContext, _ identity: Identity) async throws -> StoredPhoto {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the photo id must be a number") }
        guard let photo = try await photos().photo(id: PhotoID(rawValue: id), userID: identity.user.id) else {
            throw APIError.notFound("no photo \(id)")
        }
        return photo
    }

    func deviceNames(_ userID: UserID) async throws -> [DeviceID: String] {
        Dictionary(try await store.devices(userID: userID).map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }
}

/// `GET /api/v1/photos/times`: every photo of a range with a capture time, by time then id, as two
/// columns (ids, and times in milliseconds since 1970): what the journal places in its timeline and
/// entries when the range holds too many photos to list whole (100,000 photos: about 2 MB).
struct PhotoTimesJSON: Encodable {
    var ids: [Int64] = []
    var times: [Int64] = []

    init(_ pins: [PhotoPin]) {
        let timed = pins.compactMap { pin in pin.takenAt.map { (id: pin.id.rawValue, time: StoragePrecision.milliseconds($0)) } }
            .sorted { ($0.time, $0.id) < ($1.time, $1.id) }
        ids = timed.map(\.id)
        times = timed.map(\.time)
    }
}

struct PhotoListJSON: Encodable {
    var photos: [PhotoJSON]
}

/// ``PhotoClusters`` as the API gives them.
struct PhotoClustersJSON: Encodable {
    var zoom: Int
    var total: Int
    var placed: Int
    var bounds: BoxJSON?
    var clusters: [ClusterJSON]

    struct BoxJSON: Encodable {
        var south, west, north, east: Double
        init(_ box: CoordinateBox) { (south, west, north, east) = (box.south, box.west, box.north, box.east) }
    }

    struct ClusterJSON: Encodable {
        var latitude: Double
        var longitude: Double
        var count: Int
        /// The newest photo of the cluster (the only one when `count` is 1).
        var newest: PhotoJSON
        var bounds: BoxJSON
    }

    /// - Parameter shown: the newest photos' whole records (a photo deleted meanwhile leaves its cluster out).
    init(_ grouped: PhotoClusters, shown: [PhotoID: StoredPhoto], zoom: Int, devices: [DeviceID: String]) {
        self.zoom = zoom
        total = grouped.total
        placed = grouped.placed
        bounds = grouped.bounds.map(BoxJSON.init)
        clusters = grouped.clusters.compactMap { cluster in
            shown[cluster.newest.id].map {
                ClusterJSON(latitude: cluster.coordinate.latitude, longitude: cluster.coordinate.longitude, count: cluster.count,
                            newest: PhotoJSON($0, devices: devices), bounds: BoxJSON(cluster.box))
            }
        }
    }

    enum CodingKeys: String, CodingKey { case zoom, total, placed, bounds, clusters }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(zoom, forKey: .zoom)
        try container.encode(total, forKey: .total)
        try container.encode(placed, forKey: .placed)
        try container.encode(bounds, forKey: .bounds)  // null when no photo is placed, as the schema says
        try container.encode(clusters, forKey: .clusters)
    }
}

/// One photo as the API gives it; `full` adds what the viewer shows (camera, file, altitude…).
struct PhotoJSON: Encodable {
    var id: Int64
    var time: String?
    var latitude: Double?
    var longitude: Double?
    /// `own-gps`, `interpolated`, `visit` or `unplaced`.
    var placement: String
    var accuracyMeters: Double?
    var unplacedReason: String?
    /// As shown, the orientation applied.
    var width: Int?
    var height: Int?
    var device: String?
    var cameraTime: String?
    var offsetSource: String?
    var altitudeMeters: Double?
    var directionDegrees: Double?
    var camera: String?
    var mimeType: String?
    var byteCount: Int?
    var fileName: String?
    var uploaded: Bool?
    var sha256: String?
    var addedAt: String?

    enum CodingKeys: String, CodingKey {
        case id, time, latitude, longitude, placement, width, height, device, camera, uploaded, sha256
        case accuracyMeters = "accuracy_m", unplacedReason = "unplaced_reason", cameraTime = "camera_time"
        case offsetSource = "offset_source", altitudeMeters = "altitude_m", directionDegrees = "direction_deg"
        case mimeType = "mime_type", byteCount = "byte_count", fileName = "file_name", addedAt = "added_at"
    }

    init(_ photo: StoredPhoto, devices: [DeviceID: String], full: Bool = false) {
        let record = photo.record
        id = photo.id.rawValue
        time = record.takenAt.map(ISO8601TimeFormatter.string)
        latitude = record.coordinate?.latitude
        longitude = record.coordinate?.longitude
        placement = record.positionSource.rawValue
        accuracyMeters = record.accuracyMeters
        unplacedReason = record.unplacedReason
        let turned = (5...8).contains(record.orientation ?? 1)
        (width, height) = turned ? (record.pixelHeight, record.pixelWidth) : (record.pixelWidth, record.pixelHeight)
        device = record.deviceID.flatMap { devices[$0] }
        guard full else { return }
        cameraTime = record.cameraTime
        offsetSource = record.offsetSource
        altitudeMeters = record.altitudeMeters
        directionDegrees = record.directionDegrees
        let camera = [record.cameraMake, record.cameraModel].compactMap { $0 }.joined(separator: " ")
        self.camera = camera.isEmpty ? nil : camera
        mimeType = record.mimeType
        byteCount = record.byteCount
        fileName = (record.path as NSString).lastPathComponent
        uploaded = record.uploaded
        sha256 = record.digest
        addedAt = ISO8601TimeFormatter.string(record.addedAt)
    }
}
