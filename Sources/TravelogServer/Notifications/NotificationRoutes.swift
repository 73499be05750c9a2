import Foundation
import TravelogFormats
import Hummingbird
import TravelogNotify
import TravelogStore

/// Channels (webhook, ntfy), a test message and the delivery log, per person.
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
            let kind: ChannelKind
            do throws(ChannelSettingError) {
                kind = try ChannelSettings.kind(type: body.type, url: body.url, secret: body.secret, token: body.token,
                                                policy: configuration.addressPolicy)
            } catch {
                throw APIError.badRequest(error.description)
            }
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
}
