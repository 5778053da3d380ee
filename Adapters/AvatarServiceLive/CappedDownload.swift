import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One download through URLSession (https) with a size limit and a deadline, for
/// ``LiveAvatarService``.
///
/// `URLSession.data(from:)` collects the whole answer before returning, however large, so the
/// bytes are taken one delivery at a time through the session's delegate instead (see
/// `SharedSession`, which hands each task's deliveries to its download), and the task is
/// cancelled the moment they pass the limit.
///
/// URLSession calls in from its own queue while the caller awaits `run(in:)`; every piece of
/// mutable state is inside `state`, behind a lock, and the continuation is resumed exactly once, by
/// whoever takes it out of the state first.
final class CappedDownload: Sendable {
    /// How a download ended.
    enum Outcome: Sendable {
        /// The whole answer arrived.
        case finished(Data, status: Int)
        /// The answer grew past the limit.
        case tooLarge
        /// The caller's task was cancelled.
        case cancelled
        /// The connection failed or timed out; the reason, in a few words.
        case failed(String)
        /// The server sent the request elsewhere (a plain http answer; URLSession follows
        /// redirects itself): its `Location`, which may be relative.
        case redirected(to: String)
    }

    private struct State {
        var data = Data()
        var status = 0
        var wasTooLarge = false
        var didTimeOut = false
        var continuation: CheckedContinuation<Outcome, Never>?
        var task: URLSessionDataTask?
    }

    private let url: URL
    private let limit: Int
    private let timeout: Duration
    private let state = LockedState(State())

    init(url: URL, limit: Int, timeout: Duration) {
        self.url = url
        self.limit = limit
        self.timeout = timeout
    }

    /// Downloads the answer through `shared`, honouring the caller's cancellation.
    func run(in shared: SharedSession) async -> Outcome {
        let seconds =
            Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        // URLSession on Linux does not enforce the total (resource) timeout: a server that sends a
        // byte now and then would hold the request for ever. The deadline is kept here instead, on
        // a dispatch queue rather than as a task, so that a busy cooperative thread pool cannot
        // delay it.
        let deadline = DispatchWorkItem { [self] in
            let task = state.withLock { state in
                state.didTimeOut = true
                return state.task
            }
            // Answer at once: URLSession may take its time to report the cancellation.
            finish(.failed("the request timed out"))
            task?.cancel()
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: deadline)
        defer { deadline.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let task = shared.start(url, for: self)
                let (isCancelled, didTimeOut) = state.withLock { state in
                    state.continuation = continuation
                    state.task = task
                    return (Task.isCancelled, state.didTimeOut)
                }
                if isCancelled {
                    finish(.cancelled)
                } else if didTimeOut {
                    // The deadline passed before there was anything to cancel.
                    finish(.failed("the request timed out"))
                } else {
                    task.resume()
                }
            }
        } onCancel: {
            state.withLock { $0.task }?.cancel()
        }
    }

    /// The answer's status and headers arrived.
    func received(
        _ response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        state.withLock { $0.status = status }
        if response.expectedContentLength > Int64(limit) {
            state.withLock { $0.wasTooLarge = true }
            finish(.tooLarge)
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    /// A piece of the answer arrived.
    func received(_ data: Data, by dataTask: URLSessionDataTask) {
        let isTooLarge = state.withLock { state in
            guard !state.wasTooLarge else { return false }
            if state.data.count + data.count > limit {
                state.wasTooLarge = true
                state.data = Data()
                return true
            }
            state.data.append(data)
            return false
        }
        if isTooLarge {
            finish(.tooLarge)
            dataTask.cancel()
        }
    }

    /// The task ended, with `error` unless the whole answer arrived.
    func completed(with error: (any Error)?) {
        let outcome: Outcome = state.withLock { state in
            if state.wasTooLarge { return .tooLarge }
            if state.didTimeOut { return .failed("the request timed out") }
            guard let error else { return .finished(state.data, status: state.status) }
            if (error as? URLError)?.code == .cancelled { return .cancelled }
            return .failed(Self.describe(error))
        }
        finish(outcome)
    }

    private func finish(_ outcome: Outcome) {
        state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }?.resume(returning: outcome)
    }

    private static func describe(_ error: any Error) -> String {
        guard let urlError = error as? URLError else { return error.localizedDescription }
        switch urlError.code {
        case .timedOut: return "the request timed out"
        case .cannotConnectToHost: return "the server refused the connection"
        case .networkConnectionLost: return "the connection was dropped"
        case .cannotFindHost: return "the host was not found"
        case .badServerResponse: return "the server sent a malformed answer"
        default: return urlError.localizedDescription
        }
    }
}
