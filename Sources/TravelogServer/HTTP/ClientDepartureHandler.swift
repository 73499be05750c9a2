import NIOCore
import NIOHTTPTypes

/// Notices that a client went away: it closed its side of the connection (`inputClosed`; the
/// server allows half-closed connections, so a closed client does not close the channel) or the
/// connection closed. A request that works long after its body is read (an upload's import) asks
/// to hear of it (`onDeparture`) and stops, instead of working on for nobody.
///
/// HTTP/1.1 clients do not half-close a connection they still wait on (curl, browsers and the
/// phone apps never do), so a closed input during an answer is taken as the client gone.
final class ClientDepartureHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart

    private var departed = false
    private var waiting: [@Sendable () -> Void] = []

    /// Calls `action` on the event loop once the client is gone (at once when it is already).
    /// Must be called on the channel's event loop.
    func onDeparture(_ action: @escaping @Sendable () -> Void) {
        if departed { action() } else { waiting.append(action) }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed { depart() }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        depart()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        depart()
    }

    private func depart() {
        guard !departed else { return }
        departed = true
        let actions = waiting
        waiting = []
        for action in actions { action() }
    }
}
