import Foundation
import MVCModel
import MVCStore

/// Taking in other processes' commits: SQLite is asked whether another connection committed, and
/// if one did, the whole list is read off the main actor and merged in by the store.
extension SQLitePersistence {
    /// Looks for other processes' commits now, and takes them in.
    ///
    /// Called every poll interval; call it yourself to look without waiting.
    public func lookForChanges() {
        guard lifecycle == .open, watching else { return }
        wantsLook = true
        startWorking()
    }

    /// Looks once: reads the whole list if another process committed, and has the store merge
    /// it in (off the main actor, as another process's save of a JSON document).
    func look() async {
        guard let store else { return }
        // Every edit of this process's is in the file (the worker writes before it looks), so
        // the list here is what the file held when this process last wrote or looked.
        let base = store.elements
        let looked = database
        let (lost, read) = await looked.look()
        // Closed, or the list moved to another file, while the look was under way.
        guard lifecycle == .open, looked === database, watching else { return }
        if let lost { return fileLost(lost) }
        switch read {
        case .success(let read?):
            lookProblem = nil
            // A commit that left the list as it was (a change of journal mode when the file was
            // made, a row rewritten as it was) brings nothing: compared off the main actor.
            let unchanged = await Task.detached { read.elements == base }.value
            if !unchanged {
                _ = await store.takeIn(
                    base: base, fileVersion: read.elements,
                    notices: read.problems.map { "skipped a row another program wrote: \($0)" })
            }
            // The two lists read and replaced are let go off the main actor: freeing a long
            // list's values one by one takes a while.
            Task.detached(priority: .background) { withExtendedLifetime((base, read)) {} }
        case .success(nil):
            lookProblem = nil
        case .failure(.corrupt(_, let reason)):
            fileLost("another program damaged it (\(reason))")
        case .failure(let error):
            let problem = "could not read other programs' changes: \(error)"
            if problem != lookProblem { store.postNotice(problem) }
            lookProblem = problem
        }
    }

    /// Starts looking for other processes' commits every `interval`; `nil` looks only when asked.
    ///
    /// A look that finds nothing new costs a turn of the main actor and one trip to the
    /// database's queue, for `PRAGMA data_version` and one `lstat` of the path.
    func watch(every interval: Duration?, clock: any Clock<Duration>) {
        watching = true
        guard let interval else { return }
        // Once looking stops it idles until `deinit` cancels it. (Cancelled at closing, it would
        // drop the last weak reference to the object, and LeakSanitizer, which cannot see a live
        // object's weak-reference table, would report that table as leaked at exit.)
        poller = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                if self?.watching == true { self?.lookForChanges() }
            }
        }
    }
}
