// MarkdownBlockParser+Leaves.swift: recognising one line's leaf block (ATX headings, fences,
// setext underlines, thematic breaks, list markers, task boxes) and GFM table rows (CommonMark
// 0.31 §4, GFM §4.10). See MarkdownBlockParser.swift.

extension MarkdownBlockParser {
    // MARK: - Leaf blocks

    func trimmedEnd(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int {
        var e = end
        while e > start && MarkdownCharacters.isSpaceOrTab(src[e - 1]) { e -= 1 }
        return e
    }

    /// 1...6 for `#` to `######` followed by a space, a tab or the line's end (4.2).
    func atxLevel(_ src: MarkdownSource, _ start: Int, _ end: Int) -> UInt8? {
        var i = start
        while i < end && src[i] == UInt8(ascii: "#") && i - start < 7 { i += 1 }
        let level = i - start
        guard level >= 1 && level <= 6 else { return nil }
        guard i == end || MarkdownCharacters.isSpaceOrTab(src[i]) else { return nil }
        return UInt8(level)
    }

    mutating func styleATXHeading(_ src: MarkdownSource, _ start: Int, _ end: Int, level: UInt8, tentative: Bool,
                                          sink: inout MarkdownStyleSink) {
        let heading = MarkdownStyle(headingLevel: level)
        leaf = .none
        sink.set(start..<end, heading)
        let openEnd = start + Int(level)
        sink.set(start..<openEnd, MarkdownStyle(headingLevel: level, marker: .headingMarker))
        var contentStart = openEnd
        while contentStart < end && MarkdownCharacters.isSpaceOrTab(src[contentStart]) { contentStart += 1 }
        var contentEnd = trimmedEnd(src, contentStart, end)
        var closer = contentEnd
        while closer > contentStart && src[closer - 1] == UInt8(ascii: "#") { closer -= 1 }
        if closer < contentEnd && (closer == contentStart || MarkdownCharacters.isSpaceOrTab(src[closer - 1])) {
            sink.set(closer..<contentEnd, MarkdownStyle(headingLevel: level, marker: .headingMarker))
            contentEnd = trimmedEnd(src, contentStart, closer)
        }
        tail = heading
        guard contentEnd > contentStart else { return }
        styleInline(src, [contentStart..<(tentative && contentEnd == trimmedEnd(src, contentStart, end) ? end : contentEnd)],
                    headingLevel: level, openEnd: tentative, parseDefinitions: false, sink: &sink)
    }

    /// The length of an opening code fence at `start` (4.5): three or more backticks (and no
    /// backtick in the info string) or tildes.
    func openingFence(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int? {
        let c = src[start]
        var i = start
        while i < end && src[i] == c { i += 1 }
        guard i - start >= 3 else { return nil }
        if c == UInt8(ascii: "`") {
            for j in i..<end where src[j] == c { return nil }
        }
        return i - start
    }

    func isClosingFence(_ src: MarkdownSource, _ start: Int, _ end: Int, fence: UInt8, length: Int) -> Bool {
        var i = start
        while i < end && src[i] == fence { i += 1 }
        guard i - start >= length else { return false }
        return trimmedEnd(src, i, end) == i
    }

    /// The first word of a fence's info string.
    func infoWord(_ src: MarkdownSource, _ start: Int, _ end: Int) -> String {
        var i = start
        while i < end && MarkdownCharacters.isSpaceOrTab(src[i]) { i += 1 }
        var j = i
        while j < end && !MarkdownCharacters.isSpaceOrTab(src[j]) { j += 1 }
        return String(decoding: (i..<j).map { src[$0] }, as: UTF8.self)
    }

    /// The end of a setext underline (4.3): a run of `=` or of `-`, then only spaces and tabs.
    func setextUnderline(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int? {
        let c = src[start]
        var i = start
        while i < end && src[i] == c { i += 1 }
        return trimmedEnd(src, i, end) == i ? i : nil
    }

    func isThematicBreak(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Bool {
        let c = src[start]
        var count = 0
        for i in start..<end {
            let b = src[i]
            if b == c { count += 1 } else if !MarkdownCharacters.isSpaceOrTab(b) { return false }
        }
        return count >= 3
    }

    /// A list item's marker at `start` (5.2): where it ends. On a line still arriving, a bullet
    /// or a number of up to three digits at its end is taken for a marker (answers' lines that
    /// start so are list items; `**`, which starts many lines, usually arrives whole).
    func listMarker(_ src: MarkdownSource, _ start: Int, _ end: Int, interruptingParagraph: Bool,
                            tentative: Bool) -> (markerEnd: Int, Void)? {
        let c = src[start]
        var i = start
        if c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: "*") {
            i += 1
            if tentative && i == end { return (i, ()) }
        } else {
            var value = 0
            while i < end && src[i] >= 0x30 && src[i] <= 0x39 && i - start < 9 { value = value * 10 + Int(src[i] - 0x30); i += 1 }
            if tentative && i == end && i > start && i - start <= 3 { return (i, ()) }
            guard i > start, i < end, src[i] == UInt8(ascii: ".") || src[i] == UInt8(ascii: ")") else { return nil }
            if interruptingParagraph && value != 1 { return nil }
            i += 1
            if tentative && i == end { return (i, ()) }
        }
        guard i == end || MarkdownCharacters.isSpaceOrTab(src[i]) else { return nil }
        if interruptingParagraph && trimmedEnd(src, i, end) == i { return nil }
        return (i, ())
    }

    /// What a line still arriving under a paragraph looks like it will be: `=` or `--` a setext
    /// underline, `|`, `-`, `:` (with a pipe in the paragraph's last line) a delimiter row.
    func underParagraphGuess(_ src: MarkdownSource, _ start: Int, _ end: Int) -> MarkdownStyle? {
        let c = src[start]
        var equals = 0, dashes = 0, pipes = 0, other = 0
        for i in start..<end {
            switch src[i] {
            case UInt8(ascii: "="): equals += 1
            case UInt8(ascii: "-"): dashes += 1
            case UInt8(ascii: "|"): pipes += 1
            case UInt8(ascii: ":"), 0x20, 0x09: break
            default: other += 1
            }
        }
        if other > 0 { return nil }
        if c == UInt8(ascii: "=") && equals == end - start { return MarkdownStyle(headingLevel: 1, marker: .headingMarker) }
        if c == UInt8(ascii: "-") && dashes >= 2 && dashes == end - start { return MarkdownStyle(headingLevel: 2, marker: .headingMarker) }
        if equals == 0 && dashes > 0 && pipes > 0, let header = paragraphLines.last,
           !tableCells(src, header.lowerBound, header.upperBound).pipes.isEmpty {
            return MarkdownStyle(marker: .tableDelimiterRow)
        }
        return nil
    }

    /// A line still arriving that may become a closing fence: fence characters only.
    func isFencePrefix(_ src: MarkdownSource, _ start: Int, _ end: Int, fence: UInt8) -> Bool {
        guard start < end else { return false }
        for i in start..<end where src[i] != fence { return false }
        return true
    }

    /// A GFM task box, `[ ]`, `[x]` or `[X]` followed by a space or tab: where it ends.
    func taskBoxEnd(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int? {
        guard start + 3 < end, src[start] == UInt8(ascii: "["), src[start + 2] == UInt8(ascii: "]") else { return nil }
        let mark = src[start + 1]
        guard mark == 0x20 || mark == UInt8(ascii: "x") || mark == UInt8(ascii: "X") else { return nil }
        guard MarkdownCharacters.isSpaceOrTab(src[start + 3]) else { return nil }
        return start + 3
    }

    // MARK: - Tables

    /// The cells and pipes of a table row (GFM 4.10): cells trimmed, a leading and a trailing
    /// pipe optional, `\|` not a separator.
    func tableCells(_ src: MarkdownSource, _ start: Int, _ end: Int) -> (cells: [Range<Int>], pipes: [Int]) {
        let e = trimmedEnd(src, start, end)
        var cells: [Range<Int>] = []
        var pipes: [Int] = []
        var i = start
        var cellStart = start
        while i < e {
            let b = src[i]
            if b == UInt8(ascii: "\\") { i += 2; continue }
            if b == UInt8(ascii: "|") {
                pipes.append(i)
                if !(i == start) { cells.append(cellStart..<i) }
                cellStart = i + 1
            }
            i += 1
        }
        if cellStart < e || pipes.isEmpty || pipes.last! != e - 1 { cells.append(cellStart..<e) }
        return (cells.map { r in
            var a = r.lowerBound
            while a < r.upperBound && MarkdownCharacters.isSpaceOrTab(src[a]) { a += 1 }
            return a..<trimmedEnd(src, a, r.upperBound)
        }, pipes)
    }

    /// The number of cells of a table delimiter row (`| --- | :-: |`); a row of `-` alone is a
    /// setext underline instead. The header row above it must hold a pipe.
    func delimiterRowCells(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int? {
        // Only `|`, `:`, `-` and blanks can make one (most lines of a paragraph fail here, cheaply).
        var dash = false
        for i in start..<end {
            switch src[i] {
            case UInt8(ascii: "-"): dash = true
            case UInt8(ascii: "|"), UInt8(ascii: ":"), UInt8(ascii: " "), UInt8(ascii: "\t"): break
            default: return nil
            }
        }
        guard dash else { return nil }
        let row = tableCells(src, start, end)
        guard !row.cells.isEmpty else { return nil }
        if row.pipes.isEmpty && setextUnderline(src, start, end) != nil { return nil }
        for cell in row.cells {
            var a = cell.lowerBound, b = cell.upperBound
            if a < b && src[a] == UInt8(ascii: ":") { a += 1 }
            if b > a && src[b - 1] == UInt8(ascii: ":") { b -= 1 }
            guard a < b else { return nil }
            for i in a..<b where src[i] != UInt8(ascii: "-") { return nil }
        }
        return row.cells.count
    }

    mutating func styleTableRow(_ src: MarkdownSource, _ start: Int, _ end: Int, tentative: Bool, sink: inout MarkdownStyleSink) {
        let row = tableCells(src, start, end)
        sink.set(start..<end, .plain)
        sink.links.clear(start..<end)
        for pipe in row.pipes { sink.set(pipe, MarkdownStyle(marker: .tablePipe)) }
        tail = .plain
        for (k, cell) in row.cells.enumerated() where !cell.isEmpty {
            let last = k == row.cells.count - 1
            let open = tentative && last && (row.pipes.last ?? -1) < cell.lowerBound
            styleInline(src, [cell.lowerBound..<(open ? end : cell.upperBound)], headingLevel: 0, openEnd: open,
                        parseDefinitions: false, sink: &sink)
            if !open { tail = .plain }
        }
    }
}
