import Foundation
import TravelogFormats
import TravelogStore

/// What a visitor of a link reads about it (`GET /api/v1/s/{token}`): what is shown and until when,
/// never whose it is.
struct SharedViewJSON: Encodable {
    var locked: Bool
    var title: String?
    var kind: String?
    var from: String?
    var to: String?
    var expiresAt: String?
    var hideVisits: Bool?
    /// Whether `…/photos` lists the range's photos.
    var photos: Bool?
    var tileURLTemplate: String?
    var tileAttribution: String?
    /// A range of more fixes than this (`…/bounds`' `locationCount`) is drawn from `…/tiles`, fewer from `…/path`.
    var vectorPathFixLimit: Int?
}

/// A journal entry as a link shows it: what the place is called and when, nothing more.
struct SharedEntryJSON: Encodable {
    var title: String
    var arrival: String
    var departure: String?
    var latitude: Double
    var longitude: Double
}

/// A photo as a link shows it: when and where, and its shape; never its file, camera or device.
struct SharedPhotoJSON: Encodable {
    var id: Int64
    var time: String?
    var latitude: Double?
    var longitude: Double?
    var width: Int?
    var height: Int?

    init(_ photo: StoredPhoto) {
        let whole = PhotoJSON(photo, devices: [:])
        (id, time, latitude, longitude, width, height) = (whole.id, whole.time, whole.latitude, whole.longitude, whole.width, whole.height)
    }
}

/// `GET /api/v1/s/{token}/photos`: the first `ShareRoutes.photoLimit` of the range; `complete` is false when there are more.
struct SharedPhotosJSON: Encodable {
    var photos: [SharedPhotoJSON]
    var complete: Bool
}

/// `POST /api/v1/shares`: what to share (`kind` with `day`, `from`/`to`, `trip` or `forSeconds`), until
/// when (`expires`: a time, or `never`; or `expiresInSeconds`), and how.
struct ShareCreateBody: Decodable {
    var kind: String
    var day: String?
    var timezone: String?
    var from: String?
    var to: String?
    var trip: Int64?
    var forSeconds: Double?
    var expires: String?
    var expiresInSeconds: Double?
    var password: String?
    var title: String?
    var hideVisits: Bool?
    /// Show the range's photos (off by default).
    var photos: Bool?
    /// The server's address as visitors reach it (the page sends its origin).
    var url: String?
}
