import CPostgres
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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
    /// The listening thread, until ``stopAndWait()`` joins it (or its end detaches it).
    private let thread = Mutex<pthread_t?>(nil)
    /// Signalled when `listen()` has returned (the thread's end follows at once).
    private let ended = DispatchSemaphore(value: 0)
    /// Entered while a call of ``stopAndWait()`` joins the thread.
    private let joining = DispatchGroup()

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

    /// A thread never joined is detached, so that it is freed when it ends.
    deinit {
        if let running = thread.withLock({ $0.take() }) { pthread_detach(running) }
    }

    /// Starts listening; call ``stop()`` to end (the thread ends within a twentieth of a second).
    ///
    /// A POSIX thread, not a Foundation `Thread`, so that ``stopAndWait()`` can join it: a
    /// thread has not ended until its thread-specific data's destructors ran, and libpq's
    /// (OpenSSL's per-thread state, made by the SCRAM login) freed memory that `exit()`'s
    /// `OPENSSL_cleanup` frees too, a double free that aborted a sample at exit now and then.
    func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        #if canImport(Darwin)
            var made: pthread_t?
            let result = pthread_create(&made, nil, { TableListener.run($0) }, context)
        #else
            var made = pthread_t()
            let result = pthread_create(&made, nil, { $0.flatMap(TableListener.run) }, context)
        #endif
        guard result == 0 else {
            Unmanaged<TableListener>.fromOpaque(context).release()
            return
        }
        thread.withLock { $0 = made }
    }

    /// The thread's body: `context` is the listener, retained for the thread.
    private static func run(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        let listener = Unmanaged<TableListener>.fromOpaque(context).takeRetainedValue()
        listener.listen()
        listener.ended.signal()
        return nil
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Stops listening, and returns once the thread has ended, its thread-specific data freed (or
    /// after a second, if it is in the middle of connecting): a program that exits next must not
    /// pull libpq or OpenSSL out from under the thread, which crashed a sample at exit now and
    /// then.
    ///
    /// A second call while the first joins waits for that join.
    func stopAndWait() async {
        stop()
        let running = thread.withLock { handle -> pthread_t? in
            guard let taken = handle.take() else { return nil }
            joining.enter()
            return taken
        }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { [self] in
                if let running {
                    // Joined once `listen()` returned: a connection under way is not waited for.
                    if ended.wait(timeout: .now() + 1) == .success {
                        pthread_join(running, nil)
                    } else {
                        pthread_detach(running)
                    }
                    joining.leave()
                } else {
                    _ = joining.wait(timeout: .now() + 2)
                }
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
                pause(backoff)
                backoff = min(backoff * 2, 2)
                continue
            }
            backoff = 0.05
            heard()
            wait(on: connection)
        }
    }

    /// Sleeps for `seconds`, or until ``stop()``, whichever comes first.
    private func pause(_ seconds: Double) {
        var left = seconds
        while left > 0, !isStopped {
            Thread.sleep(forTimeInterval: min(left, 0.05))
            left -= 0.05
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
