import MVCElements
import MVCListStore

/// How a list is laid out on the server, and the triggers that keep its change feed.
///
/// - `mvclayers_lists`: a row per list: its table, its kind (``/MVCListStore/RowListElement/databaseKind``),
///   the schema version, `last_change` (advanced by every change to the list's rows),
///   `pruned` (tombstones up to it are gone) and `epoch` (made new when the list is made, so a
///   table dropped and made again is read whole).
/// - The list's table: `id` (text, the key), `rank` (order, `RowRank`), `row_change` (the change
///   that last wrote the row), a column per described field.
/// - `<table>_tombstones`: the ids deleted, each with the change that deleted it.
///
/// The trigger `mvclayers_track` does the bookkeeping inside the transaction that changes a row,
/// whoever changes it (this package, `psql`, another program): it locks the list's row of
/// `mvclayers_lists` (so the list's writers commit in the order of their changes), advances the
/// counter, stamps the row or leaves a tombstone, and notifies the channel `mvclayers.<table>`
/// (delivered at commit).
enum TableSchema {
    /// The layout this code writes.
    static let version = 1
    /// How many changes a tombstone is kept: a client further behind reads the whole list.
    static let tombstoneWindow = 100_000

    /// Waits for this client's turn to make the shared function and tables (one client at a
    /// time), in the transaction begun: for up to a minute, since a burst of openings, or another
    /// client creating a long list, holds the turn longer than an edit waits for a lock; the
    /// connection's own lock wait applies again after it.
    static func takeSetUpTurn(_ connection: PostgresConnection) throws {
        try connection.run("SET LOCAL lock_timeout = '60s'")
        try connection.run("SELECT pg_advisory_xact_lock(7270201)")
        try connection.run("SET LOCAL lock_timeout TO DEFAULT")
    }

    static let lists = """
        CREATE TABLE IF NOT EXISTS mvclayers_lists (
            list text PRIMARY KEY,
            kind text NOT NULL,
            version integer NOT NULL,
            last_change bigint NOT NULL DEFAULT 0,
            pruned bigint NOT NULL DEFAULT 0,
            epoch text NOT NULL DEFAULT md5(random()::text || clock_timestamp()::text))
        """

    static let tracking = """
        CREATE OR REPLACE FUNCTION mvclayers_track() RETURNS trigger LANGUAGE plpgsql AS $track$
        DECLARE
            change bigint;
            pruned_through bigint;
        BEGIN
            UPDATE mvclayers_lists SET last_change = last_change + 1 WHERE list = TG_ARGV[0]
                RETURNING last_change, pruned INTO change, pruned_through;
            IF change IS NULL THEN
                RAISE EXCEPTION 'the list % is not in mvclayers_lists', TG_ARGV[0];
            END IF;
            PERFORM pg_notify('mvclayers.' || TG_ARGV[0], '');
            IF TG_OP = 'DELETE' THEN
                EXECUTE format('INSERT INTO %I (id, row_change) VALUES ($1, $2) '
                    'ON CONFLICT (id) DO UPDATE SET row_change = EXCLUDED.row_change',
                    TG_ARGV[0] || '_tombstones') USING OLD.id, change;
                IF change - pruned_through > \(tombstoneWindow + 1024) THEN
                    EXECUTE format('DELETE FROM %I WHERE row_change <= $1',
                        TG_ARGV[0] || '_tombstones') USING change - \(tombstoneWindow);
                    UPDATE mvclayers_lists SET pruned = change - \(tombstoneWindow)
                        WHERE list = TG_ARGV[0];
                END IF;
                RETURN OLD;
            END IF;
            IF TG_OP = 'INSERT' THEN
                EXECUTE format('DELETE FROM %I WHERE id = $1', TG_ARGV[0] || '_tombstones')
                    USING NEW.id;
            END IF;
            NEW.row_change := change;
            RETURN NEW;
        END
        $track$
        """

    /// The trigger function's body, as the server keeps it (`pg_proc.prosrc`).
    static var trackingBody: String {
        let parts = tracking.split(separator: "$track$", omittingEmptySubsequences: false)
        return parts.count == 3 ? String(parts[1]) : tracking
    }

    /// The statements that make `table` for `Element`; the last makes the trigger.
    static func making<Element: RowListElement>(_ table: String, for _: Element.Type) -> [String] {
        let quoted = PostgresLocation.quoted(table)
        let columns = Element.fields.map { "\(PostgresLocation.quoted($0.name)) \(type(of: $0))" }
        return [
            "CREATE TABLE \(quoted) (id text PRIMARY KEY, rank bigint NOT NULL, row_change bigint NOT NULL DEFAULT 0\(columns.map { ", " + $0 }.joined()))",
            "CREATE INDEX \(PostgresLocation.quoted(table + "_by_rank")) ON \(quoted) (rank, id)",
            "CREATE INDEX \(PostgresLocation.quoted(table + "_by_change")) ON \(quoted) (row_change)",
            "CREATE TABLE \(PostgresLocation.quoted(table + "_tombstones")) (id text PRIMARY KEY, row_change bigint NOT NULL)",
            "CREATE INDEX \(PostgresLocation.quoted(table + "_tombstones_by_change")) ON \(PostgresLocation.quoted(table + "_tombstones")) (row_change)",
            "CREATE TRIGGER \(PostgresLocation.quoted(table + "_tracked")) BEFORE INSERT OR UPDATE OR DELETE ON \(quoted) FOR EACH ROW EXECUTE FUNCTION mvclayers_track('\(table)')",
        ]
    }

    /// The column type a field is kept in.
    static func type<Element>(of field: ElementField<Element>) -> String {
        switch field.valueKind {
        case .text: "text"
        case .integer: "bigint"
        case .real: "double precision"
        case .boolean: "boolean"
        }
    }

    /// The SQL that reads a field's column as the text the field's parse reads back.
    static func reading<Element>(_ field: ElementField<Element>, in alias: String = "") -> String {
        let column = (alias.isEmpty ? "" : alias + ".") + PostgresLocation.quoted(field.name)
        return switch field.valueKind {
        // A boolean's own text is `t` or `f`.
        case .boolean: "\(column)::text"
        case .text, .integer, .real: column
        }
    }

    /// `id`, then the described fields read as text: for a `SELECT` (from the table named
    /// `alias` in it, if given).
    static func selected<Element: RowListElement>(_: Element.Type, in alias: String = "") -> String
    {
        let id = alias.isEmpty ? "id" : alias + ".id"
        return ([id] + Element.fields.map { reading($0, in: alias) }).joined(separator: ", ")
    }
}
