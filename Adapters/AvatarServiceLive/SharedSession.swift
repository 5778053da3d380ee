import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one URLSession a ``LiveAvatarService`` shares among its https downloads.
///
/// A session holds descriptors and threads of its own, so one per request ran a "load all" of
/// hundreds of contacts out of descriptors. The session's delegate hands each task's callbacks to
/// the ``CappedDownload`` that started it. The session ends when the last copy of the service
/// lets go of it.
final class SharedSession: Sendable {
    private let session: URLSession
    private let router = Router()

    /// Creates the session; `timeout` bounds a wait for the server (the download keeps its own
    /// overall deadline).
    init(timeout: Duration) {
        let seconds =
            Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = seconds
        configuration.timeoutIntervalForResource = seconds
        session = URLSession(configuration: configuration, delegate: router, delegateQueue: nil)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// A task for `url` whose callbacks go to `download`; the caller resumes it.
    func start(_ url: URL, for download: CappedDownload) -> URLSessionDataTask {
        let task = session.dataTask(with: url)
        router.downloads.withLock { $0[task.taskIdentifier] = download }
        return task
    }

    /// Hands each task's callbacks to its download, and forgets the download when its task ends.
    private final class Router: NSObject, URLSessionDataDelegate, Sendable {
        let downloads = LockedState<[Int: CappedDownload]>([:])

        private func download(for task: URLSessionTask) -> CappedDownload? {
            downloads.withLock { $0[task.taskIdentifier] }
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
            completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
        ) {
            guard let download = download(for: dataTask) else { return completionHandler(.cancel) }
            download.received(response, completionHandler: completionHandler)
        }

        func urlSession(
            _ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data
        ) {
            download(for: dataTask)?.received(data, by: dataTask)
        }

        func urlSession(
            _ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?
        ) {
            let download = downloads.withLock { $0.removeValue(forKey: task.taskIdentifier) }
            download?.completed(with: error)
        }
    }
}
