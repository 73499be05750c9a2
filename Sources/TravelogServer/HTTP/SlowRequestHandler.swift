import NIOCore
import NIOHTTPTypes

/// Closes connections that send a request too slowly (slowloris): the request's head must arrive
/// within `headSeconds` of the connection opening or of the previous answer, and its body may not
/// pause for more than `bodyIdleSeconds`, nor average under `minimumBodyBytesPerSecond` once
/// `bodyIdleSeconds` have passed. Hummingbird's own idle timeout counts from the last request
/// part, which a client sending one byte a second keeps fresh forever.
final class SlowRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    let headSeconds: Int64
    let bodyIdleSeconds: Int64
    let minimumBodyBytesPerSecond: Int
    private var timer: Scheduled<Void>?
    private var bodyStart = NIODeadline.now()
    private var bodyBytes = 0

    init(headSeconds: Int64, bodyIdleSeconds: Int64, minimumBodyBytesPerSecond: Int) {
        self.headSeconds = headSeconds
        self.bodyIdleSeconds = bodyIdleSeconds
        self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { schedule(context, in: headSeconds) }
    }

    func channelActive(context: ChannelHandlerContext) {
        schedule(context, in: headSeconds)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyStart = .now()
            bodyBytes = 0
            schedule(context, in: bodyIdleSeconds)
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            let elapsedSeconds = (NIODeadline.now() - bodyStart).nanoseconds / 1_000_000_000
            if elapsedSeconds > bodyIdleSeconds, Int64(bodyBytes) < elapsedSeconds * Int64(minimumBodyBytesPerSecond) {
                timer?.cancel()
                context.close(promise: nil)
                return
            }
            schedule(context, in: bodyIdleSeconds)
        case .end:
            // The request is read; the answer may take its time (a live stream takes hours).
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { schedule(context, in: headSeconds) }
        context.write(data, promise: promise)
    }

    private func schedule(_ context: ChannelHandlerContext, in seconds: Int64) {
        timer?.cancel()
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .seconds(seconds)) {
            bound.value.close(promise: nil)
        }
    }
}
