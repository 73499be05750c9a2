import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogStore

extension TravelogServerApp {
    /// OsmAnd and Traccar Client (`/api/v1/osmand`) and GPSLogger (`/api/v1/gpslogger`), by GET or
    /// POST, with query parameters, a form body, or (Traccar Client 9) a JSON body.
    func addPhoneAppRoutes(to router: RouteRegistry) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/api/v1/osmand", method: method) { request, context in
                try await rejectionCounted("osmand") { try await osmand(request, context) }
            }
            router.on("/api/v1/gpslogger", method: method) { request, context in
                try await rejectionCounted("gpslogger") { try await gpslogger(request, context) }
            }
        }
    }

    /// Speeds are read in knots for Traccar Client devices and when the device's app is unknown
    /// (Traccar's own server reads this protocol so), in metres per second for OsmAnd devices and
    /// in Traccar Client's JSON body; `speed_unit=mps|knots|kmh` in the URL decides over both.
    func osmand(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        var request = request
        let bytes = try await request.collectBytes(context: context)
        let contentType = request.headers[.contentType]
        let query = request.uri.query ?? ""
        let receivedAt = Date()
        let isJSON = FormParameters.mediaType(of: contentType) == "application/json"
        let parameters: FormParameters
        do {
            parameters = isJSON ? try FormParameters(query: query) : try FormParameters(query: query, body: bytes, contentType: contentType)
        } catch {
            throw APIError.badRequest(error.description)
        }
        var identity = context.identity
        var decoded: IngestedLocation?
        if isJSON {
            do { decoded = try OsmAndRequestDecoder.osmAnd.decode(jsonBody: bytes, receivedAt: receivedAt) } catch {
                throw APIError.badRequest(error.description)
            }
        }
        if identity == nil {
            // The device identifier may be the device's token (Traccar Client has no other secret).
            if let token = decoded?.deviceIdentifier ?? parameters["id"] ?? parameters["deviceid"] {
                identity = try await tokenIdentity(token)
            }
        }
        guard let identity else { throw APIError.unauthorized("send the device token as id, token, or a Bearer header") }
        if decoded == nil {
            let unit = try speedUnit(parameters["speed_unit"], app: identity.device?.app)
            do { decoded = try OsmAndRequestDecoder(speedUnit: unit).decode(parameters, receivedAt: receivedAt) } catch {
                throw APIError.badRequest(error.description)
            }
        }
        guard let decoded else { throw APIError.badRequest("no position") }
        let device = try await ingest.device(for: identity, named: decoded.deviceIdentifier, app: .traccar)
        if decoded.isValidFix {
            try await ingest.store([decoded.location], device: device, source: device.app == .osmand ? .osmand : .traccar)
        }
        return Response(status: .ok)
    }

    func gpslogger(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let identity = try context.requireIdentity()
        var request = request
        let bytes = try await request.collectBytes(context: context)
        var parameters: FormParameters
        do {
            parameters = try FormParameters(query: request.uri.query ?? "", body: bytes, contentType: request.headers[.contentType])
        } catch {
            throw APIError.badRequest(error.description)
        }
        if parameters["device"] == nil, parameters["aid"] == nil, parameters["ser"] == nil {
            parameters = parameters.appending(FormParameters([.init(name: "device", value: identity.device?.name ?? "gpslogger")]))
        }
        let decoded: IngestedLocation
        do { decoded = try GPSLoggerRequestDecoder.decode(parameters, receivedAt: Date()) } catch {
            throw APIError.badRequest(error.description)
        }
        let device = try await ingest.device(for: identity, named: decoded.deviceIdentifier, app: .gpslogger)
        try await ingest.store([decoded.location], device: device, source: .gpslogger)
        return Response(status: .ok)
    }

    func tokenIdentity(_ token: String) async throws -> Identity? {
        let device = try await account { () throws(AccountError) in try await accounts.device(token: token) }
        guard let device, let user = try await store.user(id: device.userID) else { return nil }
        return Identity(user: user, device: device, method: .deviceToken)
    }

    func speedUnit(_ text: String?, app: DeviceApp?) throws -> SpeedUnit {
        switch text {
        case nil: app == .osmand ? .metersPerSecond : .knots
        case "mps", "m/s": .metersPerSecond
        case "knots", "kn": .knots
        case "kmh", "km/h": .kilometersPerHour
        case let other?: throw APIError.badRequest("speed_unit '\(other)': expected mps, knots or kmh")
        }
    }
}
