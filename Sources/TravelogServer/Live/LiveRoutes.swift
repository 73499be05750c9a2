import Foundation
import Hummingbird
import ServiceLifecycle
import TravelogCore
import TravelogFormats
import TravelogStore

/// The live stream of the user's locations as they are stored.
struct LiveRoutes {
    let hub: LiveHub


    /// `GET /api/v1/live`: server-sent events. Every batch stored for the user, through any
    /// endpoint, arrives as an event `locations` whose data is
    /// `{"device": …, "source": …, "locations": [Feature…]}`, each location a GeoJSON Point feature
    /// written as the read API and the export write it (`LocationFeatureWriter`).
    func add(to router: RouteRegistry) {
        router.get("/api/v1/live") { _, context in
            let identity = try context.requireIdentity()
            let (id, updates) = hub.subscribe(userID: identity.user.id)
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-cache"
            headers[.init("X-Accel-Buffering")!] = "no"
            let hub = self.hub
            let body = ResponseBody { writer in
                defer { hub.unsubscribe(id) }
                try await writer.write(ByteBuffer(string: "retry: 2000\n: connected\n\n"))
                try await withGracefulShutdownHandler {
                    for await message in updates {
                        switch message {
                        case .update(let update): try await writer.write(ByteBuffer(string: Self.event(update)))
                        case .keepAlive: try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                        }
                    }
                } onGracefulShutdown: {
                    hub.unsubscribe(id)
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        }
    }

    static func event(_ update: LiveUpdate) -> String {
        let writer = LocationFeatureWriter()
        writer.append(raw: "event: locations\ndata: {\"device\":\(GeoJSONPoint.quoted(update.deviceName)),\"source\":\"\(update.source.rawValue)\",\"locations\":[")
        for (index, location) in update.locations.enumerated() {
            if index > 0 { writer.append(raw: ",") }
            writer.write(location)
        }
        writer.append(raw: "]}\n\n")
        return writer.take()
    }
}
