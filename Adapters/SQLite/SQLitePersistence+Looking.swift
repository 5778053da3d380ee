import Foundation
import MVCModel
import MVCStore

/// Taking in other processes' commits.
extension SQLitePersistence {
    /// Looks for other processes' commits now, and takes them in.
    public func lookForChanges() {
        guard stage == .open, watching else { return }
        wantsLook = true
        startWorking()
    }

    /// Looks once, and has the store merge in the list if another process committed.
    func look() async {
        guard let store else { return }
        // The worker writes before it looks: the list here is what the file held when this
        // process last wrote or looked.
        let base = store.elements
        let read = await database.look()
        // Closed while the look was under way.
        guard stage == .open, watching else { return }
        switch read {
        case .success(let read?):
            lookProblem = nil
            // Each row skipped is told once, not at every commit while it is there.
            let notices = read.problems.filter { !skippedRows.contains($0) }.map {
                "skipped a row another program wrote: \($0)"
            }
            skippedRows = Set(read.problems)
            // A commit that left the list as it was brings nothing (compared off the main actor).
            if await Task.detached(operation: { read.elements == base }).value {
                for notice in notices { store.postNotice(notice) }
            } else {
                _ = await store.takeIn(base: base, fileVersion: read.elements, notices: notices)
            }
            // Freeing a long list takes a while: off the main actor.
            Task.detached(priority: .background) { withExtendedLifetime((base, read)) {} }
        case .success(nil):
            lookProblem = nil
        case .failure(let error):
            let problem = "could not read other programs' changes: \(error)"
            if problem != lookProblem { store.postNotice(problem) }
            lookProblem = problem
        }
    }

    /// Starts looking for other processes' commits every `interval` (one pragma when nothing is
    /// new); `nil` looks only when asked.
    func watch(every interval: Duration?, clock: any Clock<Duration>) {
        watching = true
        guard let interval else { return }
        // Once looking stops it idles until `deinit` cancels it: cancelled at closing, it would
        // drop the last weak reference, whose side table LeakSanitizer reports as leaked at exit.
        poller = Task { [weak self] in
            while !Task.isCancelled {
                do { try await clock.sleep(for: interval) } catch { return }
                if self?.watching == true { self?.lookForChanges() }
            }
        }
    }
}
