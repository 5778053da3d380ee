/// Where saving a document stands, as a screen shows it.
public enum SaveStatus: Equatable, Sendable {
    /// Everything is written.
    case saved
    /// A version waits for the autosave delay, or is being written.
    case pending
    /// Everything is written, but the system could not confirm the last write is on disk (for
    /// this reason): a power cut could still bring the previous version back. The next write
    /// flushes again.
    case unconfirmed(String)
    /// The last write failed, `attempts` times in a row; its version is still pending and the next
    /// change or flush tries again. The count makes a repeated failure a new status, so a screen
    /// hears of it again.
    case failed(PersistenceError, attempts: Int)
}

extension ListSavingState {
    init(_ status: SaveStatus) {
        switch status {
        case .saved: self = .saved
        case .pending: self = .pending
        case .unconfirmed(let reason):
            self = .unconfirmed(
                message: "the last save was written but not confirmed on disk: \(reason)")
        case .failed(let error, let attempts):
            self = .failed(message: error.description, attempts: attempts)
        }
    }
}
