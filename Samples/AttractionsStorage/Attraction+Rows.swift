public import MVCListStore
public import MVCModel

/// Attractions can be kept in a database table (SQLite's or PostgreSQL's): a row per attraction,
/// a column per field.
extension Attraction: RowListElement {
    /// Fixed, whatever the nouns become: every attractions database records it.
    public static var databaseKind: String { "attractions" }

    /// The id `text` is the ``/MVCModel/Attraction/ID/description`` of; read without writing the
    /// id back to compare, since `Attraction.ID(_:)` takes nothing else (a million rows open
    /// faster).
    public static func id(stored text: String) -> Attraction.ID? { Attraction.ID(text) }
}
