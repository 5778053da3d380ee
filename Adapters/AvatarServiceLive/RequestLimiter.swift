import Foundation

/// Lets at most `limit` requests run at once; the others wait their turn, first come first served.
///
/// Each request holds a socket (and, for https, URLSession's descriptors and threads) while it
/// runs, so "load all" with hundreds of contacts would otherwise run the process out of file
/// descriptors. A request cancelled while it waits leaves the queue at once.
final class RequestLimiter: Sendable {
    private struct State {
        var running = 0
        var waiting: [(id: Int, continuation: CheckedContinuation<Bool, Never>)] = []
        var lastID = 0
    }

    /// How many requests may run at once.
    let limit: Int
    private let state = LockedState(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// Waits for a free place and takes it; `false` if the task was cancelled first.
    ///
    /// Every `true` must be followed by one ``release()``.
    func acquire() async -> Bool {
        let id = state.withLock { state in
            state.lastID += 1
            return state.lastID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    guard state.running < limit else {
                        state.waiting.append((id, continuation))
                        return nil
                    }
                    state.running += 1
                    return true
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state in
                state.waiting.firstIndex { $0.id == id }.map { state.waiting.remove(at: $0) }
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// How many requests wait for a place now.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Gives the place back: to the longest waiting request, if there is one.
    func release() {
        let next = state.withLock { state in
            if state.waiting.isEmpty { state.running -= 1 }
            return state.waiting.isEmpty ? nil : state.waiting.removeFirst()
        }
        next?.continuation.resume(returning: true)
    }
}
