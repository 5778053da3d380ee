/// The change log entries a process knows are in the database, to notice when the log's history
/// changed under it.
///
/// A copy restored in place (`sqlite3 list.sqlite ".restore backup.sqlite"`) takes the log back
/// to an older entry, and the entries written after that get numbers that were given before. A
/// process that read the log up to entry 40, and wrote entry 43 itself, would read entries 41 and
/// up of the restored copy as if they followed what it has, and keep its own reverted edit. So
/// each entry carries a token no other entry has (the connection's id and the edit's number
/// there), and before reading on, the process checks that the entries it knows of are still
/// there, token for token: the newest it read, and its own written since. If one is not, or a
/// new entry of its own gets a number at or below one it knows, the history changed, and the
/// next look reads the whole list.
struct LogHistory {
    /// Names the connection in its entries' tokens.
    private let origin: String
    /// How many entries the log keeps: an entry further back is trimmed, and not checked.
    private let kept: Int64
    private var writes = 0
    /// The newest entry known.
    private var newest: Int64 = 0
    /// Entry number to token, for the entries a look must find unchanged before it reads on.
    ///
    /// They are the newest entry a look read through, and this process's own entries since.
    private(set) var known: [Int64: String] = [:]
    /// Whether an entry of this process's got a number it knew already: the log was taken back.
    private(set) var changed = false

    init(origin: String, keeping kept: Int64) {
        self.origin = origin
        self.kept = kept
    }

    /// The token for this process's next entry.
    mutating func nextToken() -> String {
        writes += 1
        return "\(origin) \(writes)"
    }

    /// Notes this process's entry `entry`, written with `token`.
    mutating func wrote(_ entry: Int64, token: String) {
        // A new entry is numbered past every entry in the log: one at or below a known entry
        // means the log was taken back to before that one.
        if entry <= newest { changed = true }
        newest = max(newest, entry)
        known[entry] = token
        // A process that only writes never reads through its entries: those the log no longer
        // keeps are let go, so the record stays as short as the log.
        if known.count > 2 * Int(kept) {
            known = known.filter { $0.key > newest - kept }
        }
    }

    /// Starts again from `entry`, read with `token` (`nil`: an empty log): after a look read the
    /// log through it, or after the file was opened.
    mutating func readThrough(_ entry: Int64, token: String?) {
        known = token.map { [entry: $0] } ?? [:]
        newest = entry
        changed = false
    }
}
