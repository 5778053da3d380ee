/// One rule for the text around a value, in every module of this package (not API: an importer
/// trims as it likes).
extension String {
    /// The string without leading and trailing whitespace and newlines.
    package var trimmedOfWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
