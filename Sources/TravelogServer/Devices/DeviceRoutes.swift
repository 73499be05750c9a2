import Foundation
import HTTPTypes
import Hummingbird
import TravelogAccounts
import TravelogStore

/// The caller's devices: the list with each one's status (`GET /api/v1/devices`, which a read
/// token may call too), and, for the person (password or page), add one with its setup links and
/// QR codes, rename it, set when its silence is told, give it a new token, remove it with or
/// without its history.
///
/// Tokens are kept as digests: only the answers that make one (adding, a new token) carry it, in
/// the settings and setup links; `GET /api/v1/devices/{id}/setup` gives them without it.
struct DeviceRoutes {
    let manager: DeviceManager
    let tiles: HistoryTiles
    let configuration: ServerConfiguration
    /// Where MQTT phones reach the broker (`serve --mqtt-public-url`, else `--mqtt`'s), for their setup.
    var mqttBroker: MQTTBrokerAddress? = nil

    func add(to router: RouteRegistry) {
        router.get("/api/v1/devices") { _, context in
            let identity = try context.requireIdentity()
            let now = Date()
            var listed = try await call { () throws(DeviceManagementError) in
                try await manager.overview(userID: identity.user.id).map { DeviceJSON($0, now: now) }
            }
            for index in listed.indices where listed[index].app == DeviceApp.owntracks.rawValue || listed[index].app == DeviceApp.owntracksMQTT.rawValue {
                listed[index].ownTracksSecretSet = try await ownTracksSecret(DeviceID(rawValue: listed[index].id)) != nil
            }
            return try Response.json(listed)
        }
        router.post("/api/v1/devices") { request, context in
            let identity = try context.requirePerson()
            struct Body: Decodable { var name: String; var app: String?; var url: String? }
            let body: Body = try await request.decodeJSON(context: context)
            let app = try Self.app(body.app)
            let baseURL = try baseURL(body.url, request)
            let (device, token) = try await call { () throws(DeviceManagementError) in
                try await manager.add(named: body.name, userID: identity.user.id, app: app)
            }
            return try Response.json(try await answer(device, token: token, baseURL: baseURL, identity: identity), status: .created)
        }
        router.on("/api/v1/devices/{id}", method: .patch) { request, context in
            let identity = try context.requirePerson()
            var device = try await device(context, identity)
            struct Body: Decodable {
                var name: String?
                var silentAfterSeconds: Int??
                enum CodingKeys: String, CodingKey { case name, silentAfterSeconds }
                init(from decoder: any Decoder) throws {
                    let container = try decoder.container(keyedBy: CodingKeys.self)
                    name = try container.decodeIfPresent(String.self, forKey: .name)
                    // Present and null: never; absent: unchanged.
                    silentAfterSeconds = container.contains(.silentAfterSeconds)
                        ? .some(try container.decodeNil(forKey: .silentAfterSeconds) ? nil : try container.decode(Int.self, forKey: .silentAfterSeconds))
                        : nil
                }
            }
            let body: Body = try await request.decodeJSON(context: context)
            guard body.name != nil || body.silentAfterSeconds != nil else {
                throw APIError.badRequest("send name and/or silentAfterSeconds (a number of seconds, or null for never)")
            }
            try await call { () throws(DeviceManagementError) in
                if let seconds = body.silentAfterSeconds { try await manager.setSilentAfter(seconds: seconds, of: device) }
                if let name = body.name { device = try await manager.rename(device, to: name) }
            }
            return try await listed(device, identity)
        }
        router.post("/api/v1/devices/{id}/token") { request, context in
            let identity = try context.requirePerson()
            let device = try await device(context, identity)
            struct Body: Decodable { var url: String? }
            let url = request.headers[.contentLength] == "0" || request.headers[.contentType] == nil
                ? nil : (try await request.decodeJSON(Body.self, context: context)).url
            let baseURL = try baseURL(url, request)
            let token = try await call { () throws(DeviceManagementError) in try await manager.rotateToken(device) }
            return try Response.json(try await answer(device, token: token, baseURL: baseURL, identity: identity))
        }
        router.get("/api/v1/devices/{id}/setup") { request, context in
            let identity = try context.requirePerson()
            let device = try await device(context, identity)
            let app = try Self.app(request.query("app"))
            let baseURL = try baseURL(request.query("url"), request)
            return try Response.json(SetupJSON.all(baseURL: baseURL, user: identity.user.name, device: device, token: nil,
                                                   app: app ?? device.app, broker: mqttBroker,
                                                   ownTracksSecret: try await ownTracksSecret(device.id)))
        }
        // The secret an OwnTracks phone encrypts its messages with (the app's Encryption key).
        router.on("/api/v1/devices/{id}/owntracks-secret", method: .put) { request, context in
            let identity = try context.requirePerson()
            let device = try await device(context, identity)
            struct Body: Decodable { var secret: String }
            let body: Body = try await request.decodeJSON(context: context)
            guard !body.secret.isEmpty, body.secret.utf8.count <= Self.maximumSecretBytes,
                  !body.secret.contains(where: { $0.isNewline }) else {
                throw APIError.badRequest("secret: expected 1 to \(Self.maximumSecretBytes) bytes on one line (the apps use the first 32)")
            }
            try await setOwnTracksSecret(body.secret, device)
            return try await listed(device, identity)
        }
        router.delete("/api/v1/devices/{id}/owntracks-secret") { _, context in
            let identity = try context.requirePerson()
            let device = try await device(context, identity)
            try await setOwnTracksSecret(nil, device)
            return try await listed(device, identity)
        }
        router.delete("/api/v1/devices/{id}") { request, context in
            let identity = try context.requirePerson()
            let device = try await device(context, identity)
            let history = try request.choiceQuery("history", DeviceManager.Removal.allCases.map(\.rawValue), default: "keep")
            let removal = DeviceManager.Removal(rawValue: history) ?? .keepHistory
            try await call { () throws(DeviceManagementError) in try await manager.remove(device, removal) }
            // The map's indices drop what they held of the device (the statistics are read from
            // the store, which no longer has it).
            if removal == .deleteHistory { tiles.historyRemoved(userID: identity.user.id) }
            return Response(status: .noContent)
        }
    }

    /// The answer that made a token: the device as listed, the token, and its setup per app.
    struct Answer: Encodable {
        var device: DeviceJSON
        var token: String
        var setup: [SetupJSON]
    }

    func answer(_ device: Device, token: String, baseURL: String, identity: Identity) async throws -> Answer {
        let listed = try await overview(device, identity)
        return Answer(device: listed, token: token,
                      setup: SetupJSON.all(baseURL: baseURL, user: identity.user.name, device: device, token: token, app: device.app,
                                           broker: mqttBroker, ownTracksSecret: try await ownTracksSecret(device.id)))
    }

    func listed(_ device: Device, _ identity: Identity) async throws -> Response {
        try Response.json(try await overview(device, identity))
    }

    func overview(_ device: Device, _ identity: Identity) async throws -> DeviceJSON {
        let all = try await call { () throws(DeviceManagementError) in try await manager.overview(userID: identity.user.id) }
        guard let found = all.first(where: { $0.device.id == device.id }) else { throw APIError.notFound("no device \(device.id)") }
        var listed = DeviceJSON(found, now: Date())
        if device.app == .owntracks || device.app == .owntracksMQTT { listed.ownTracksSecretSet = try await ownTracksSecret(device.id) != nil }
        return listed
    }

    /// The longest OwnTracks secret taken, bytes.
    static let maximumSecretBytes = 1024

    func ownTracksSecret(_ deviceID: DeviceID) async throws -> String? {
        guard let secrets = manager.store as? any OwnTracksSecretStore else { return nil }
        return try await secrets.ownTracksSecret(deviceID: deviceID)
    }

    func setOwnTracksSecret(_ secret: String?, _ device: Device) async throws {
        guard device.app == .owntracks || device.app == .owntracksMQTT || device.app == nil else {
            throw APIError.http(status: .conflict, "\(device.name) runs \(device.app?.rawValue ?? "another app"), not OwnTracks: it has no encryption secret")
        }
        guard let secrets = manager.store as? any OwnTracksSecretStore else {
            throw APIError.http(status: .conflict, "this database cannot keep OwnTracks secrets")
        }
        try await secrets.setOwnTracksSecret(secret, deviceID: device.id)
    }

    func device(_ context: TravelogRequestContext, _ identity: Identity) async throws -> Device {
        guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the device id must be a number") }
        return try await call { () throws(DeviceManagementError) in try await manager.device(id: DeviceID(rawValue: id), userID: identity.user.id) }
    }

    static func app(_ text: String?) throws(APIError) -> DeviceApp? {
        guard let text, !text.isEmpty else { return nil }
        guard let app = DeviceApp(rawValue: text) else {
            throw .badRequest("app '\(text)': expected one of \(DeviceApp.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return app
    }

    /// How phones reach the server: the address the page gives (its own origin, or one the person
    /// typed), else the one the request came to.
    func baseURL(_ given: String?, _ request: Request) throws(APIError) -> String {
        if let given, !given.isEmpty {
            guard let url = URL(string: given), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil, url.query == nil, url.fragment == nil
            else { throw .badRequest("url '\(given)': expected the server's address, such as https://travelog.example.org") }
            return given
        }
        guard let host = request.head.authority ?? request.headers[CrossSiteRequestMiddleware.hostField], !host.isEmpty else {
            throw .badRequest("the request names no Host: send url, the server's address as phones reach it")
        }
        return "\(configuration.secureCookies ? "https" : "http")://\(host)"
    }

    @discardableResult
    func call<T>(_ body: () async throws(DeviceManagementError) -> T) async throws(APIError) -> T {
        do { return try await body() } catch { throw error.apiError }
    }
}

extension DeviceManagementError {
    var apiError: APIError {
        switch self {
        case .account(let error): error.apiError
        case .unknownDevice: .notFound(description)
        case .retired: .http(status: .conflict, description)
        case .silentAfterOutOfRange: .badRequest(description)
        }
    }
}
