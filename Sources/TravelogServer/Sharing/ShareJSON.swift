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
    var tileURLTemplate: String?
    var tileAttribution: String?
}

/// A journal entry as a link shows it: what the place is called and when, nothing more.
struct SharedEntryJSON: Encodable {
    var title: String
    var arrival: String
    var departure: String?
    var latitude: Double
    var longitude: Double
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
    /// The server's address as visitors reach it (the page sends its origin).
    var url: String?
}
