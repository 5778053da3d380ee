import Foundation
import MVCModel
import MVCStore
import MVCTracing

/// Taking in other processes' commits: read off the main actor, applied on it as ordinary store
/// edits, a few milliseconds at a time.
extension SQLitePersistence {
    /// Looks for other processes' commits now, and takes them in.
    ///
    /// Called every poll interval; call it yourself to look without waiting.
    public func lookForChanges() {
        guard lifecycle == .open, watching else { return }
        wantsLook = true
        startWorking()
    }

    /// Looks once, and takes in what it finds (the worker calls it when no edit waits).
    func look() async {
        let editsBefore = edits
        let looked = database
        let (lost, result) = await looked.look(
            after: seen, force: forcesNextLook, whole: readsWholeNext)
        // Closed, or the list moved to another file, while the look was under way.
        guard lifecycle == .open, looked === database, let store else { return }
        if let lost { return fileLost(lost) }
        let changes: RemoteChanges<Element>?
        switch result {
        case .success(let read):
            changes = read
            forcesNextLook = false
        case .failure(.corrupt(_, let reason)):
            return fileLost("another program damaged it (\(reason))")
        case .failure(let error):
            forcesNextLook = true
            store.postNotice("could not read other programs' changes: \(error)")
            return
        }
        guard let changes else { return }
        // An edit made meanwhile may be one the rows read do not have yet: read again after it.
        guard edits == editsBefore else {
            if case .whole = changes { readsWholeNext = true }
            return lookAgain()
        }
        switch changes {
        case .rows(let rows, let through, let problems):
            // The rows read hold this process's own entries too; only those that change the list
            // here are another process's edits to trace.
            let bringing = rows.filter { !Self.edits(bringing: $0, into: store).isEmpty }.count
            if bringing > 0 {
                tracer.record(
                    from: .persistence, to: .store,
                    "take in another process's edits (\(Element.counted(bringing)))")
            }
            guard
                await applyInSlices(
                    rows, editsBefore: editsBefore,
                    { row in
                        store.takeIn(Self.edits(bringing: row, into: store))
                    })
            else { return lookAgain() }
            finish(through: through, problems: problems, in: store)
        case .whole(let elements, let through, let problems):
            // Until it is applied whole, the next look reads whole too.
            readsWholeNext = true
            tracer.record(
                from: .persistence, to: .store,
                "take in the whole list (\(Element.counted(elements.count)))")
            let current = store.elements
            let difference = await Task.detached {
                ListDifference.changes(from: current, to: elements)
            }.value
            guard edits == editsBefore, store.elements == current,
                await applyInSlices(difference, editsBefore: editsBefore, { store.takeIn([$0]) })
            else { return lookAgain() }
            readsWholeNext = false
            finish(through: through, problems: problems, in: store)
        }
    }

    /// Asks for another look that reads the log, after what this process has to write.
    func lookAgain() {
        wantsLook = true
        forcesNextLook = true
    }

    private func finish(through: Int64, problems: [String], in store: ListStore<Element>) {
        seen = through
        for problem in problems {
            store.postNotice("skipped a row another program wrote: \(problem)")
        }
    }

    /// Applies `items` one at a time through `apply`, yielding the main actor every few
    /// milliseconds; stops (returning `false`) if this process edits meanwhile.
    private func applyInSlices<Item>(
        _ items: [Item], editsBefore: Int, _ apply: (Item) -> Void
    ) async -> Bool {
        var slice = ContinuousClock.now
        for item in items {
            if ContinuousClock.now - slice > .milliseconds(4) {
                await Task.yield()
                guard edits == editsBefore else { return false }
                slice = .now
            }
            apply(item)
        }
        return true
    }

    /// The edits that make the store's list agree with `row`: its removal, or its insertion,
    /// replacement and move to right after its predecessor.
    static func edits(bringing row: RemoteRow<Element>, into store: ListStore<Element>)
        -> [ListEdit<Element>]
    {
        let position = store.position(of: row.id)
        guard let element = row.element else {
            guard let position, let current = store.element(withID: row.id) else { return [] }
            return [.remove(current, at: position)]
        }
        let after = row.predecessor.flatMap(store.position(of:))
        guard let position, let current = store.element(withID: row.id) else {
            return [
                .insert(
                    element, at: after.map { $0 + 1 } ?? (row.predecessor == nil ? 0 : store.count))
            ]
        }
        var edits: [ListEdit<Element>] = []
        if current != element { edits.append(.replace(old: current, new: element)) }
        let currentPredecessor = position > 0 ? store.elements[position - 1].id : nil
        if currentPredecessor != row.predecessor, row.predecessor == nil || after != nil {
            let destination = after.map { $0 < position ? $0 + 1 : $0 } ?? 0
            edits.append(.move(row.id, from: position, to: destination))
        }
        return edits
    }

    // MARK: Watching

    /// Starts looking for other processes' commits every `interval`; `nil` looks only when asked.
    ///
    /// SQLite tells no one of a commit. `PRAGMA data_version`, which changes when another
    /// connection commits, is its documented way to ask. A look that finds nothing new costs a
    /// turn of the main actor and one trip to the database's queue, for that pragma and one
    /// `lstat` of the path.
    func watch(every interval: Duration?, clock: any Clock<Duration>) {
        watching = true
        guard let interval else { return }
        poller = Task { [weak self] in
            // Once looking stops it idles until `deinit` cancels it, and never returns early:
            // see `stopLooking()`.
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                if self?.watching == true { self?.lookForChanges() }
            }
        }
    }

    func stopLooking() {
        // Looking stops by these flags (every look checks them); the poller is let go with the
        // object. Cancelled here, it would drop the last weak reference to it, and LeakSanitizer,
        // which cannot see a live object's weak-reference table through its reference count,
        // would report that table as leaked at exit.
        watching = false
    }
}
