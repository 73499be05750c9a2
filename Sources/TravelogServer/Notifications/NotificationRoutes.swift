import Foundation
import TravelogFormats
import Hummingbird
import TravelogNotify
import TravelogStore

struct NotificationRoutes {
    let store: any NotificationStore
    let notifications: NotificationDispatcher
    let configuration: ServerConfiguration


    struct ChannelJSON: Encodable {
        var id: Int64
        var type: String
        var url: String
        init(_ channel: NotificationChannel) {
            id = channel.id.rawValue
            type = channel.kind.name
            url = channel.kind.url.absoluteString
        }
    }

    /// A delivery as the API and `travelog notify log --json` show it.
    public struct DeliveryJSON: Encodable, Sendable {
        public var id: Int64
        public var channel: Int64
        public var type: String
        public var event: String
        public var key: String
        public var title: String
        public var state: String
        public var attempts: Int
        public var lastResult: String?
        public var updatedAt: String
        public init(_ delivery: Delivery) {
            id = delivery.id.rawValue
            channel = delivery.channel.id.rawValue
            type = delivery.channel.kind.name
            event = delivery.message.event
            key = delivery.message.key
            title = delivery.message.title
            state = delivery.state.rawValue
            attempts = delivery.attempts
            lastResult = delivery.lastResult
            updatedAt = ISO8601TimeFormatter.string(delivery.updatedAt)
        }
    }

    /// Channels (webhook, ntfy), a test message and the delivery log, per user.
    func add(to router: RouteRegistry) {
        router.get("/api/v1/notifications/channels") { _, context in
            let identity = try context.requirePerson()
            return try Response.json(try await store.channels(userID: identity.user.id).map(ChannelJSON.init))
        }
        router.post("/api/v1/notifications/channels") { request, context in
            let identity = try context.requirePerson()
            struct Body: Decodable { var type: String; var url: String; var secret: String?; var token: String? }
            let body: Body = try await request.decodeJSON(context: context)
            let kind = try Self.channelKind(type: body.type, url: body.url, secret: body.secret, token: body.token,
                                            policy: configuration.addressPolicy)
            let channel = try await store.addChannel(userID: identity.user.id, kind: kind)
            return try Response.json(ChannelJSON(channel), status: .created)
        }
        router.delete("/api/v1/notifications/channels/{id}") { _, context in
            let identity = try context.requirePerson()
            guard let id = context.parameters.get("id", as: Int64.self) else { throw APIError.badRequest("the channel id must be a number") }
            guard try await store.removeChannel(id: ChannelID(rawValue: id), userID: identity.user.id) else {
                throw APIError.notFound("no notification channel \(id)")
            }
            return Response(status: .noContent)
        }
        router.post("/api/v1/notifications/test") { _, context in
            let identity = try context.requirePerson()
            let message = NotificationDispatcher.testMessage(at: Date())
            await notifications.deliver(await notifications.notify(message, userID: identity.user.id))
            return try Response.json(try await store.deliveries(userID: identity.user.id, limit: 20)
                .filter { $0.message.key == message.key }.map(DeliveryJSON.init))
        }
        router.get("/api/v1/notifications/log") { request, context in
            let identity = try context.requirePerson()
            let limit = try request.integerQuery("limit", in: 1...1000, default: 100)
            return try Response.json(try await store.deliveries(userID: identity.user.id, limit: limit).map(DeliveryJSON.init))
        }
    }

    /// A channel from what a person typed. A URL naming a loopback, private or link-local address
    /// (or `localhost`) is refused unless the policy allows those; a name is checked again on
    /// every send, on the addresses it resolves to then.
    /// - Throws: a 400 naming what is wrong.
    public static func channelKind(type: String, url text: String, secret: String?, token: String?,
                                   policy: AddressPolicy) throws(APIError) -> ChannelKind {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
              let host = url.host, !host.isEmpty
        else { throw .badRequest("url '\(text)': expected an http or https URL") }
        guard policy.permits(host: host) else {
            throw .badRequest("url '\(text)': \(OutboundError.refusedAddress(host: host).userVisibleResult)")
        }
        switch type {
        case "webhook":
            guard let secret, secret.count >= 16 else {
                throw .badRequest("secret: a webhook needs a secret of at least 16 characters to sign its messages")
            }
            return .webhook(url: url, secret: secret)
        case "ntfy":
            return .ntfy(url: url, token: token.flatMap { $0.isEmpty ? nil : $0 })
        default:
            throw .badRequest("type '\(type)': expected webhook or ntfy")
        }
    }
}
