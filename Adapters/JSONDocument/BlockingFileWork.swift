import Dispatch
import MVCListStore

/// Runs file work that blocks its thread (`fsync`, a wait for another process's lock) on a
/// dispatch queue, so that it never holds a thread of the cooperative pool.
///
/// The pool has one thread per core (two on a small machine): a save that waited ten seconds for
/// a stopped process's lock there would stall every task of the program for that long.
enum BlockingFileWork {
    private static let queue = DispatchQueue(
        label: "MVCDocumentStore.blocking-file-work", qos: .userInitiated, attributes: .concurrent)

    /// Runs `work` on a thread that may block, and returns its result.
    static func run<Result: Sendable>(
        _ work: @escaping @Sendable () throws(PersistenceError) -> Result
    ) async throws(PersistenceError) -> Result {
        let outcome = await withCheckedContinuation { continuation in
            queue.async { continuation.resume(returning: Swift.Result(catching: work)) }
        }
        return try outcome.get()
    }
}
