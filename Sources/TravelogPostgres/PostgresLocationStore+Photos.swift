import Foundation
import PostgresNIO
import TravelogCore
import TravelogStore

extension PostgresLocationStore: PhotoStore {
    public func addPhoto(_ record: PhotoRecord, userID: UserID) async throws(StoreError) -> (photo: StoredPhoto, added: Bool) {
        let record = record.rounded
        return try await transaction("adding a photo") { connection -> (photo: StoredPhoto, added: Bool) in
            guard try await connection.run("SELECT 1 FROM users WHERE id = \(userID.rawValue)", logger: logger).collect().count == 1 else {
                throw StoreError.unknownUser(userID)
            }
            if let deviceID = record.deviceID {
                let owners = try await connection.run("SELECT user_id FROM devices WHERE id = \(deviceID.rawValue)", logger: logger).collect()
                guard let owner = owners.first, try owner.decode(Int64.self) == userID.rawValue else { throw StoreError.unknownDevice(deviceID) }
            }
            // A concurrent add of the same digest: ON CONFLICT leaves the first, which is then read.
            let inserted = try await connection.run("""
                INSERT INTO photos (user_id, device_id, digest, path, uploaded, mime_type, byte_count, width, height, orientation,
                    camera_make, camera_model, camera_time, taken_at_ms, offset_source, latitude_e7, longitude_e7, altitude_m,
                    direction_deg, accuracy_m, placement, unplaced_reason, added_at_ms)
                VALUES (\(userID.rawValue), \(record.deviceID?.rawValue), \(record.digest), \(record.path), \(record.uploaded),
                    \(record.mimeType), \(Int64(record.byteCount)), \(record.pixelWidth.map(Int32.init(clamping:))),
                    \(record.pixelHeight.map(Int32.init(clamping:))), \(record.orientation.map(Int32.init(clamping:))),
                    \(record.cameraMake), \(record.cameraModel), \(record.cameraTime), \(record.takenAt.map(StoragePrecision.milliseconds)),
                    \(record.offsetSource), \(record.coordinate.map { StoragePrecision.e7($0.latitude) }),
                    \(record.coordinate.map { StoragePrecision.e7($0.longitude) }), \(record.altitudeMeters), \(record.directionDegrees),
                    \(record.accuracyMeters), \(record.positionSource.rawValue), \(record.unplacedReason),
                    \(StoragePrecision.milliseconds(record.addedAt)))
                ON CONFLICT (user_id, digest) DO NOTHING RETURNING id
                """, logger: logger).collect()
            if let row = inserted.first {
                return (StoredPhoto(id: PhotoID(rawValue: try row.decode(Int64.self)), userID: userID, record: record), true)
            }
            let kept = try await connection.run("""
                SELECT \(unescaped: Self.photoColumns) FROM photos WHERE user_id = \(userID.rawValue) AND digest = \(record.digest)
                """, logger: logger).collect()
            return (try Self.photo(Self.decodeFirst(kept, "adding a photo")), false)
        }
    }

    public func photo(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        let found = try await rows("reading a photo", """
            SELECT \(unescaped: Self.photoColumns) FROM photos WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue)
            """)
        return try found.first.map(Self.photo)
    }

    public func photos(_ query: PhotoQuery) async throws(StoreError) -> [StoredPhoto] {
        try await rows("listing photos", Self.photoSelect(Self.photoColumns, query, ordered: true)).map(Self.photo)
    }

    public func photoPins(_ query: PhotoQuery) async throws(StoreError) -> [PhotoPin] {
        var whole = query
        whole.limit = nil
        return try await rows("listing photo pins", Self.photoSelect("id, taken_at_ms, latitude_e7, longitude_e7", whole, ordered: false))
            .map { row throws(StoreError) in
                let (id, taken, latitude, longitude) = try Self.decode(row, as: (Int64, Int64?, Int64?, Int64?).self, "reading a photo pin")
                return PhotoPin(id: PhotoID(rawValue: id), takenAt: taken.map(StoragePrecision.date(milliseconds:)),
                                coordinate: latitude.flatMap { latitude in longitude.flatMap {
                                    Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: $0))
                                } })
            }
    }

    /// The photos of a query, these columns (the list's and the pins'), by instant when `ordered`.
    static func photoSelect(_ columns: String, _ query: PhotoQuery, ordered: Bool) -> PostgresQuery {
        let from = query.from.map(StoragePrecision.milliseconds)
        let to = query.to.map(StoragePrecision.milliseconds)
        let (south, north) = (query.box.map { StoragePrecision.e7($0.south) }, query.box.map { StoragePrecision.e7($0.north) })
        let (west, east) = (query.box.map { StoragePrecision.e7($0.west) }, query.box.map { StoragePrecision.e7($0.east) })
        let limit = query.limit.map { Int64(max(0, $0)) }
        return """
            SELECT \(unescaped: columns) FROM photos
            WHERE user_id = \(query.userID.rawValue)
              AND (\(from)::bigint IS NULL OR taken_at_ms >= \(from))
              AND (\(to)::bigint IS NULL OR taken_at_ms < \(to))
              AND (\(south)::bigint IS NULL OR latitude_e7 BETWEEN \(south) AND \(north))
              AND (\(west)::bigint IS NULL OR CASE WHEN \(west) <= \(east) THEN longitude_e7 BETWEEN \(west) AND \(east)
                                               ELSE longitude_e7 >= \(west) OR longitude_e7 <= \(east) END)
            \(unescaped: ordered ? "ORDER BY taken_at_ms IS NULL, taken_at_ms, id" : "")
            LIMIT \(limit)
            """
    }

    public func photos(ids: [PhotoID], userID: UserID) async throws(StoreError) -> [StoredPhoto] {
        let unique = Set(ids.map(\.rawValue)).sorted()
        guard !unique.isEmpty else { return [] }
        return try await rows("reading photos", """
            SELECT \(unescaped: Self.photoColumns) FROM photos WHERE user_id = \(userID.rawValue) AND id = ANY(\(unique)) ORDER BY id
            """).map(Self.photo)
    }

    public func relocatePhoto(id: PhotoID, userID: UserID, path: String) async throws(StoreError) -> Bool {
        try await rows("moving a photo", """
            UPDATE photos SET path = \(path) WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) RETURNING 1
            """).count == 1
    }

    public func deletePhoto(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        let deleted = try await rows("deleting a photo", """
            DELETE FROM photos WHERE id = \(id.rawValue) AND user_id = \(userID.rawValue) RETURNING \(unescaped: Self.photoColumns)
            """)
        return try deleted.first.map(Self.photo)
    }

    static let photoColumns = """
        id, user_id, device_id, digest, path, uploaded, mime_type, byte_count, width, height, orientation, camera_make, camera_model,
        camera_time, taken_at_ms, offset_source, latitude_e7, longitude_e7, altitude_m, direction_deg, accuracy_m, placement,
        unplaced_reason, added_at_ms
        """

    /// A row of `photoColumns`.
    static func photo(_ row: PostgresRow) throws(StoreError) -> StoredPhoto {
        let (id, user, device, digest, path, uploaded, mimeType, byteCount, width, height, orientation, make, model, cameraTime,
             taken, offsetSource, latitude, longitude, altitude, direction, accuracy, placement, reason, added) = try decode(
            row, as: (Int64, Int64, Int64?, String, String, Bool, String, Int64, Int32?, Int32?, Int32?, String?, String?, String?,
                      Int64?, String?, Int64?, Int64?, Double?, Double?, Double?, String, String?, Int64).self, "reading a photo")
        let coordinate = latitude.flatMap { latitude in
            longitude.flatMap { Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: $0)) }
        }
        let record = PhotoRecord(
            digest: digest, path: path, uploaded: uploaded, deviceID: device.map(DeviceID.init(rawValue:)), mimeType: mimeType,
            byteCount: Int(byteCount), pixelWidth: width.map(Int.init), pixelHeight: height.map(Int.init),
            orientation: orientation.map(Int.init), cameraMake: make, cameraModel: model, cameraTime: cameraTime,
            takenAt: taken.map(StoragePrecision.date(milliseconds:)), offsetSource: offsetSource, coordinate: coordinate,
            altitudeMeters: altitude, directionDegrees: direction, accuracyMeters: accuracy,
            positionSource: PhotoPositionSource(rawValue: placement) ?? .unplaced, unplacedReason: reason,
            addedAt: StoragePrecision.date(milliseconds: added))
        return StoredPhoto(id: PhotoID(rawValue: id), userID: UserID(rawValue: user), record: record)
    }
}
