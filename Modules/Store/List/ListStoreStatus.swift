/// Where saving the store's list stands, as a screen shows it.
public enum ListSavingState: Equatable, Sendable {
    /// Everything is on disk (or the store is not saved at all).
    case saved
    /// A change waits to be written.
    case pending
    /// Everything is written, but the system could not confirm that the last write is on disk;
    /// `message` says why. A power cut could still bring the previous version back; the next edit
    /// writes and flushes again.
    case unconfirmed(message: String)
    /// The last write failed, `attempts` times in a row; the change is kept and the next edit or
    /// the exit tries again. `message` says what went wrong and where.
    case failed(message: String, attempts: Int)

    /// The case's name, as a trace shows it.
    public var word: String {
        switch self {
        case .saved: "saved"
        case .pending: "pending"
        case .unconfirmed: "unconfirmed"
        case .failed: "failed"
        }
    }
}

/// Something the user should hear about that is not an edit of theirs: a conflict resolved while
/// taking in another process's save, or the file deleted by another program.
public struct ListStoreNotice: Equatable, Sendable, CustomStringConvertible {
    /// Counts notices, so that two notices with the same text are still two.
    public var sequenceNumber: Int
    /// What happened, as a sentence.
    public var message: String

    /// Creates a notice.
    public init(sequenceNumber: Int, message: String) {
        self.sequenceNumber = sequenceNumber
        self.message = message
    }

    /// The message, as a person reads it (`print(notice)` prints what happened).
    public var description: String { message }
}
