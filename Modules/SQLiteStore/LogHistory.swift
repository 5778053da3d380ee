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
    private var writes = 0
    /// Entry number to token, for the entries a look must find unchanged before it reads on.
    ///
    /// They are the newest entry a look read through, and this process's own entries since.
    private(set) var known: [Int64: String] = [:]
    /// Whether an entry of this process's got a number it knew already: the log was taken back.
    private(set) var changed = false

    init(origin: String) {
        self.origin = origin
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
        if let newest = known.keys.max(), entry <= newest { changed = true }
        known[entry] = token
    }

    /// Starts again from `entry`, read with `token` (`nil`: an empty log): after a look read the
    /// log through it, or after the file was opened.
    mutating func readThrough(_ entry: Int64, token: String?) {
        known = token.map { [entry: $0] } ?? [:]
        changed = false
    }
}
