// Test hooks: what a test waits for instead of a fixed time.

import Synchronization

extension SQLitePersistence {
    /// Whether a look for other processes' commits is reading the database now, past its check
    /// that the file is still at its path (it may be waiting for another program's lock).
    package var isReadingOtherProcessesChanges: Bool {
        database.readsChanges.load(ordering: .relaxed)
    }
}
