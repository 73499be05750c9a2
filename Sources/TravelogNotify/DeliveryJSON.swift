import Foundation
import TravelogFormats
import TravelogStore

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
