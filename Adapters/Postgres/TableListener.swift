import CPostgres
import Foundation
import Synchronization

/// Listens for a list's notifications (`LISTEN "mvclayers.<table>"`) on a connection of its own,
/// on a thread of its own, and calls `heard` for each batch; and once each time it (re)connects,
/// since notifications sent while it was not listening are lost: the look that follows reads
/// everything changed since the last change the store has, so nothing missed stays missed.
///
/// A lost connection is made again with backoff (50 ms doubling to 2 s) until ``stop()``.
final class TableListener: Sendable {
    private let location: PostgresLocation
    private let heard: @Sendable () -> Void
    private let isOwn: @Sendable (Int32) -> Bool
    private let stopped = Atomic(false)
    /// Signalled, and set, when the thread has ended.
    private let ended = DispatchSemaphore(value: 0)
    private let hasEnded = Atomic(false)

    /// Listens for `location`'s notifications; `isOwn` tells a commit of this client's own (by
    /// its server process), which sends no look.
    init(
        location: PostgresLocation, isOwn: @escaping @Sendable (Int32) -> Bool,
        heard: @escaping @Sendable () -> Void
    ) {
        self.location = location
        self.isOwn = isOwn
        self.heard = heard
    }

    /// Starts listening; call ``stop()`` to end (the thread ends within a twentieth of a second).
    func start() {
        let thread = Thread { [self] in
            listen()
            hasEnded.store(true, ordering: .releasing)
            ended.signal()
        }
        thread.name = "MVCPostgresStore listener"
        thread.start()
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Stops listening, and returns once the thread has ended (or after a second, if it is in
    /// the middle of connecting): a program that exits next must not pull libpq out from under
    /// the thread, which crashed a sample at exit now and then.
    func stopAndWait() async {
        stop()
        guard !hasEnded.load(ordering: .acquiring) else { return }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                _ = ended.wait(timeout: .now() + 1)
                done.resume()
            }
        }
    }

    private var isStopped: Bool { stopped.load(ordering: .relaxed) }

    private func listen() {
        var backoff = 0.05
        while !isStopped {
            guard let connection = try? PostgresConnection(settings: location.settings),
                (try? connection.run(
                    "LISTEN \(PostgresLocation.quoted("mvclayers." + location.table))"))
                    != nil
            else {
                Thread.sleep(forTimeInterval: backoff)
                backoff = min(backoff * 2, 2)
                continue
            }
            backoff = 0.05
            heard()
            wait(on: connection)
        }
    }

    /// Waits for notifications until the connection is lost or listening stops.
    private func wait(on connection: PostgresConnection) {
        while !isStopped {
            var socket = pollfd(fd: connection.socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&socket, 1, 50)
            if ready < 0, errno != EINTR { return }
            if ready > 0 {
                guard let senders = try? connection.notifications() else { return }
                // This client's own commits are in its store already: no look for them.
                if senders.contains(where: { !isOwn($0) }) { heard() }
            }
            if connection.isLost { return }
        }
    }
}
