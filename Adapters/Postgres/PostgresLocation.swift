import Foundation
public import MVCListStore

/// Where a list is kept on a PostgreSQL server: the connection settings and the table.
///
/// Written as a `postgres://` (or `postgresql://`) URL, with the table after a `#`:
/// `postgres://alice@db.example.com/trips#books`. The URL goes to libpq as it is, so its
/// other sources fill in what it leaves out: the `PG*` variables, `.pgpass` for the password,
/// `sslmode` and the rest as query parameters. ``description`` never shows a password.
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    /// The connection settings, as libpq reads them.
    let settings: String
    /// The table the list is kept in (a lowercase SQL identifier).
    public let table: String
    /// The location as errors show it: the URL without its password, then `#table`.
    public let description: String

    /// The longest table name: PostgreSQL's identifiers hold 63 bytes, and the tombstones' table
    /// adds `_tombstones`.
    public static let maximumTableLength = 40

    /// Whether `text` names a server, not a file: it starts `postgres://` or `postgresql://`.
    public static func names(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("postgres://") || lowered.hasPrefix("postgresql://")
    }

    /// The location `text` spells: a `postgres://` URL, with the table after `#` (`defaultTable`
    /// if there is none).
    ///
    /// - Throws: `PersistenceError.unreadable` naming what is wrong: not such a URL, or a table
    ///   name that is not a lowercase identifier of at most ``maximumTableLength`` characters.
    public init(_ text: String, defaultTable: String = "list") throws(PersistenceError) {
        let parts = text.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        let settings = String(parts[0])
        let table = parts.count > 1 ? String(parts[1]) : defaultTable
        guard Self.names(settings), var components = URLComponents(string: settings) else {
            throw .unreadable(
                path: Self.shown(text),
                reason: "it is not a postgres:// URL (postgres://user@host:port/database#table)")
        }
        components.password = nil
        let shown = (components.string ?? "postgres://") + "#" + table
        guard Self.isIdentifier(table) else {
            throw .unreadable(
                path: shown,
                reason:
                    "the table name “\(table)” is not 1 to \(Self.maximumTableLength) lowercase letters, digits and underscores, starting with a letter or underscore"
            )
        }
        self.settings = settings
        self.table = table
        description = shown
    }

    private static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, name.utf8.count <= maximumTableLength,
            first == "_" || ("a"..."z").contains(first)
        else { return false }
        return name.unicodeScalars.allSatisfy {
            $0 == "_" || ("a"..."z").contains($0) || ("0"..."9").contains($0)
        }
    }

    /// `text` as an error may show it: everything between `://` and the last `@` dropped, so a
    /// password in a URL that could not be read is never printed.
    private static func shown(_ text: String) -> String {
        guard let start = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
            start.upperBound <= at.lowerBound
        else { return text }
        return text.replacingCharacters(in: start.upperBound..<at.lowerBound, with: "•••")
    }

    /// `name` as an SQL identifier.
    static func quoted(_ name: String) -> String { "\"" + name + "\"" }
}
