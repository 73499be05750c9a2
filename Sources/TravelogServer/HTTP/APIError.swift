import Foundation
import HTTPTypes
import Hummingbird
import TravelogImport
import TravelogAccounts
import TravelogNotify
import TravelogStore

/// Every error the API answers with, as a status and a JSON body `{"error": "…"}` that says what
/// was wrong (for an ingest: which item and which field). Module errors are mapped to it here and
/// nowhere else.
public enum APIError: HTTPResponseError, Equatable, Sendable, CustomStringConvertible {
    /// No credentials, or wrong ones.
    case unauthorized(String)
    /// Credentials that are right but do not allow this (a device token on a user-only route).
    case forbidden(String)
    case badRequest(String)
    case notFound(String)
    case payloadTooLarge(limitBytes: Int)
    case unsupportedMediaType(String)
    /// Too many wrong passwords: `Retry-After` says when to try again.
    case tooManyRequests(retryAfterSeconds: Int, String)
    /// The server is at its limit for this kind of work (snapshots being drawn): `Retry-After` says when to try again.
    case busy(retryAfterSeconds: Int, String)
    /// A method the path does not take.
    case methodNotAllowed(String)
    /// One of Hummingbird's own errors (a body over the limit), answered as JSON.
    case http(status: HTTPResponse.Status, String)
    case storeFailed(StoreError)
    /// The server cannot keep what it was sent right now (a full disk): try again later.
    case insufficientStorage(String)

    public var status: HTTPResponse.Status {
        switch self {
        case .unauthorized: .unauthorized
        case .forbidden: .forbidden
        case .badRequest: .badRequest
        case .notFound: .notFound
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .insufficientStorage: .serviceUnavailable
        case .tooManyRequests: .tooManyRequests
        case .busy: .serviceUnavailable
        case .methodNotAllowed: .methodNotAllowed
        case .http(let status, _): status
        case .storeFailed(let error):
            switch error {
            case .userExists, .deviceExists, .lastAdministrator: .conflict
            case .invalidName: .badRequest
            case .unknownUser, .unknownDevice: .notFound
            // The database failing or out of reach (PostgreSQL restarting): try again, on any route.
            case .database: .serviceUnavailable
            default: .internalServerError
            }
        }
    }

    public var description: String {
        switch self {
        case .unauthorized(let message), .forbidden(let message), .badRequest(let message),
             .notFound(let message), .unsupportedMediaType(let message), .insufficientStorage(let message),
             .tooManyRequests(_, let message), .busy(_, let message), .methodNotAllowed(let message), .http(_, let message):
            message
        case .payloadTooLarge(let limit): "the request body is larger than \(limit) bytes"
        case .storeFailed(let error): error.description
        }
    }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if case .unauthorized = self, Self.challengesBasic(request.headers) {
            headers[.wwwAuthenticate] = "Basic realm=\"Travelog\", charset=\"UTF-8\""
        }
        if case .tooManyRequests(let seconds, _) = self { headers[.retryAfter] = String(seconds) }
        if case .busy(let seconds, _) = self { headers[.retryAfter] = String(seconds) }
        let body = (try? JSONSerialization.data(withJSONObject: ["error": description], options: [.withoutEscapingSlashes]))
            ?? Data("{}".utf8)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}

extension APIError {
    /// Whether a 401 carries `WWW-Authenticate: Basic`. Not for a page's own scripts (`fetch`,
    /// `EventSource`: `Sec-Fetch-Mode` other than `navigate`, or `X-Requested-With`): the challenge
    /// would open the browser's password dialog over the page's login form (and a headless browser
    /// waits on it forever). Apps, curl and a person opening an API address still get it.
    static func challengesBasic(_ headers: HTTPFields) -> Bool {
        if headers[Self.requestedWith] != nil { return false }
        guard let mode = headers[Self.secFetchMode] else { return true }
        return mode == "navigate"
    }

    static let secFetchMode = HTTPField.Name("Sec-Fetch-Mode")!
    static let requestedWith = HTTPField.Name("X-Requested-With")!
}

extension APIError {
    /// A write that stored nothing: a wrong item or body is the client's (400), a failing store or
    /// journal the server's (503: try again; never a false "ok").
    init(_ error: HistoryWriteError) {
        switch error {
        case .invalidItem, .unreadable: self = .badRequest(error.description)
        case .store(let store):
            switch store {
            case .database: self = .insufficientStorage(error.description)
            default: self = .storeFailed(store)
            }
        case .journal: self = .insufficientStorage(error.description)
        }
    }
}

extension AccountError {
    var apiError: APIError {
        switch self {
        case .store(let error): .storeFailed(error)
        case .passwordTooShort: .badRequest(description)
        case .throttled(let seconds), .busy(let seconds): .tooManyRequests(retryAfterSeconds: seconds, description)
        case .unknownUser, .unknownDevice: .notFound(description)
        }
    }
}
