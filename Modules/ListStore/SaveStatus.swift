/// Where saving a list stands: what an adapter reports through the port, and what the store
/// shows a screen (``ListStore/saving``), one type for both.
public enum SaveStatus: Equatable, Sendable {
    /// Everything is written (or the list is not kept anywhere).
    case saved
    /// A change waits for the autosave delay, or is being written.
    case pending
    /// Everything is written, but the system could not confirm the last write is on disk (for
    /// this reason): a power cut could still bring the previous version back. The next write
    /// flushes again.
    case unconfirmed(String)
    /// Saving failed, `attempts` times in a row: a write that failed and is tried again, or an
    /// edit a database refused (each refused edit one more). What failed is still pending, and
    /// the next change or flush tries again. The count makes a repeated failure a new status, so
    /// a screen hears of it again.
    case failed(PersistenceError, attempts: Int)

    /// The case's name, as a trace shows it.
    public var word: String {
        switch self {
        case .saved: "saved"
        case .pending: "pending"
        case .unconfirmed: "unconfirmed"
        case .failed: "failed"
        }
    }

    /// What is wrong, as a sentence a screen shows until it is put right; `nil` while nothing is.
    public var problem: String? {
        switch self {
        case .saved, .pending:
            nil
        case .unconfirmed(let reason):
            "the last save was written but not confirmed on disk: \(reason)"
        case .failed(let error, let attempts):
            "not saved: \(error)" + (attempts > 1 ? " (failed \(attempts) times in a row)" : "")
        }
    }
}
