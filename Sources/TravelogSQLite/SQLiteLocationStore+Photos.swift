import Foundation
import GRDB
import TravelogCore
import TravelogStore

extension SQLiteLocationStore: PhotoStore {
    public func addPhoto(_ record: PhotoRecord, userID: UserID) async throws(StoreError) -> (photo: StoredPhoto, added: Bool) {
        let record = record.rounded
        return try await write("adding a photo") { db throws(StoreError) -> (photo: StoredPhoto, added: Bool) in
            do {
                guard try Int64.fetchOne(db, sql: "SELECT id FROM users WHERE id = ?", arguments: [userID.rawValue]) != nil else {
                    throw StoreError.unknownUser(userID)
                }
                if let deviceID = record.deviceID,
                   try Int64.fetchOne(db, sql: "SELECT user_id FROM devices WHERE id = ?", arguments: [deviceID.rawValue]) != userID.rawValue {
                    throw StoreError.unknownDevice(deviceID)
                }
                if let kept = try Row.fetchOne(db, sql: "SELECT \(Self.photoColumns) FROM photos WHERE user_id = ? AND digest = ?",
                                               arguments: [userID.rawValue, record.digest]) {
                    return (Self.photo(kept), false)
                }
                try db.execute(sql: """
                    INSERT INTO photos (user_id, device_id, digest, path, uploaded, mime_type, byte_count, width, height, orientation,
                        camera_make, camera_model, camera_time, taken_at_ms, offset_source, latitude_e7, longitude_e7, altitude_m,
                        direction_deg, accuracy_m, placement, unplaced_reason, added_at_ms)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, arguments: [
                        userID.rawValue, record.deviceID?.rawValue, record.digest, record.path, record.uploaded, record.mimeType,
                        record.byteCount, record.pixelWidth, record.pixelHeight, record.orientation, record.cameraMake,
                        record.cameraModel, record.cameraTime, record.takenAt.map(StoragePrecision.milliseconds), record.offsetSource,
                        record.coordinate.map { StoragePrecision.e7($0.latitude) }, record.coordinate.map { StoragePrecision.e7($0.longitude) },
                        record.altitudeMeters, record.directionDegrees, record.accuracyMeters, record.positionSource.rawValue,
                        record.unplacedReason, StoragePrecision.milliseconds(record.addedAt),
                    ])
                return (StoredPhoto(id: PhotoID(rawValue: db.lastInsertedRowID), userID: userID, record: record), true)
            } catch let error as StoreError {
                throw error
            } catch {
                throw .database(operation: "adding a photo", message: String(describing: error))
            }
        }
    }

    public func photo(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        try await read("reading a photo") { db in
            try Row.fetchOne(db, sql: "SELECT \(Self.photoColumns) FROM photos WHERE id = ? AND user_id = ?",
                             arguments: [id.rawValue, userID.rawValue]).map(Self.photo)
        }
    }

    public func photos(_ query: PhotoQuery) async throws(StoreError) -> [StoredPhoto] {
        let (conditions, arguments) = Self.photoConditions(query)
        let limit = query.limit.map { " LIMIT \(max(0, $0))" } ?? ""
        let sql = "SELECT \(Self.photoColumns) FROM photos WHERE \(conditions) "
            + "ORDER BY taken_at_ms IS NULL, taken_at_ms, id" + limit
        return try await read("listing photos") { db in
            try Row.fetchAll(db, sql: sql, arguments: arguments).map(Self.photo)
        }
    }

    public func photoPins(_ query: PhotoQuery) async throws(StoreError) -> [PhotoPin] {
        let (conditions, arguments) = Self.photoConditions(query)
        let sql = "SELECT id, taken_at_ms, latitude_e7, longitude_e7 FROM photos WHERE \(conditions)"
        return try await read("listing photo pins") { db in
            // A cursor reads each row in place: no row objects kept.
            var pins: [PhotoPin] = []
            let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
            while let row = try rows.next() {
                let taken: Int64? = row[1], latitude: Int64? = row[2], longitude: Int64? = row[3]
                pins.append(PhotoPin(id: PhotoID(rawValue: row[0]), takenAt: taken.map(StoragePrecision.date(milliseconds:)),
                                     coordinate: latitude.flatMap { latitude in longitude.flatMap {
                                         Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: $0))
                                     } }))
            }
            return pins
        }
    }

    public func photos(ids: [PhotoID], userID: UserID) async throws(StoreError) -> [StoredPhoto] {
        let unique = Set(ids.map(\.rawValue)).sorted()
        guard !unique.isEmpty else { return [] }
        return try await read("reading photos") { db in
            var found: [StoredPhoto] = []
            // SQLite's host parameters are limited (32,766 by default): in slices.
            for start in stride(from: 0, to: unique.count, by: 500) {
                let slice = Array(unique[start..<min(unique.count, start + 500)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                found += try Row.fetchAll(db, sql: "SELECT \(Self.photoColumns) FROM photos WHERE user_id = ? AND id IN (\(marks)) ORDER BY id",
                                          arguments: StatementArguments([userID.rawValue] + slice)).map(Self.photo)
            }
            return found
        }
    }

    /// The `WHERE` of a query (shared by the list and the pins).
    static func photoConditions(_ query: PhotoQuery) -> (String, StatementArguments) {
        var conditions = ["user_id = ?"]
        var arguments: [(any DatabaseValueConvertible)?] = [query.userID.rawValue]
        if let from = query.from {
            conditions.append("taken_at_ms >= ?")
            arguments.append(StoragePrecision.milliseconds(from))
        }
        if let to = query.to {
            conditions.append("taken_at_ms < ?")
            arguments.append(StoragePrecision.milliseconds(to))
        }
        if let box = query.box {
            conditions.append("latitude_e7 BETWEEN ? AND ?")
            arguments += [StoragePrecision.e7(box.south), StoragePrecision.e7(box.north)]
            conditions.append(box.west <= box.east ? "longitude_e7 BETWEEN ? AND ?" : "(longitude_e7 >= ? OR longitude_e7 <= ?)")
            arguments += [StoragePrecision.e7(box.west), StoragePrecision.e7(box.east)]
        }
        return (conditions.joined(separator: " AND "), StatementArguments(arguments))
    }

    public func relocatePhoto(id: PhotoID, userID: UserID, path: String) async throws(StoreError) -> Bool {
        try await write("moving a photo") { db throws(StoreError) -> Bool in
            try Self.execute(db, "moving a photo", "UPDATE photos SET path = ? WHERE id = ? AND user_id = ?",
                             [path, id.rawValue, userID.rawValue])
            return db.changesCount == 1
        }
    }

    public func deletePhoto(id: PhotoID, userID: UserID) async throws(StoreError) -> StoredPhoto? {
        try await write("deleting a photo") { db throws(StoreError) -> StoredPhoto? in
            do {
                guard let row = try Row.fetchOne(db, sql: "SELECT \(Self.photoColumns) FROM photos WHERE id = ? AND user_id = ?",
                                                 arguments: [id.rawValue, userID.rawValue]) else { return nil }
                try db.execute(sql: "DELETE FROM photos WHERE id = ?", arguments: [id.rawValue])
                return Self.photo(row)
            } catch {
                throw .database(operation: "deleting a photo", message: String(describing: error))
            }
        }
    }

    static let photoColumns = """
        id, user_id, device_id, digest, path, uploaded, mime_type, byte_count, width, height, orientation, camera_make, camera_model,
        camera_time, taken_at_ms, offset_source, latitude_e7, longitude_e7, altitude_m, direction_deg, accuracy_m, placement,
        unplaced_reason, added_at_ms
        """

    /// A row of `photoColumns`.
    static func photo(_ row: Row) -> StoredPhoto {
        let latitude: Int64? = row[16]
        let longitude: Int64? = row[17]
        let coordinate = latitude.flatMap { latitude in
            longitude.flatMap { Coordinate(validLatitude: StoragePrecision.degrees(e7: latitude), longitude: StoragePrecision.degrees(e7: $0)) }
        }
        let record = PhotoRecord(
            digest: row[3], path: row[4], uploaded: row[5], deviceID: (row[2] as Int64?).map(DeviceID.init(rawValue:)),
            mimeType: row[6], byteCount: row[7], pixelWidth: row[8], pixelHeight: row[9], orientation: row[10], cameraMake: row[11],
            cameraModel: row[12], cameraTime: row[13], takenAt: (row[14] as Int64?).map(StoragePrecision.date(milliseconds:)),
            offsetSource: row[15], coordinate: coordinate, altitudeMeters: row[18], directionDegrees: row[19], accuracyMeters: row[20],
            positionSource: PhotoPositionSource(rawValue: row[21]) ?? .unplaced, unplacedReason: row[22],
            addedAt: StoragePrecision.date(milliseconds: row[23]))
        return StoredPhoto(id: PhotoID(rawValue: row[0]), userID: UserID(rawValue: row[1]), record: record)
    }
}
