public import Foundation
public import MVCModel
public import MVCPersistence
public import MVCTracing

extension AttractionStore {
    /// Opens the attractions saved at `url` (an empty list if there is no file yet), with a saver
    /// that writes every change back to it and merges what other processes save.
    ///
    /// - Parameters:
    ///   - url: The attractions file (a symbolic link is followed).
    ///   - delay: How long the saver waits after a change for more changes.
    ///   - clock: The clock the saver's delay and the watch interval are measured on; tests pass
    ///     one they advance by hand.
    ///   - watchInterval: How often to look for another process's save, to show it without
    ///     waiting for this process's next save; `nil` looks only when saving.
    ///   - tracer: Told each hop the store and the saver make.
    /// - Returns: The store and its saver; call the saver's `flush()` before exiting.
    /// - Throws: `PersistenceError` if the file exists but cannot be loaded, or
    ///   breaks the model's rules; nothing is written.
    public static func open(
        at url: URL,
        delay: Duration = .milliseconds(300),
        clock: any Clock<Duration> = ContinuousClock(),
        watchInterval: Duration? = nil,
        tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (
        store: AttractionStore, saver: CoalescingSaver<[Attraction]>
    ) {
        let file = DocumentFile(url: url, format: .attractions)
        let snapshot = try await file.readSnapshot()
        let saver = CoalescingSaver(
            file: file, snapshot: snapshot, delay: delay, clock: clock, tracer: tracer,
            merge: AttractionMerge.merge)
        let store = AttractionStore(
            attractions: snapshot.document ?? [], saver: saver, tracer: tracer)
        saver.reconcile = { [weak store] base, fileVersion, notices in
            store?.takeIn(base: base, fileVersion: fileVersion, notices: notices) ?? fileVersion
        }
        saver.notify = { [weak store] message in store?.post(message) }
        if let watchInterval { saver.watch(every: watchInterval) }
        return (store, saver)
    }
}
