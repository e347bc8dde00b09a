/// The visible screen `bytes` leave in a terminal of `columns` × `rows` cells (LF returns the
/// carriage): the text of each screen row, and the cursor's column. For targets outside this
/// module, which cannot see the virtual terminal itself.
public func fuzzVisibleScreen(_ bytes: [UInt8], columns: Int, rows: Int) -> (lines: [String], cursorColumn: Int, description: String) {
    var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
    terminal.feed(bytes)
    let snapshot = terminal.snapshot()
    return (snapshot.lines.suffix(rows).map { VirtualTerminal.lineText($0) }, snapshot.cursorColumn, snapshot.description)
}
