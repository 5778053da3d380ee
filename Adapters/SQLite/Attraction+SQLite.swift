public import MVCModel

/// Attractions can be kept in an SQLite database: a row per attraction, a column per field.
extension Attraction: SQLiteListElement {
    /// Fixed, whatever the nouns become: every attractions database records it.
    public static var databaseKind: String { "attractions" }
}
