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
