// The Markdown tables every mode prints (ready to paste into the docs).

/// Prints a table's header row and the separator row under it.
func printTableHeader(_ columns: [String]) {
    printTableRow(columns)
    print("|" + columns.map { _ in "---" }.joined(separator: "|") + "|")
}

/// Prints one row of a table.
func printTableRow(_ cells: [String]) {
    print("| " + cells.joined(separator: " | ") + " |")
}
