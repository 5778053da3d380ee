public import Foundation
public import MVCElements
public import MVCListStore
public import MVCObservation
public import MVCTracing

/// An element whose list is saved as one document file, in a format of its own.
public protocol DocumentListElement: ListElement, Codable {
    /// The document's format: its versions, migrations and rules.
    static var documentFormat: FileFormat<[Self]> { get }
}

extension ListStore where Element: DocumentListElement {
    /// Opens the list saved at `url` (an empty list if there is no file yet), with a saver that
    /// writes every change back to it and merges what other processes save.
    ///
    /// - Parameters:
    ///   - url: The document file (a symbolic link is followed).
    ///   - delay: How long the saver waits after a change for more changes.
    ///   - clock: The clock the saver's delay and the watch interval are measured on; tests pass
    ///     one they advance by hand.
    ///   - watchInterval: How often to look for another process's save, to show it without
    ///     waiting for this process's next save; `nil` (the default) follows the operating
    ///     system's notices instead (``CoalescingSaver/watchForSaves(fallbackInterval:)``).
    ///   - watching: Whether to look for other processes' saves between this one's; `false` looks
    ///     only when saving (or when asked, by `flushAndLook()`). By default it does, as an
    ///     SQLite database does: another process's edits arrive whichever adapter keeps the list.
    ///   - tracer: Told each hop the store and the saver make.
    /// - Returns: The store and its saver; call the saver's `flushAndLook()` before exiting.
    ///
    /// The store's edits reach the saver through a ``DocumentPersistence``; another process's
    /// save reaches the store, its ``/MVCListStore/ListInbox``, through the saver's `reconcile`.
    /// - Throws: `PersistenceError` if the file exists but cannot be loaded, or breaks the
    ///   model's rules; nothing is written.
    public static func open(
        at url: URL,
        delay: Duration = CoalescingSaver<[Element]>.defaultDelay,
        clock: any Clock<Duration> = ContinuousClock(),
        watchInterval: Duration? = nil,
        watching: Bool = true,
        tracer: HopTracer = .disabled
    ) async throws(PersistenceError) -> (store: ListStore, saver: CoalescingSaver<[Element]>) {
        let file = DocumentFile(url: url, format: Element.documentFormat)
        let snapshot = try await file.readSnapshot()
        let saver = CoalescingSaver(
            file: file, snapshot: snapshot, delay: delay, clock: clock, tracer: tracer,
            merge: ListMerge.merge)
        let elements = snapshot.document ?? []
        let list = await Task.detached { EditableList(elements) }.value
        let store = ListStore(list, persistence: DocumentPersistence(saver: saver), tracer: tracer)
        if let watchInterval {
            saver.watch(every: watchInterval)
        } else if watching {
            saver.watchForSaves()
        }
        return (store, saver)
    }
}

/// Keeps a list as one document file, through a ``/MVCDocumentStore/CoalescingSaver``: a burst of edits becomes one
/// atomic rewrite, merged with what other processes saved meanwhile.
@MainActor
public final class DocumentPersistence<Element: DocumentListElement>: ListPersistence {
    /// The saver that writes the document; call its `flushAndLook()` before exiting.
    public let saver: CoalescingSaver<[Element]>

    /// Keeps the list through `saver`.
    public init(saver: CoalescingSaver<[Element]>) {
        self.saver = saver
    }

    /// The saver's status.
    public var saveStatus: ReadOnlyProperty<SaveStatus> { saver.status }

    /// Hands the whole new list to the saver, which writes it after its delay.
    public func listChanged(_ elements: [Element], by change: ListChange<Element>) {
        saver.documentChanged(elements)
    }

    /// Has the saver hand `inbox` each newer version of the file it finds, and each sentence
    /// about the file; `inbox` is held weakly.
    public func connect(to inbox: any ListInbox<Element>) {
        weak let inbox = inbox
        saver.reconcile = { base, fileVersion, notices in
            await inbox?.takeIn(base: base, fileVersion: fileVersion, notices: notices)
                ?? fileVersion
        }
        saver.notify = { message in inbox?.postNotice(message) }
    }
}
