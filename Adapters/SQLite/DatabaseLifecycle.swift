/// The life of an SQLite persistence, as a pure value: its stage, and what each event leads to.
///
/// `SQLitePersistence` runs the effects; this is tested without any file.
///
/// Once the path no longer names the file that was opened (deleted, moved, replaced, emptied or
/// cut short by another program), nothing more is written there, the user is told once, and the list held in
/// memory goes whole to a new file beside it, at the next edit or at the end.
package enum DatabaseLifecycle: Equatable, Sendable {
    /// Being opened and read; nothing else happens until that ends.
    case opening
    /// The file at the path is the one open: edits go to it, other programs' commits come from it.
    case open
    /// The path no longer names the file open here; the list waits to go to `recovery`.
    case detached(reason: String, recovery: String)
    /// Writing what is queued, then letting go of the file; no look after this.
    case closing
    /// Done: every later event is ignored.
    case closed

    /// What happened.
    package enum Event: Equatable, Sendable {
        /// The file was opened and read.
        case opened
        /// A look or a write found the path no longer naming the open file.
        case fileLost(reason: String, recovery: String)
        /// The user edited the list (it is in memory; where it goes depends on the stage).
        case edited
        /// The program is about to end, or asked for everything to be written.
        case flushRequested
        /// The list was written whole to the recovery file, which is now the one open.
        case recovered
        /// Closing was asked for.
        case closeRequested
        /// The file was let go.
        case closed
    }

    /// What the persistence must do.
    package enum Effect: Equatable, Sendable {
        /// Write the edits queued, in order, to the open file.
        case writeQueued
        /// Fold this connection's commits into the lost file, so no later file reads them.
        case foldLog
        /// Tell the user, once.
        case tell(String)
        /// Write the whole list to this new file, and keep the list there from now on.
        case writeList(to: String)
        /// Stop looking for other programs' commits.
        case stopLooking
    }

    /// Moves to the stage `event` leads to, and returns the effects to run, in order; `path`
    /// names the database in a notice.
    package mutating func handle(_ event: Event, path: String) -> [Effect] {
        switch (self, event) {
        case (.opening, .opened):
            self = .open
            return []
        case (.open, .edited), (.open, .flushRequested):
            return [.writeQueued]
        case (.open, .fileLost(let reason, let recovery)):
            self = .detached(reason: reason, recovery: recovery)
            return [.foldLog, .tell(Self.notice(path: path, reason: reason, recovery: recovery))]
        case (.detached(_, let recovery), .edited), (.detached(_, let recovery), .flushRequested):
            return [.writeList(to: recovery)]
        case (.detached, .recovered):
            self = .open
            return [.writeQueued]
        case (.detached(_, let recovery), .closeRequested):
            // Written first, then let go.
            return [.stopLooking, .writeList(to: recovery)]
        case (.closing, .fileLost(let reason, let recovery)):
            // Lost while the queue was being written: the list goes beside it, as for an edit.
            self = .detached(reason: reason, recovery: recovery)
            return [
                .foldLog, .tell(Self.notice(path: path, reason: reason, recovery: recovery)),
                .writeList(to: recovery),
            ]
        case (.open, .closeRequested):
            self = .closing
            return [.stopLooking, .writeQueued]
        case (.opening, .closeRequested), (.opening, .closed), (.open, .closed),
            (.detached, .closed),
            (.closing, .closed):
            self = .closed
            return []
        case (.opening, _), (.open, _), (.detached, _), (.closing, _), (.closed, _):
            // Nothing else changes anything: a second loss is the same loss, an edit while
            // closing is in the list already, and a closed persistence hears nothing.
            return []
        }
    }

    /// What the user is told when the file is lost.
    static func notice(path: String, reason: String, recovery: String) -> String {
        // True while it is on screen, before the list is written there and after.
        "the database \(path) is no longer the file open here: \(reason). Nothing more is written there; the list open here is kept, in \(recovery) from the next edit or the end of the program on"
    }

    /// Whether edits go to the open file now.
    package var writes: Bool { self == .open || self == .closing }
}
