import Foundation
import MVCModel
import MVCStore

/// Taking in other processes' commits.
extension SQLitePersistence {
    /// Looks for other processes' commits now, and takes them in.
    public func lookForChanges() {
        if state.lookAsked() { startWorking() }
    }

    /// Looks once, and applies to the store what another process committed since the last
    /// change the store has.
    ///
    /// The rows changed, each placed after the row it follows in the
    /// database, and the rows deleted. No merge happens here: a look is taken in only when every
    /// edit of this process is written (each write merged with the stored row), so the database
    /// holds the one answer and the store takes it.
    func look() async {
        guard let store else { return }
        let read = await database.look()
        // Closed while the look was under way.
        guard state.stage == .open, state.isWatching else { return }
        defer { if state.pending.isEmpty { tellHeldNotices() } }
        switch read {
        case .success(let changes?):
            state.lookSucceeded()
            // Edits made here while it read are written first; it looks again after them.
            guard state.lookRead() else { return }
            if let whole = changes.whole {
                await takeIn(whole: whole.elements, problems: whole.problems, into: store)
            } else if !apply(changes, to: store) {
                // A row could not be placed (every row named before it is one this process
                // skipped): the whole list, at the next look.
                await database.readWholeListNext()
                return state.lookAgain()
            }
            await database.tookIn(
                through: changes.through, stamp: changes.stamp, dataVersion: changes.dataVersion)
        case .success(nil):
            state.lookSucceeded()
        case .failure(let error):
            let problem = "could not read other programs' changes: \(error)"
            if state.lookFailed(problem) { store.postNotice(problem) }
        }
    }

    /// Applies the changed rows and the deletions to the store; `false` if a row could not be
    /// placed.
    private func apply(_ changes: DatabaseChanges<Element>, to store: ListStore<Element>) -> Bool {
        let changed = changes.rows.compactMap { row in
            row.element.map { (element: $0, predecessors: row.predecessors) }
        }
        guard store.takeIn(changed: changed, deleted: changes.deleted) else { return false }
        for notice in told(changes.rows.compactMap(\.problem)) { store.postNotice(notice) }
        return true
    }

    /// The whole list, read when the changes alone could not be: merged as the JSON document's
    /// file is, against the store's list (which is what the database held at the last look).
    private func takeIn(
        whole elements: [Element], problems: [String], into store: ListStore<Element>
    )
        async
    {
        let base = store.elements
        _ = await store.takeIn(base: base, fileVersion: elements, notices: told(problems))
        // Freeing a long list takes a while: off the main actor.
        Task.detached(priority: .background) { withExtendedLifetime((base, elements)) {} }
    }

    /// Tells what the writes held back, once the rows they are about are in the store.
    func tellHeldNotices() {
        for notice in state.takeHeldNotices() { store?.postNotice(notice) }
    }

    /// A notice for each row skipped that was not told at the last look: each is told once, not
    /// at every commit while it is there.
    private func told(_ problems: [String]) -> [String] {
        state.skipped(problems).map { "skipped a row another program wrote: \($0)" }
    }

    /// Starts looking for other processes' commits every `interval` (one pragma when nothing is
    /// new); `nil` looks only when asked.
    func watch(every interval: Duration?, clock: any Clock<Duration>) {
        state.startedWatching()
        guard let interval else { return }
        // Once looking stops it idles until `deinit` cancels it: cancelled at closing, it would
        // drop the last weak reference, whose side table LeakSanitizer reports as leaked at exit.
        poller = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                if self?.state.isWatching == true { self?.lookForChanges() }
            }
        }
    }
}
