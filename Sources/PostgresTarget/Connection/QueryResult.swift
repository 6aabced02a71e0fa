/// The rows a statement returned, as text (PostgreSQL's text format), nil for SQL NULL.
public struct QueryResult: Sendable, Hashable {
    /// Column names, in order.
    public var columns: [String]
    /// Rows, each with one value per column.
    public var rows: [[String?]]

    /// The first column of the first row, if any.
    public var scalar: String? { rows.first?.first ?? nil }
}
