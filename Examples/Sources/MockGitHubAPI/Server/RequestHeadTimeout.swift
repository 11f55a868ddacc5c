import HTTPTypes
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTPTypes

/// HTTP/1.1 with a deadline for every request head, as production servers have
/// (Apache's `RequestReadTimeout header=20`, nginx's `client_header_timeout`).
///
/// Without it, a client that sends half a request head (or nothing at all)
/// holds its connection for ever: Hummingbird's HTTP/1.1 channel has no read
/// timeout of its own. The deadline starts when the connection opens, and again
/// when a response has been sent and no other request is in progress; a complete
/// request head stops it. When it passes:
///
/// - if the client sent part of a request, the server answers
///   `408 Request Timeout` with `Connection: close` and closes the connection;
/// - if it sent nothing (a new or idle keep-alive connection), the server closes
///   the connection without an answer, as keep-alive timeouts do.
///
/// Bytes that keep trickling in do not extend it, so sending one byte at a time
/// does not hold a connection either.
struct RequestHeadTimeoutChannel: ServerChildChannel, HTTPChannelHandler {
    typealias Value = HTTP1Channel.Value

    let responder: HTTPChannelHandler.Responder
    let timeout: Duration

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        let deadline = RequestHeadDeadline(timeout: timeout)
        // One HTTP/1.1 channel per connection, so that its part-level handler
        // shares this connection's deadline.
        let http1 = HTTP1Channel(
            responder: responder,
            configuration: .init(additionalChannelHandlers: [RequestHeadDeadline.PartHandler(deadline)])
        )
        return channel.eventLoop.makeCompletedFuture {
            // First in the pipeline, before the HTTP decoder: it sees every byte,
            // and writes the 408 as raw bytes.
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline.ByteHandler(deadline), position: .first)
        }.flatMap {
            http1.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await handleHTTP(asyncChannel: value, logger: logger)
    }
}

/// The request-head deadline of one connection (see ``RequestHeadTimeoutChannel``).
/// Used only on the connection's event loop (hence `@unchecked Sendable`: it is
/// handed to that loop's handlers once, when the connection is set up).
final class RequestHeadDeadline: @unchecked Sendable {
    /// The answer to a request whose head did not arrive in time.
    static let requestTimeoutResponse = Array(
        "HTTP/1.1 408 Request Timeout\r\nConnection: close\r\nContent-Length: 0\r\n\r\n".utf8)

    let timeout: Duration
    /// Requests whose head arrived and whose response has not been sent yet.
    var requestsInProgress = 0
    /// Bytes arrived since the deadline started (part of the next request).
    var receivedSinceStart = false
    var scheduled: Scheduled<Void>?
    /// Set by ``ByteHandler`` when it joins the pipeline.
    var byteContext: ChannelHandlerContext?

    init(timeout: Duration) {
        self.timeout = timeout
    }

    func start(on context: ChannelHandlerContext) {
        receivedSinceStart = false
        scheduled?.cancel()
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        scheduled = context.eventLoop.assumeIsolatedUnsafeUnchecked().scheduleTask(in: .nanoseconds(nanoseconds)) {
            self.expire()
        }
    }

    func stop() {
        scheduled?.cancel()
        scheduled = nil
    }

    private func expire() {
        scheduled = nil
        guard requestsInProgress == 0, let context = byteContext, context.channel.isActive else { return }
        if receivedSinceStart {
            var buffer = context.channel.allocator.buffer(capacity: Self.requestTimeoutResponse.count)
            buffer.writeBytes(Self.requestTimeoutResponse)
            let channel = context.channel
            context.writeAndFlush(NIOAny(buffer)).whenComplete { _ in channel.close(promise: nil) }
        } else {
            context.close(promise: nil)
        }
    }

    /// Sees the raw bytes: notes that a request has begun, and writes the 408.
    final class ByteHandler: ChannelInboundHandler, RemovableChannelHandler {
        typealias InboundIn = ByteBuffer
        typealias InboundOut = ByteBuffer
        typealias OutboundOut = ByteBuffer

        let deadline: RequestHeadDeadline

        init(_ deadline: RequestHeadDeadline) {
            self.deadline = deadline
        }

        func handlerAdded(context: ChannelHandlerContext) {
            deadline.byteContext = context
            if context.channel.isActive {
                deadline.start(on: context)
            }
        }

        func handlerRemoved(context: ChannelHandlerContext) {
            deadline.stop()
            deadline.byteContext = nil
        }

        func channelActive(context: ChannelHandlerContext) {
            deadline.start(on: context)
            context.fireChannelActive()
        }

        func channelInactive(context: ChannelHandlerContext) {
            deadline.stop()
            context.fireChannelInactive()
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if deadline.requestsInProgress == 0 {
                deadline.receivedSinceStart = true
            }
            context.fireChannelRead(data)
        }
    }

    /// Sees the decoded request heads and the end of each response.
    final class PartHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        let deadline: RequestHeadDeadline

        init(_ deadline: RequestHeadDeadline) {
            self.deadline = deadline
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) {
                deadline.requestsInProgress += 1
                deadline.stop()
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) {
                // Never below 0: a response without a request (an error answer).
                deadline.requestsInProgress = max(0, deadline.requestsInProgress - 1)
                if deadline.requestsInProgress == 0, let byteContext = deadline.byteContext {
                    deadline.start(on: byteContext)
                }
            }
            context.write(data, promise: promise)
        }
    }
}
