extension String {
    /// The string without leading and trailing whitespace and newlines.
    public var trimmedOfWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
