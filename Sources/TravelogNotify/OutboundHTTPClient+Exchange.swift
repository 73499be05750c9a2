import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

extension OutboundHTTPClient {
    /// One request's state: its outcome (the first of an answer, an error, the deadline, a
    /// cancellation wins) and its connection, closed as soon as the outcome is known.
    final class Exchange: Sendable {
        let promise: EventLoopPromise<Answer>
        private let state = Mutex<(channel: (any Channel)?, finished: Bool)>((nil, false))

        init(promise: EventLoopPromise<Answer>) {
            self.promise = promise
        }

        /// Ends the exchange with `error` (nothing when it has ended) and closes its connection.
        func finish(throwing error: OutboundError) {
            promise.fail(error)
            close()
        }

        /// Ends the exchange with an answer and closes its connection.
        func finish(with answer: Answer) {
            promise.succeed(answer)
            close()
        }

        private func close() {
            let channel = state.withLock { state -> (any Channel)? in
                state.finished = true
                return state.channel
            }
            channel?.close(promise: nil)
        }

        /// Connects to `address`, sends the request and waits for the answer's head.
        func connect(to address: SocketAddress, on eventLoop: any EventLoop, tls: Bool, serverName: String?,
                     request: HTTPRequestHead, body: [UInt8]) {
            let context: NIOSSLContext?
            do {
                context = tls ? try OutboundHTTPClient.tlsContext.get() : nil
            } catch {
                return finish(throwing: .connectionFailed("TLS: \(error)"))
            }
            let connected = ClientBootstrap(group: eventLoop)
                .channelInitializer { [self] channel in
                    channel.eventLoop.makeCompletedFuture {
                        if let context {
                            try channel.pipeline.syncOperations.addHandler(NIOSSLClientHandler(context: context, serverHostname: serverName))
                        }
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(AnswerHandler(exchange: self))
                    }
                }
                .connect(to: address)
            connected.whenComplete { [self] result in
                switch result {
                case .failure(let error):
                    finish(throwing: .connectionFailed(String(describing: error)))
                case .success(let channel):
                    let finished = state.withLock { state -> Bool in
                        state.channel = channel
                        return state.finished
                    }
                    if finished { return channel.close(promise: nil) }
                    channel.write(HTTPClientRequestPart.head(request), promise: nil)
                    channel.write(HTTPClientRequestPart.body(.byteBuffer(ByteBuffer(bytes: body))), promise: nil)
                    channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
                }
            }
        }
    }

    /// Takes the first final answer's head (informational 1xx heads are skipped) and ends the
    /// exchange with it; a closed connection or an error before it ends the exchange without one.
    final class AnswerHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPClientResponsePart
        let exchange: Exchange

        init(exchange: Exchange) {
            self.exchange = exchange
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .head(let head) = unwrapInboundIn(data), head.status.code >= 200 else { return }
            exchange.finish(with: Answer(status: Int(head.status.code), location: head.headers.first(name: "Location")))
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            exchange.finish(throwing: .connectionFailed(String(describing: error)))
        }

        func channelInactive(context: ChannelHandlerContext) {
            exchange.finish(throwing: .connectionFailed("closed before an answer"))
            context.fireChannelInactive()
        }
    }
}
