// Block structure, one line at a time (CommonMark 0.31.2, sections 4 and 5, "appendix: a parsing
// strategy"; GFM tables and task list items): block quotes and list items as containers, then one
// leaf — paragraph, ATX or setext heading, fenced or indented code, thematic break, table. A line
// is examined once when it ends; only an open paragraph keeps its lines, because a later line can
// still make it a setext heading or a table's header row, and its inline parse covers all of them.

/// Source bytes held by the highlighter: `bytes[offset - base]` is the byte at absolute `offset`.
struct MarkdownSource {
    let bytes: [UInt8]
    let base: Int
    @inline(__always) subscript(_ offset: Int) -> UInt8 { bytes[offset - base] }
}

/// Where the styles decided so far go: one per held byte, and where each code block started.
struct MarkdownStyleSink {
    var base = 0
    var styles: [MarkdownStyle] = []
    /// The lowest offset written since the highlighter last compared.
    var dirtyLow = Int.max
    /// Styles decided for bytes that may no longer be held (a reference resolved by a later
    /// definition).
    var late: [(offset: Int, style: MarkdownStyle)] = []
    /// The start offset of each fenced or indented code block and its language, in order.
    var codeLanguages: [(start: Int, language: String)] = []
    /// What was decided about links (MarkdownLinks.swift).
    var links = MarkdownLinkLog()

    mutating func set(_ range: Range<Int>, _ style: MarkdownStyle) {
        guard !range.isEmpty else { return }
        dirtyLow = min(dirtyLow, range.lowerBound)
        let b = base
        styles.withUnsafeMutableBufferPointer { styles in
            for i in range { styles[i - b] = style }
        }
    }

    mutating func set(_ offset: Int, _ style: MarkdownStyle) {
        dirtyLow = min(dirtyLow, offset)
        styles[offset - base] = style
    }

    mutating func codeBlock(startingAt start: Int, language: String) {
        if let last = codeLanguages.last, last.start >= start { codeLanguages.removeLast() }
        codeLanguages.append((start, language))
    }

    func language(at offset: Int) -> String {
        var i = codeLanguages.count - 1
        while i >= 0 && codeLanguages[i].start > offset { i -= 1 }
        return i >= 0 ? codeLanguages[i].language : ""
    }
}

struct MarkdownBlockParser {
    struct Container {
        let isQuote: Bool
        /// For a list item: the columns its content is indented by, from where its marker line's
        /// enclosing containers end.
        let contentOffset: Int
        var hasContent = false
    }

    enum Leaf: Equatable {
        case none
        case paragraph
        case fenced(fence: UInt8, length: Int, indent: Int)
        case indented
        case table
        /// An HTML block (4.6) and its start condition, 1–7: raw HTML, plain, never linked.
        case html(kind: UInt8)
    }

    var containers: [Container] = []
    var leaf = Leaf.none
    /// The open paragraph's lines: from the first non-blank byte to the line's end.
    var paragraphLines: [Range<Int>] = []
    /// Normalized labels of the link reference definitions seen so far.
    var references: Set<String> = []
    /// Bracketed texts of finished blocks that a later definition of their label makes links:
    /// the styles their bytes then take. At most `maximumPendingReferences` are kept.
    var pendingReferences: [String: [[(offset: Int, style: MarkdownStyle)]]] = [:]
    var pendingReferenceCount = 0
    /// The text ranges of those of `pendingReferences` that become links (one with a link in its
    /// text does not: links do not nest).
    var pendingLinks: [String: [[Range<Int>]]] = [:]
    /// The destination of each label's first definition.
    var linkTargets: [String: MarkdownLinkTarget] = [:]
    static let maximumPendingReferences = 4096
    /// The style a byte appended to the last line examined would take (tentative examinations).
    var tail = MarkdownStyle.plain
    /// The scanner of the open fenced code block, when its info string names a known language.
    var code: CodeScanner?
    /// Room for the roles of a code line.
    var codeRoles: [CodeRole] = []

    /// The style of code block content in each code role, by the role's raw value.
    static let codeStyles = CodeRole.allCases.map { MarkdownStyle(isCodeBlock: true, codeRole: $0) }

    /// Whether the open block is fenced code whose syntax is scanned (letters appended to it may
    /// change the role of those before them: `de` + `f` is the keyword `def`).
    var scansCode: Bool {
        if case .fenced = leaf { return code != nil }
        return false
    }

    /// How many block quotes and list items are open.
    var containerDepth: Int { containers.count }

    /// Where the bytes that a later line can still restyle begin (the open paragraph), if any.
    var openParagraphStart: Int? { leaf == .paragraph ? paragraphLines.first?.lowerBound : nil }

    // MARK: - Columns

    typealias Position = (offset: Int, column: Int)

    func firstNonSpace(_ p: Position, _ src: MarkdownSource, end: Int) -> Position {
        var (i, c) = p
        while i < end {
            let b = src[i]
            if b == 0x20 { c += 1 } else if b == 0x09 { c += 4 - c % 4 } else { break }
            i += 1
        }
        return (i, c)
    }

    /// The first non-blank position from a point, remembered: every container of a line asks
    /// from a little further into the same indentation (a list 1,000 deep would otherwise scan
    /// its indentation 1,000 times).
    struct NonSpaceCache {
        var from = Int.max
        var result: Position = (0, 0)

        mutating func find(_ p: Position, _ src: MarkdownSource, _ end: Int) -> Position {
            if p.offset >= from && p.offset <= result.offset { return result }
            var (i, c) = p
            while i < end {
                let b = src[i]
                if b == 0x20 { c += 1 } else if b == 0x09 { c += 4 - c % 4 } else { break }
                i += 1
            }
            from = p.offset
            result = (i, c)
            return result
        }
    }

    /// Moves forward by `columns` columns of spaces and tabs (a tab that overshoots is taken whole).
    func advance(_ p: Position, columns: Int, _ src: MarkdownSource, end: Int) -> Position {
        var (i, c) = p
        let target = c + columns
        while i < end && c < target {
            let b = src[i]
            if b == 0x20 { c += 1 } else if b == 0x09 { c += 4 - c % 4 } else { break }
            i += 1
        }
        return (i, c)
    }

    // MARK: - Lines

    /// Examines one line, `start..<end` without its line ending. A tentative line is still
    /// arriving: no setext underline or table delimiter row is decided from it, and the styles
    /// are guesses (the caller examines a copy of the parser).
    mutating func processLine(_ src: MarkdownSource, start: Int, end: Int, tentative: Bool, sink: inout MarkdownStyleSink) {
        tail = .plain
        // Every byte of the line gets a style decided from the line alone; a paragraph line keeps
        // its earlier guesses until the paragraph is parsed again.
        let guesses = Array(sink.styles[(start - sink.base)..<(end - sink.base)])
        sink.set(start..<end, .plain)
        sink.links.clear(start..<end)
        var p: Position = (start, 0)
        var nonSpace = NonSpaceCache()
        var matched = 0
        for k in containers.indices {
            let f = nonSpace.find(p, src, end)
            let indent = f.column - p.column
            if containers[k].isQuote {
                guard indent <= 3 && f.offset < end && src[f.offset] == UInt8(ascii: ">") else { break }
                sink.set(f.offset, MarkdownStyle(marker: .quoteMarker))
                p = advance((f.offset + 1, f.column + 1), columns: 1, src, end: end)
            } else if f.offset >= end {
                guard containers[k].hasContent else { break }
                p = f
            } else {
                guard indent >= containers[k].contentOffset else { break }
                p = advance(p, columns: containers[k].contentOffset, src, end: end)
            }
            matched += 1
        }
        let allMatched = matched == containers.count

        if allMatched {
            switch leaf {
            case .fenced(let fence, let length, let indent):
                let f = nonSpace.find(p, src, end)
                if f.column - p.column <= 3 && (isClosingFence(src, f.offset, end, fence: fence, length: length)
                                                 || (tentative && isFencePrefix(src, f.offset, end, fence: fence))) {
                    sink.set(f.offset..<end, MarkdownStyle(marker: .codeFence))
                    leaf = .none
                    tail = MarkdownStyle(marker: .codeFence)
                    return
                }
                let q = advance(p, columns: indent, src, end: end)
                if code != nil {
                    styleCode(src, q.offset..<end, tentative: tentative, sink: &sink)
                } else {
                    sink.set(q.offset..<end, MarkdownStyle(isCodeBlock: true))
                    tail = MarkdownStyle(isCodeBlock: true)
                }
                return
            case .html(let kind):
                // Conditions 6 and 7 end before a blank line, 1 to 5 with the line that meets their end.
                let f = nonSpace.find(p, src, end)
                if kind >= 6 && f.offset >= end {
                    leaf = .none
                    return
                }
                if kind <= 5 && MarkdownHTML.blockEnds((p.offset..<end).map { src[$0] }, kind: kind) { leaf = .none }
                tail = .plain
                return
            case .indented:
                let f = nonSpace.find(p, src, end)
                if f.offset >= end { return }
                if f.column - p.column >= 4 {
                    let q = advance(p, columns: 4, src, end: end)
                    sink.set(q.offset..<end, MarkdownStyle(isCodeBlock: true))
                    tail = MarkdownStyle(isCodeBlock: true)
                    return
                }
                leaf = .none
            default:
                break
            }
        }

        let maybeLazy = leaf == .paragraph
        var opened = false
        var openedItemHere = false
        while true {
            let f = nonSpace.find(p, src, end)
            let indent = f.column - p.column
            let blank = f.offset >= end
            let atTip = !opened && allMatched
            if indent >= 4 {
                if maybeLazy || blank || (atTip && leaf == .table) { break }
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                let q = advance(p, columns: 4, src, end: end)
                leaf = .indented
                markContent()
                sink.codeBlock(startingAt: q.offset, language: "")
                sink.set(q.offset..<end, MarkdownStyle(isCodeBlock: true))
                tail = MarkdownStyle(isCodeBlock: true)
                return
            }
            if blank { break }
            let c = src[f.offset]
            if c == UInt8(ascii: ">") {
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                sink.set(f.offset, MarkdownStyle(marker: .quoteMarker))
                containers.append(Container(isQuote: true, contentOffset: 0))
                matched = containers.count
                p = advance((f.offset + 1, f.column + 1), columns: 1, src, end: end)
                opened = true
                openedItemHere = false
                continue
            }
            if c == UInt8(ascii: "#"), let level = atxLevel(src, f.offset, end) {
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                markContent()
                styleATXHeading(src, f.offset, end, level: level, tentative: tentative, sink: &sink)
                return
            }
            if c == UInt8(ascii: "`") || c == UInt8(ascii: "~"), let fenceLength = openingFence(src, f.offset, end) {
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                markContent()
                leaf = .fenced(fence: c, length: fenceLength, indent: indent)
                let language = infoWord(src, f.offset + fenceLength, end)
                sink.codeBlock(startingAt: f.offset, language: language)
                // A line still arriving may name a language that is not yet whole: the scanner is
                // chosen when the line ends.
                code = tentative ? nil : CodeLanguage.named(language).map { CodeScanner(language: $0) }
                sink.set(f.offset..<end, MarkdownStyle(marker: .codeFence))
                tail = MarkdownStyle(marker: .codeFence)
                return
            }
            if c == UInt8(ascii: "<"), case let line = (f.offset..<end).map({ src[$0] }),
               let kind = MarkdownHTML.blockStart(line, mayBeKind7: leaf != .paragraph) {
                // (Condition 7 cannot interrupt a paragraph, not even lazily.)
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                markContent()
                leaf = kind <= 5 && MarkdownHTML.blockEnds(line, kind: kind) ? .none : .html(kind: kind)
                tail = .plain
                return
            }
            if atTip && leaf == .paragraph && tentative, let guess = underParagraphGuess(src, f.offset, end) {
                // A line still arriving that looks like a setext underline or a delimiter row
                // takes that style now; the paragraph above changes when the line ends.
                sink.set(f.offset..<end, guess)
                tail = guess
                return
            }
            if atTip && leaf == .paragraph && !tentative && (c == UInt8(ascii: "=") || c == UInt8(ascii: "-")),
               let underlineEnd = setextUnderline(src, f.offset, end) {
                let level: UInt8 = c == UInt8(ascii: "=") ? 1 : 2
                finalizeParagraph(src, headingLevel: level, sink: &sink)
                sink.set(f.offset..<underlineEnd, MarkdownStyle(headingLevel: level, marker: .headingMarker))
                return
            }
            if atTip && leaf == .paragraph && !tentative, let columns = delimiterRowCells(src, f.offset, end),
               let header = paragraphLines.last, case let headerRow = tableCells(src, header.lowerBound, header.upperBound),
               !headerRow.pipes.isEmpty, headerRow.cells.count == columns {
                paragraphLines.removeLast()
                if paragraphLines.isEmpty { leaf = .none } else { finalizeParagraph(src, headingLevel: 0, sink: &sink) }
                styleTableRow(src, header.lowerBound, header.upperBound, tentative: false, sink: &sink)
                sink.set(f.offset..<trimmedEnd(src, f.offset, end), MarkdownStyle(marker: .tableDelimiterRow))
                leaf = .table
                return
            }
            if c == UInt8(ascii: "*") || c == UInt8(ascii: "-") || c == UInt8(ascii: "_"), isThematicBreak(src, f.offset, end),
               !(tentative && c == UInt8(ascii: "*") && (f.offset..<end).contains(where: { MarkdownCharacters.isSpaceOrTab(src[$0]) })) {
                // (A line still arriving as `* **` is far likelier a list item starting in bold.)
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                markContent()
                sink.set(f.offset..<trimmedEnd(src, f.offset, end), MarkdownStyle(marker: .thematicBreak))
                tail = MarkdownStyle(marker: .thematicBreak)
                return
            }
            // Right after a marker, a lone digit or bullet still arriving is the item's text.
            if let item = listMarker(src, f.offset, end, interruptingParagraph: atTip && leaf == .paragraph,
                                     tentative: tentative && !openedItemHere) {
                closeUnmatched(matched, src, sink: &sink)
                finalizeLeaf(src, sink: &sink)
                sink.set(f.offset..<item.markerEnd, MarkdownStyle(marker: .listMarker))
                let markerColumn = f.column + (item.markerEnd - f.offset)
                let after = firstNonSpace((item.markerEnd, markerColumn), src, end: end)
                let spaces = after.column - markerColumn
                let padding = (after.offset >= end || spaces >= 5) ? 1 : spaces
                containers.append(Container(isQuote: false, contentOffset: indent + (item.markerEnd - f.offset) + padding))
                matched = containers.count
                p = advance((item.markerEnd, markerColumn), columns: padding, src, end: end)
                opened = true
                openedItemHere = true
                continue
            }
            break
        }

        let f = nonSpace.find(p, src, end)
        let blank = f.offset >= end
        if !opened && !allMatched && leaf == .paragraph && !blank {
            paragraphLines.append(f.offset..<end)
            restore(guesses, from: start, f.offset..<end, sink: &sink)
            return
        }
        closeUnmatched(matched, src, sink: &sink)
        if blank {
            finalizeLeaf(src, sink: &sink)
            return
        }
        markContent()
        switch leaf {
        case .paragraph:
            paragraphLines.append(f.offset..<end)
            restore(guesses, from: start, f.offset..<end, sink: &sink)
        case .table:
            styleTableRow(src, f.offset, end, tentative: tentative, sink: &sink)
        default:
            finalizeLeaf(src, sink: &sink)
            var contentStart = f.offset
            if openedItemHere, let box = taskBoxEnd(src, f.offset, end) {
                sink.set(f.offset..<box, MarkdownStyle(marker: .taskBox))
                contentStart = firstNonSpace((box, 0), src, end: end).offset
            }
            leaf = .paragraph
            paragraphLines = [contentStart..<end]
            restore(guesses, from: start, contentStart..<end, sink: &sink)
        }
    }

    func restore(_ guesses: [MarkdownStyle], from start: Int, _ range: Range<Int>, sink: inout MarkdownStyleSink) {
        for i in range { sink.styles[i - sink.base] = guesses[i - start] }
        sink.links.keep(range)
    }

    /// Ends every open block at the end of the input.
    mutating func finish(_ src: MarkdownSource, sink: inout MarkdownStyleSink) {
        finalizeLeaf(src, sink: &sink)
        containers.removeAll()
    }

    /// Styles the open paragraph as it stands, guessing the spans its last line has opened when
    /// `lineIsOpen` (that line is still arriving).
    mutating func styleOpenParagraph(_ src: MarkdownSource, lineIsOpen: Bool, sink: inout MarkdownStyleSink) {
        guard leaf == .paragraph else { return }
        styleInline(src, paragraphLines, headingLevel: 0, openEnd: lineIsOpen, parseDefinitions: true, sink: &sink)
    }

    mutating func markContent() {
        for k in containers.indices where !containers[k].isQuote { containers[k].hasContent = true }
    }

    mutating func closeUnmatched(_ matched: Int, _ src: MarkdownSource, sink: inout MarkdownStyleSink) {
        guard matched < containers.count else { return }
        finalizeLeaf(src, sink: &sink)
        containers.removeLast(containers.count - matched)
    }

    mutating func finalizeLeaf(_ src: MarkdownSource, sink: inout MarkdownStyleSink) {
        if leaf == .paragraph { finalizeParagraph(src, headingLevel: 0, sink: &sink) }
        leaf = .none
        code = nil
    }

    /// Styles a fenced code line's content with the block's scanner: on a line still arriving
    /// (`tentative`, the parser is a copy) the last token's role is a guess.
    mutating func styleCode(_ src: MarkdownSource, _ range: Range<Int>, tentative: Bool, sink: inout MarkdownStyleSink) {
        let n = range.count
        if codeRoles.count < n { codeRoles = [CodeRole](repeating: .plain, count: max(n, 2 * codeRoles.count)) }
        let lo = range.lowerBound - src.base
        src.bytes.withUnsafeBufferPointer { bytes in
            codeRoles.withUnsafeMutableBufferPointer { roles in
                code!.scanLine(UnsafeBufferPointer(rebasing: bytes[lo..<(lo + n)]),
                               into: UnsafeMutableBufferPointer(rebasing: roles[0..<n]), lineIsComplete: !tentative)
            }
        }
        guard n > 0 else {
            tail = MarkdownStyle(isCodeBlock: true, codeRole: code!.continuationRole)
            return
        }
        sink.dirtyLow = min(sink.dirtyLow, range.lowerBound)
        let offset = range.lowerBound - sink.base
        sink.styles.withUnsafeMutableBufferPointer { styles in
            codeRoles.withUnsafeBufferPointer { roles in
                // A role is one byte, its case's index (the cases are declared in raw value order).
                roles.withMemoryRebound(to: UInt8.self) { indices in
                    Self.codeStyles.withUnsafeBufferPointer { byRole in
                        for k in 0..<n { styles[offset + k] = byRole[Int(indices[k])] }
                    }
                }
            }
        }
        tail = MarkdownStyle(isCodeBlock: true, codeRole: code!.continuationRole)
    }

    mutating func finalizeParagraph(_ src: MarkdownSource, headingLevel: UInt8, sink: inout MarkdownStyleSink) {
        styleInline(src, paragraphLines, headingLevel: headingLevel, openEnd: false, parseDefinitions: true, sink: &sink)
        paragraphLines = []
        leaf = .none
    }

    // MARK: - Inline content

    /// Parses `lines` (joined by line feeds) for inlines and writes their styles.
    mutating func styleInline(_ src: MarkdownSource, _ lines: [Range<Int>], headingLevel: UInt8, openEnd: Bool,
                                      parseDefinitions: Bool, sink: inout MarkdownStyleSink) {
        var text: [UInt8] = []
        var map: [Int] = []
        var lastLineStart = 0
        let total = lines.reduce(0) { $0 + $1.count + 1 }
        text.reserveCapacity(total)
        map.reserveCapacity(total)
        for (k, line) in lines.enumerated() {
            if k > 0 { text.append(0x0A); map.append(-1) }
            lastLineStart = text.count
            var e = line.upperBound
            if k == lines.count - 1 && !openEnd {
                while e > line.lowerBound && MarkdownCharacters.isSpaceOrTab(src[e - 1]) { e -= 1 }
                sink.set(e..<line.upperBound, .plain)
            }
            text.append(contentsOf: src.bytes[(line.lowerBound - src.base)..<(e - src.base)])
            map.append(contentsOf: line.lowerBound..<e)
        }
        var start = 0
        if parseDefinitions {
            while let definition = linkDefinition(text, start, complete: !openEnd) {
                if references.insert(definition.label).inserted {
                    linkTargets[definition.label] = MarkdownLinkTarget(
                        decoded: MarkdownLinkDestination.decodeLinkDestination(text[definition.destination[0]]))
                }
                if !openEnd, let uses = pendingReferences.removeValue(forKey: definition.label) {
                    pendingReferenceCount -= uses.count
                    for use in uses { sink.late.append(contentsOf: use) }
                    for ranges in pendingLinks.removeValue(forKey: definition.label) ?? [] {
                        sink.links.late(ranges, linkTargets[definition.label])
                    }
                }
                for i in start..<definition.end where map[i] >= 0 { sink.set(map[i], .plain) }
                for r in definition.labelRange { if map[r] >= 0 { sink.set(map[r], MarkdownStyle(inline: .link)) } }
                for part in definition.destination {
                    for r in part where map[r] >= 0 { sink.set(map[r], MarkdownStyle(marker: .linkDestination)) }
                }
                start = definition.end
            }
        }
        let parser = MarkdownInlineParser(text: text, from: start, openEnd: openEnd, guessFrom: lastLineStart, references: references)
        if let first = lines.first, let last = lines.last {
            // A definition still arriving is no text: no link in it.
            // So is one whose destination has not arrived yet (`[label]:` so far): not a reference link.
            let arriving = parseDefinitions && openEnd
                ? linkDefinition(text, start, complete: true)?.end ?? (mayBecomeDefinition(text, start) ? text.count : start) : start
            sink.links.replace(first.lowerBound..<last.upperBound, parser.links, text: text, map: map, skipBefore: arriving,
                               definitions: linkTargets)
        }
        if start < text.count, let first = map[start...].first(where: { $0 >= 0 }) { sink.dirtyLow = min(sink.dirtyLow, first) }
        let base = sink.base
        sink.styles.withUnsafeMutableBufferPointer { styles in
            parser.inline.withUnsafeBufferPointer { inline in
                parser.markers.withUnsafeBufferPointer { markers in
                    for i in start..<text.count where map[i] >= 0 {
                        styles[map[i] - base] = MarkdownStyle(headingLevel: headingLevel, inline: inline[i], marker: markers[i])
                    }
                }
            }
        }
        let n = text.count
        tail = MarkdownStyle(headingLevel: headingLevel, inline: parser.inline[n], marker: parser.markers[n])
        if !openEnd {
            for candidate in parser.candidates where pendingReferenceCount < MarkdownBlockParser.maximumPendingReferences {
                var use: [(offset: Int, style: MarkdownStyle)] = []
                func add(_ r: Range<Int>, _ flag: MarkdownInline, _ marker: MarkdownMarker?) {
                    for i in r where map[i] >= 0 {
                        use.append((map[i], MarkdownStyle(headingLevel: headingLevel, inline: parser.inline[i].union(flag),
                                                          marker: marker ?? parser.markers[i])))
                    }
                }
                add(candidate.text, .link, nil)
                for r in candidate.delimiters { add(r, [], .linkDelimiter) }
                if let d = candidate.destination { add(d, [], .linkDestination) }
                pendingReferences[candidate.label, default: []].append(use)
                if !candidate.isImage && !MarkdownLinkLog.anyLink(parser.links, startingIn: candidate.text) {
                    pendingLinks[candidate.label, default: []].append(MarkdownLinkLog.pieces(candidate.text, map))
                }
                pendingReferenceCount += 1
            }
        }
    }

    struct Definition {
        let label: String
        let labelRange: Range<Int>
        let destination: [Range<Int>]
        let end: Int
    }

    /// Whether the text at `start` is `[label]:` and what follows so far may still become a
    /// definition (4.7) as more arrives: its destination or its title is still arriving.
    func mayBecomeDefinition(_ t: [UInt8], _ start: Int) -> Bool {
        let n = t.count
        guard start < n, t[start] == UInt8(ascii: "[") else { return false }
        var i = start + 1
        while i < n && t[i] != UInt8(ascii: "]") {
            if t[i] == UInt8(ascii: "[") || i - start > 1000 { return false }
            i += t[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard i + 1 < n, t[i + 1] == UInt8(ascii: ":") else { return false }
        func spaces(_ j: Int) -> Int {
            var j = j
            while j < n && (t[j] == 0x20 || t[j] == 0x09) { j += 1 }
            return j
        }
        i = spaces(i + 2)
        if i < n && t[i] == 0x0A { i = spaces(i + 1) }
        // The destination.
        if i < n && t[i] == UInt8(ascii: "<") {
            while i < n && t[i] != UInt8(ascii: ">") && t[i] != 0x0A { i += 1 }
            guard i < n else { return true }
            guard t[i] == UInt8(ascii: ">") else { return false }
            i += 1
        }
        while i < n && !MarkdownCharacters.endsBareDestination(t[i]) { i += 1 }
        i = spaces(i)
        guard i < n else { return true }
        if t[i] == 0x0A { i = spaces(i + 1) }
        // A title still arriving, or nothing yet after the destination.
        return i >= n || t[i] == UInt8(ascii: "\"") || t[i] == UInt8(ascii: "'") || t[i] == UInt8(ascii: "(")
    }

    /// A link reference definition at `start` (CommonMark 0.31.2, 4.7), ending at a line's end.
    func linkDefinition(_ t: [UInt8], _ start: Int, complete: Bool) -> Definition? {
        let n = t.count
        var i = start
        guard i < n, t[i] == UInt8(ascii: "[") else { return nil }
        i += 1
        let labelStart = i
        while i < n && t[i] != UInt8(ascii: "]") {
            if t[i] == UInt8(ascii: "[") || i - labelStart > 999 { return nil }
            i += t[i] == UInt8(ascii: "\\") ? 2 : 1
        }
        guard i + 1 < n, t[i + 1] == UInt8(ascii: ":") else { return nil }
        let labelRange = labelStart..<i
        let label = MarkdownInlineParser.normalizedLabel(t[labelRange])
        guard !label.isEmpty else { return nil }
        func skip(_ j: Int) -> Int {
            var j = j, lines = 0
            while j < n && (t[j] == 0x20 || t[j] == 0x09 || (t[j] == 0x0A && lines == 0)) { if t[j] == 0x0A { lines += 1 }; j += 1 }
            return j
        }
        i = skip(i + 2)
        let destStart = i
        if i < n && t[i] == UInt8(ascii: "<") {
            while i < n && t[i] != UInt8(ascii: ">") && t[i] != 0x0A { i += 1 }
            guard i < n && t[i] == UInt8(ascii: ">") else { return nil }
            i += 1
        } else {
            while i < n && !MarkdownCharacters.endsBareDestination(t[i]) { i += 1 }
            guard i > destStart else { return nil }
        }
        let destEnd = i
        func lineEnd(_ j: Int) -> Int? {
            var j = j
            while j < n && (t[j] == 0x20 || t[j] == 0x09) { j += 1 }
            if j == n { return complete ? n : nil }
            return t[j] == 0x0A ? j + 1 : nil
        }
        // With a title, when one follows on this line or the next.
        let titleStart = skip(i)
        if titleStart > i && titleStart < n, t[titleStart] == UInt8(ascii: "\"") || t[titleStart] == UInt8(ascii: "'") || t[titleStart] == UInt8(ascii: "(") {
            let close = t[titleStart] == UInt8(ascii: "(") ? UInt8(ascii: ")") : t[titleStart]
            var j = titleStart + 1
            while j < n && t[j] != close { j += t[j] == UInt8(ascii: "\\") ? 2 : 1 }
            if j < n, let e = lineEnd(j + 1) {
                return Definition(label: label, labelRange: labelRange, destination: [destStart..<destEnd, titleStart..<(j + 1)], end: e)
            }
        }
        guard let e = lineEnd(destEnd) else { return nil }
        return Definition(label: label, labelRange: labelRange, destination: [destStart..<destEnd], end: e)
    }
}
