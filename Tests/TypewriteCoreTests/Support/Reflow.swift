@testable import TypewriteCore
import TerminalJudge

/// A resize in a terminal that reflows its rows (tmux, kitty, VTE), as a model for tests: every
/// logical line (rows joined where autowrap continued them) is written again at the new width as
/// writing wraps it — a wide glyph that does not fit goes to the next row, and the cell it left
/// blank is dropped when the rows are joined (tmux 3.3a) — each cell in its own
/// style, and the cursor keeps its place in its logical line (`docs/terminals.md#resize-and-reflow`).
/// The pen is carried over; links are not (tests reflow only where that does not matter).
extension VirtualTerminal {
    func reflowed(columns newColumns: Int, rows newRows: Int) -> VirtualTerminal {
        var lines: [[Cell]] = []
        var cursorLine = 0, cursorOffset = 0
        var current: [Cell] = []
        let wrapped = softWrapped
        for row in 0..<lineCount {
            var cells = line(row)
            if row == cursorRow {
                cursorLine = lines.count
                cursorOffset = current.count + (pendingWrap ? columns : cursorColumn)
            }
            if row < wrapped.count, wrapped[row] {
                // A row a wide glyph wrapped early from ends in a cell never written: tmux drops it
                // when it joins the rows (a space written there, before a wide glyph, reads the same
                // here; tests do not write one).
                if row + 1 < lineCount, cells.count == columns, cells.last == .blank,
                   let next = line(row + 1).first?.text.unicodeScalars.first, CellWidth.of(next) == 2 {
                    cells.removeLast()
                }
                current += cells
                continue
            }
            while let last = cells.last, last == .blank { cells.removeLast() }
            lines.append(current + cells)
            current = []
        }
        while let last = lines.last, last.isEmpty, lines.count - 1 > cursorLine { lines.removeLast() }

        var out: [UInt8] = []
        var cursor: (row: Int, column: Int)? = nil
        var row = 0
        for (index, cells) in lines.enumerated() {
            if index > 0 { out += Array("\r\n".utf8); row += 1 }
            var column = 0, offset = 0
            for cell in cells {
                if index == cursorLine && offset == cursorOffset { cursor = (row, column) }
                offset += 1
                if cell.text.isEmpty { continue }  // the right half of a wide glyph
                let width = cell.text.unicodeScalars.first.map { CellWidth.of($0) == 2 ? 2 : 1 } ?? 1
                if column + width > newColumns { row += 1; column = 0 }
                out += Array("\u{1B}[0m".utf8) + Self.sgr(cell.style) + Array(cell.text.utf8)
                column += width
            }
            if index == cursorLine && cursor == nil {
                // At or past the end of the text: after its last cell, plus the blanks before it.
                let extra = cursorOffset - offset
                if extra > 0 { out += Array(String(repeating: " ", count: extra).utf8) }
                cursor = nil
            }
        }
        out += Array("\u{1B}[0m".utf8)
        var terminal = VirtualTerminal(columns: newColumns, rows: newRows, margin: margin, newlineIsCRLF: newlineIsCRLF)
        terminal.feed(out)
        if let cursor {
            let top = max(0, terminal.lineCount - newRows)
            terminal.feed("\u{1B}[\(cursor.row - top + 1);\(cursor.column + 1)H")
        }
        // The pen survives a resize.
        terminal.feed(Self.sgr(style))
        return terminal
    }

    /// The SGR that sets `style` from the default one.
    static func sgr(_ style: Style) -> [UInt8] {
        func color(_ c: Color, base: Int) -> String? {
            switch c {
            case .default: return nil
            case .indexed(let n): return "\(base + 8);5;\(n)"
            case let .rgb(r, g, b): return "\(base + 8);2;\(r);\(g);\(b)"
            }
        }
        var parts: [String] = []
        if style.bold { parts.append("1") }
        if style.faint { parts.append("2") }
        if style.italic { parts.append("3") }
        if style.underline != 0 { parts.append("4") }
        if style.reverse { parts.append("7") }
        if style.strike { parts.append("9") }
        if let fg = color(style.fg, base: 30) { parts.append(fg) }
        if let bg = color(style.bg, base: 40) { parts.append(bg) }
        return parts.isEmpty ? [] : Array("\u{1B}[\(parts.joined(separator: ";"))m".utf8)
    }
}
