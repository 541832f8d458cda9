import Dispatch
import Glibc
@testable import LigasServer
import LigasTestSupport
import Testing

/// Work handed to the loop (`EventLoop.execute`) waits in an inbox that a drain runs between its
/// rounds, or a block on the queue when no drain runs: either way each piece runs once, in the
/// order it was handed over.
@Suite("Event loop: work handed over runs once, in order")
struct EventLoopInboxTests {
    @Test("Handed over from four threads while a flooding connection keeps the loop draining and asking to be read again: each thread's work runs once, in its order")
    func orderWhileDraining() async throws {
        let loop = EventLoop(label: "inbox-test", target: .global(), linger: .milliseconds(2))
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL) | O_NONBLOCK)
        let (served, flooder) = (ends[0], ends[1])
        let ran = Shared<[Int: [Int]]>([:])
        let readsAgain = Shared(0)
        let token = Shared<UInt64?>(nil)
        loop.execute { [fd = served] in
            // Reads a byte at a time and asks to be read again, as a connection does when it stops
            // early for fairness: a drain reads it again in its next round, or, asked outside a
            // drain, the loop queues a turn of its own besides the inbox's work.
            let registered = loop.register(fd, EventLoop.Handlers(readable: { _ in
                var byte: UInt8 = 0
                if read(fd, &byte, 1) == 1, let token = token.value {
                    readsAgain.withLock { $0 += 1 }
                    loop.readAgain(token)
                }
            }, writable: {}))
            token.withLock { $0 = registered }
        }
        let producers = 4
        let perProducer = 500
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                await offThePool {
                    for _ in 0..<400 {
                        var byte: UInt8 = 1
                        _ = write(flooder, &byte, 1)
                        usleep(200)
                    }
                }
            }
            for producer in 0..<producers {
                group.addTask {
                    await offThePool {
                        for index in 0..<perProducer {
                            // Paced, so that the hand-overs span the flood.
                            if index % 10 == 0 { usleep(1_000) }
                            loop.execute {
                                ran.withLock { $0[producer, default: []].append(index) }
                                // Asked from work the inbox's block may be running, outside any drain.
                                if index % 25 == 0, let token = token.value { loop.readAgain(token) }
                                // Work handed over by work, from the loop's own queue.
                                if index % 50 == 0 {
                                    loop.execute { ran.withLock { $0[producer + 100, default: []].append(index) } }
                                }
                            }
                        }
                    }
                }
            }
        }
        try await waitUntil("every piece of work to run") {
            ran.value.values.reduce(0) { $0 + $1.count } == producers * perProducer + producers * (perProducer / 50)
        }
        for producer in 0..<producers {
            #expect(ran.value[producer] == Array(0..<perProducer))
            #expect(ran.value[producer + 100] == Array(stride(from: 0, to: perProducer, by: 50)))
        }
        // Every byte of the flood read, each by a read that then asked to be read again.
        try await waitUntil("the flood read") { readsAgain.value == 400 }
        // Out of the loop before it closes, and closed before the sockets are.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute {
                if let token = token.value { loop.unregister(token) }
                done.resume()
            }
        }
        loop.close()
        Glibc.close(served)
        Glibc.close(flooder)
    }
}
