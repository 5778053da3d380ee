public import MVCObservation

/// Saves the newest version of a document a short while after it changes, so that a burst of
/// edits costs one write, and writes whatever is pending on ``flush()``.
///
/// Each ``documentChanged(_:)`` replaces the pending version; the first one after a write starts
/// a timer (``delay``), and when it fires the pending version is written off the main actor.
/// Writes never overlap and happen in order. A failed write keeps its version pending, so the
/// next change or flush tries again and nothing is dropped; the failure is published on
/// ``lastError`` for the screen to show.
///
/// Call ``flush()`` before the program exits.
@MainActor
public final class CoalescingSaver<Document: Codable & Sendable> {
    /// Waits for a duration; injected so that tests decide when the timer fires.
    public typealias Sleep = @Sendable (Duration) async throws -> Void

    /// The file written to.
    public let file: DocumentFile<Document>
    /// How long after a change the write happens, unless more changes come first.
    public let delay: Duration
    /// The most recent write's failure, or `nil` once a write succeeds.
    public let lastError = ObservableProperty<PersistenceError?>(nil)
    /// How many writes have completed successfully.
    public private(set) var writeCount = 0

    private let sleep: Sleep
    private var pending: Document?
    private var timer: Task<Void, Never>?
    private var lastWrite: Task<PersistenceError?, Never>?

    /// Creates a saver for `file`.
    ///
    /// - Parameters:
    ///   - file: Where to write.
    ///   - delay: How long to wait after a change for more changes before writing.
    ///   - sleep: How to wait; `Task.sleep(for:)` unless a test drives time.
    public init(
        file: DocumentFile<Document>,
        delay: Duration = .milliseconds(300),
        sleep: @escaping Sleep = { try await Task.sleep(for: $0) }
    ) {
        self.file = file
        self.delay = delay
        self.sleep = sleep
    }

    /// Whether a version is waiting to be written.
    public var hasPendingChanges: Bool { pending != nil }

    /// Takes `document` as the newest version and makes sure a write follows.
    public func documentChanged(_ document: Document) {
        pending = document
        guard timer == nil else { return }
        let sleep = self.sleep
        let delay = self.delay
        // The tasks hold the saver strongly: a pending version keeps its saver alive until it is
        // written, so releasing the saver early loses nothing. Each task ends, and lets go.
        timer = Task {
            do { try await sleep(delay) } catch { return }
            self.timerFired()
        }
    }

    /// Writes the pending version now, if there is one, and waits for every write to finish.
    ///
    /// - Throws: The ``PersistenceError`` of the last write, if it failed; its version stays
    ///   pending.
    public func flush() async throws(PersistenceError) {
        timer?.cancel()
        timer = nil
        startWriteIfPending()
        if let error = await lastWrite?.value { throw error }
    }

    private func timerFired() {
        timer = nil
        startWriteIfPending()
    }

    /// Starts writing the pending version after the write before it.
    private func startWriteIfPending() {
        guard let document = pending else { return }
        pending = nil
        let previous = lastWrite
        let file = self.file
        lastWrite = Task {
            _ = await previous?.value
            do throws(PersistenceError) {
                try await file.save(document)
                self.writeSucceeded()
                return nil
            } catch {
                self.writeFailed(error, document: document)
                return error
            }
        }
    }

    private func writeSucceeded() {
        writeCount += 1
        lastError.value = nil
    }

    private func writeFailed(_ error: PersistenceError, document: Document) {
        if pending == nil { pending = document }
        lastError.value = error
    }
}
