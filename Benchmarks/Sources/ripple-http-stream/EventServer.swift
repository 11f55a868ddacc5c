import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback HTTP server that answers every request with the same
/// `text/event-stream` body as fast as the socket takes it, then closes the
/// connection: `count` small events (`id: n` / `data: event n`). POSIX
/// sockets, one thread per connection.
final class EventServer: @unchecked Sendable {
    let port: Int
    let body: Data
    private let listener: Int32

    init(count: Int) throws {
        var text = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n"
        text.reserveCapacity(count * 28)
        for id in 1...max(1, count) {
            text += "id: \(id)\ndata: event \(id)\n\n"
        }
        body = Data(text.utf8)
        #if canImport(Glibc)
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let listener = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        self.listener = listener
        var reuse: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: actual.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)/events")! }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            Thread { [self] in
                serve(connection)
                close(connection)
            }.start()
        }
    }

    private func serve(_ fd: Int32) {
        // The request head, then the whole answer.
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = [UInt8]()
        while received.count < 4 || Array(received.suffix(4)) != [13, 10, 13, 10] {
            let count = recv(fd, &buffer, buffer.count, 0)
            if count <= 0 { return }
            received += buffer[0..<count]
        }
        body.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                #if canImport(Glibc)
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                #else
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, 0)
                #endif
                if written <= 0 { return }
                offset += written
            }
        }
        shutdown(fd, Int32(SHUT_WR))
        // Let the client read everything before the socket closes.
        while recv(fd, &buffer, buffer.count, 0) > 0 {}
    }
}

/// Counts the events of an event stream read in chunks, the simplest correct
/// way: a blank line (two line feeds in a row, across chunks) ends one. The
/// reference readers use it; it is valid for the server's stream only (`\n`
/// line ends, every event with data).
struct BlankLineCounter {
    private var previous: UInt8 = 0
    private(set) var events = 0

    mutating func count(_ bytes: UnsafeRawBufferPointer) {
        var previous = self.previous
        var events = self.events
        for byte in bytes {
            if byte == 10, previous == 10 { events += 1 }
            previous = byte
        }
        self.previous = previous
        self.events = events
    }
}
