public import MVCListStore
public import MVCModel

/// Attractions can be kept in a database table (SQLite's or PostgreSQL's): a row per attraction,
/// a column per field.
extension Attraction: RowListElement {
    /// Fixed, whatever the nouns become: every attractions database records it.
    public static var databaseKind: String { "attractions" }
}
