import Dispatch

/// Runs an actor's jobs, one at a time, on a dispatch queue of its own: a database's blocking
/// calls (an `fsync`, another process's lock, a server's answer) would stall the cooperative pool.
package final class QueueExecutor: SerialExecutor {
    private let queue: DispatchQueue

    package init(label: String) { queue = DispatchQueue(label: label, qos: .userInitiated) }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
