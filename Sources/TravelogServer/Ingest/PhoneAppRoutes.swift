import Foundation
import Hummingbird
import TravelogCore
import TravelogFormats
import TravelogImport
import TravelogAccounts
import TravelogStore

/// OsmAnd and Traccar Client (`/api/v1/osmand`) and GPSLogger (`/api/v1/gpslogger`), by GET or
/// POST, with query parameters, a form body, or (Traccar Client 9) a JSON body. One fix a request;
/// a fix that cannot be stored is set aside for the user and the app still gets its 200, so its
/// queue moves on. The device token may come as a header, `token` (in the query or the form body),
/// or, for Traccar Client, as the device `id`.
struct PhoneAppRoutes {
    let writer: HistoryWriter
    let accounts: AccountService
    /// The largest body accepted, bytes (a fix is a few hundred).
    static let bodyLimitBytes = 64 << 10

    func add(to router: RouteRegistry) {
        for method in [HTTPRequest.Method.get, .post] {
            router.on("/api/v1/osmand", method: method) { request, context in try await osmand(request, context) }
            router.on("/api/v1/gpslogger", method: method) { request, context in try await gpslogger(request, context) }
        }
    }

    /// Speeds are read in knots for Traccar Client devices and when the device's app is unknown
    /// (Traccar's own server reads this protocol so), in metres per second for OsmAnd devices and
    /// in Traccar Client's JSON body; `speed_unit=mps|knots|kmh` in the URL decides over both.
    /// A request without a position (Traccar's cell or Wi-Fi only reports) stores nothing.
    func osmand(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let body = try await SpooledBody(request, limitBytes: Self.bodyLimitBytes).allBytes
        let contentType = request.headers[.contentType]
        let query = request.uri.query ?? ""
        let receivedAt = Date()
        let isJSON = FormParameters.mediaType(of: contentType) == "application/json"
        let parameters = (isJSON ? try? FormParameters(query: query) : try? FormParameters(query: query, body: body, contentType: contentType))
            ?? FormParameters()
        var decoded: Result<IngestedLocation, IngestError>?
        if isJSON {
            decoded = Result { () throws(IngestError) in try OsmAndRequestDecoder.osmAnd.decode(jsonBody: body, receivedAt: receivedAt) }
        }
        let identity = try await self.identity(context, parameters: parameters, alsoAsToken: decoded.flatMap { try? $0.get().deviceIdentifier }
                                                    ?? parameters["id"] ?? parameters["deviceid"])
        if decoded == nil {
            let unit = try speedUnit(parameters["speed_unit"], app: identity.device?.app)
            decoded = Result { () throws(IngestError) in
                let parameters = try FormParameters(query: query, body: body, contentType: contentType)
                return try OsmAndRequestDecoder(speedUnit: unit).decode(parameters, receivedAt: receivedAt)
            }
        }
        let hasPosition = parameters["lat"] != nil || parameters["lon"] != nil || parameters["location"] != nil || isJSON
        var target = DeviceTarget.of(identity, named: try? decoded?.get().deviceIdentifier, app: .traccar)
        let item: IncomingItem
        switch decoded {
        case .success(let fix)?:
            guard fix.isValidFix else { return Response(status: .ok) }
            var fixItem = IncomingItem(.location(fix.location), position: "request", raw: .bytes(Self.raw(query, body)))
            fixItem.batteryPercent = fix.batteryPercent
            fixItem.isCharging = fix.isCharging
            item = fixItem
        case .failure(.missingField(let field))? where !hasPosition && (field == "lat" || field == "lon"):
            return Response(status: .ok)
        case .failure(let error)?:
            item = IncomingItem(.refused(error.description), position: "request", raw: .bytes(Self.raw(query, body)))
        case nil:
            return Response(status: .ok)
        }
        let source: LocationSource = identity.device?.app == .osmand ? .osmand : .traccar
        try await write(item, to: &target, source: source, route: "osmand", userAgent: request.headers[.userAgent])
        return Response(status: .ok)
    }

    /// GPSLogger's "Log to custom URL", by GET (query) or POST (form body).
    func gpslogger(_ request: Request, _ context: TravelogRequestContext) async throws -> Response {
        let body = try await SpooledBody(request, limitBytes: Self.bodyLimitBytes).allBytes
        let query = request.uri.query ?? ""
        let parsed = Result { () throws(IngestError) in
            try FormParameters(query: query, body: body, contentType: request.headers[.contentType])
        }
        let identity = try await self.identity(context, parameters: (try? parsed.get()) ?? FormParameters(), alsoAsToken: nil)
        let decoded = Result { () throws(IngestError) -> IngestedLocation in
            var parameters = try parsed.get()
            if parameters["device"] == nil, parameters["aid"] == nil, parameters["ser"] == nil {
                parameters = parameters.appending(FormParameters([.init(name: "device", value: identity.device?.name ?? "gpslogger")]))
            }
            return try GPSLoggerRequestDecoder.decode(parameters, receivedAt: Date())
        }
        var target = DeviceTarget.of(identity, named: try? decoded.get().deviceIdentifier, app: .gpslogger)
        var item = switch decoded {
        case .success(let fix): IncomingItem(.location(fix.location), position: "request", raw: .bytes(Self.raw(query, body)))
        case .failure(let error): IncomingItem(.refused(error.description), position: "request", raw: .bytes(Self.raw(query, body)))
        }
        item.batteryPercent = try? decoded.get().batteryPercent
        item.isCharging = try? decoded.get().isCharging
        try await write(item, to: &target, source: .gpslogger, route: "gpslogger", userAgent: request.headers[.userAgent])
        return Response(status: .ok)
    }

    func write(_ item: IncomingItem, to target: inout DeviceTarget, source: LocationSource, route: String,
               userAgent: String?) async throws {
        do {
            _ = try await writer.write([item], to: &target, source: source, visitSource: .file, route: route, policy: .keepValid,
                                       userAgent: userAgent)
        } catch {
            throw APIError(error)
        }
    }

    /// The caller: from the request's credentials, else a `token` parameter (query or form body),
    /// else `alsoAsToken` (Traccar Client has no other secret than its device id).
    func identity(_ context: TravelogRequestContext, parameters: FormParameters, alsoAsToken: String?) async throws -> Identity {
        if let identity = context.identity { return identity }
        for candidate in [parameters["token"], alsoAsToken].compactMap({ $0 }) {
            let device = try await account { () throws(AccountError) in try await accounts.device(token: candidate) }
            if let device, let user = try await writer.store.user(id: device.userID) {
                return Identity(user: user, device: device, method: .deviceToken)
            }
        }
        throw APIError.unauthorized("send the device token as a Bearer header, token, or (Traccar Client) the device id")
    }

    func account<T>(_ body: () async throws(AccountError) -> T) async throws(APIError) -> T {
        do { return try await body() } catch { throw error.apiError }
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

    /// What the app sent, as the user will see it: the query and the body, without any credential
    /// (`token`, the device id OsmAnd and Traccar Client use as their secret, a JSON `device_id`):
    /// a secret has no place in a list shown on a page.
    static func raw(_ query: String, _ body: [UInt8]) -> [UInt8] {
        let form = String(decoding: body, as: UTF8.self)
        let isForm = !body.isEmpty && !form.contains("{") && !form.contains("\n")
        let text = body.isEmpty ? "" : "\n" + (isForm ? CredentialRedaction.query(form) : CredentialRedaction.json(form))
        return Array(("?" + CredentialRedaction.query(query) + text).utf8)
    }

}
