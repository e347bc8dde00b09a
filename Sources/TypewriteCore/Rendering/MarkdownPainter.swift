/// The markdown restyle: the renderer's side of highlighting. It feeds the text (the input with
/// each escape sequence reduced to its ESC, a CSI to its `ESC [`) to the `MarkdownLayer`, gives
/// each cluster the pen it is drawn in (the input's pen with the look of its role on top), remembers
/// where each cluster was drawn while its row can still be on the screen, and repaints clusters in
/// place when later text restyles them: up or down to the row (CUU, CUD), to the column (CHA), and
/// back to the cursor in the same write — never a row that may have scrolled off, never where the
/// place is not certain.
struct MarkdownPainter: Sendable {
    private(set) var layer: MarkdownLayer
    /// Whether the text is highlighted (from `start` on).
    private(set) var isOn = false
    /// A CR was written and nothing since: text drawn now overwrites the row.
    private var returnedCarriage = false

    /// - Parameters:
    ///   - colors: whether looks may use colours (false under `NO_COLOR`: attributes only).
    ///   - openTextLimit: longest open text the highlighter holds (`MemoryBudget.openMarkdownText`).
    ///   - links: whether links are drawn as OSC 8 hyperlinks, with ids that start `linkIDPrefix`.
    init(colors: Bool, openTextLimit: Int, links: Bool = false, linkIDPrefix: String = "tw") {
        layer = MarkdownLayer(colors: colors, openTextLimit: openTextLimit, links: links, linkIDPrefix: linkIDPrefix)
    }

    /// Highlights the text from input offset `offset` on; rows are counted from the cursor's.
    mutating func start(at offset: Int, model: inout TerminalModel) {
        guard !isOn else { return }
        isOn = true
        layer.skip(to: offset)
        model.startCountingRows()
    }

    /// Memory the layer holds per input byte received and not yet written, in bytes: its look
    /// (and link, with links on) of every such byte, counted twice for the slack of a growing
    /// array; 0 while highlighting is off.
    var bytesPerHeldByte: Int { isOn ? 2 * (1 + (layer.linksOn ? MemoryLayout<Int32>.size : 0)) : 0 }

    /// Whether some drawn cluster's look changed and must be repainted.
    var hasRestyles: Bool { isOn && layer.hasRestyles }

    /// Clusters repainted in a new look, and restyles that could not be repainted.
    var statistics: (restyledCells: Int, restyledOffScreen: Int) { (layer.restyledCells, layer.restyledOffScreen) }

    // MARK: Feeding

    /// Feeds the text tokenized since the last call (each escape sequence as its ESC, a CSI as `ESC [`).
    mutating func feed(_ stream: TokenStream) {
        guard isOn else { return }
        let from = layer.fedEnd, end = stream.tokenizedEnd
        guard end > from else { return }
        var sequences: [Range<Int>] = []
        stream.forEachFromNewest { token in
            guard token.start >= from else { return false }
            if case .sequence(let s, let n, _) = token { sequences.append(s..<(s + n)) }
            return true
        }
        layer.feed(stream.store, to: end, sequences: sequences.reversed())
    }

    /// The text from here on is a document of its own (reasoning, then the answer).
    mutating func startDocument(_ stream: TokenStream) {
        feed(stream)
        if isOn { layer.startDocument() }
    }

    /// The text from here on continues `context` instead of what came before it (a snapshot rewrote
    /// its tail); the next `skipping` bytes received are moves, not text.
    mutating func restartDocument(after context: some Collection<UInt8>, skipping: Int, _ stream: TokenStream) {
        feed(stream)
        if isOn { layer.startDocument(after: context, notText: stream.store.end..<(stream.store.end + max(0, skipping))) }
    }

    /// End of input: every open guess is decided.
    mutating func finish() { if isOn { layer.finish() } }

    /// The look of the input byte at `offset` (0: plain).
    func look(at offset: Int) -> UInt8 { isOn ? layer.look(at: offset) : 0 }

    // MARK: Pens

    /// How a cluster is drawn: its pen, the pen's number, its look and its link.
    struct Drawing {
        var pen: GraphicRendition
        var id: Int
        var look: UInt8 = 0
        var link: Hyperlink? = nil
    }

    /// How the cluster at input offset `start` is drawn: the input's pen, with the markdown look
    /// on top when the input's colours are the default ones, in its link unless the input opened
    /// a hyperlink of its own (typewrite never opens or closes one inside the input's).
    mutating func drawing(at start: Int, pens: inout PenBook, model: TerminalModel) -> Drawing {
        let base = pens.inputID
        guard isOn else { return Drawing(pen: model.pen, id: base) }
        let link = model.hyperlinkOpen ? nil : layer.hyperlink(layer.link(at: start))
        guard base >= 0, !model.penIsUnknown else { return Drawing(pen: model.pen, id: base, link: link) }
        let look = layer.look(at: start)
        guard look != 0 else { return Drawing(pen: model.pen, id: base, link: link) }
        let (pen, id) = styledPen(base, look: look, pens: &pens)
        return Drawing(pen: pen, id: id, look: look, link: link)
    }

    /// The link number of the input byte at `offset` (0: none).
    func link(at offset: Int) -> Int32 { isOn ? layer.link(at: offset) : 0 }

    /// The pen numbered `base` with `look` on top, and its number.
    mutating func styledPen(_ base: Int, look: UInt8, pens: inout PenBook) -> (pen: GraphicRendition, id: Int) {
        guard isOn else { return (pens[base], base) }
        return pens.styled(base, look: look, parameters: layer.lookParameters[Int(look)])
    }

    // MARK: Where clusters were drawn

    /// Remembers where a cluster was drawn (before the model draws it).
    mutating func notePainted(start: Int, bytes: ArraySlice<UInt8>, column: Int, width: Int, drawing: Drawing,
                              pens: PenBook, model: inout TerminalModel) {
        guard let row = paintedRow(pens: pens, model: &model) else { return }
        layer.note(start: start, bytes: bytes, row: row, column: column, width: width, penID: pens.inputID, look: drawing.look,
                   link: drawing.link?.number ?? 0)
    }

    /// Remembers where `count` one-cell clusters of printable ASCII from `start` are drawn (before
    /// the model draws them), placed as `TerminalModel.drawText` places them.
    mutating func notePaintedText(_ stream: TokenStream, start: Int, count: Int, drawing: Drawing, pens: PenBook,
                                  model: inout TerminalModel) {
        guard isOn, let width = model.columns, var c = model.column, var row = paintedRow(pens: pens, model: &model) else { return }
        var wrap = model.pendingWrap
        for i in 0..<count {
            if wrap || c >= width { row += 1; c = 0; wrap = false }
            layer.note(start: start + i, bytes: stream[(start + i)..<(start + i + 1)], row: row, column: c, width: 1,
                       penID: pens.inputID, look: drawing.look, link: drawing.link?.number ?? 0)
            c += 1
        }
    }

    /// The cursor's row for remembering what is drawn now, or nil when it cannot be found again
    /// (markdown off, the input's own colours, a state where cells cannot be repainted).
    private mutating func paintedRow(pens: PenBook, model: inout TerminalModel) -> Int? {
        // Not inside a hyperlink (a cell drawn again takes the link open then) nor a scroll region.
        guard isOn, pens.inputID >= 0, model.allowsRepaint, pens[pens.inputID].hasDefaultColors,
              !model.hyperlinkOpen, !model.scrollRegionMayBeSet else { return nil }
        if returnedCarriage, let row = model.row { layer.forgetRow(row) }  // drawing over the row
        returnedCarriage = false
        if model.row == nil {
            layer.forgetPainted()
            model.startCountingRows()
        }
        return model.row
    }

    /// The cursor went down a row: forget the clusters on rows that may have scrolled off.
    mutating func forgetScrolledRows(model: TerminalModel, screenRows: Int?) {
        guard isOn else { return }
        guard let row = model.row else { layer.forgetPainted(); return }
        layer.forgetRows(before: screenRows.map { row - ($0 - 1) } ?? row)
    }

    /// A C0 control was written (after the model took it).
    mutating func control(_ byte: UInt8, model: TerminalModel, screenRows: Int?) {
        guard isOn else { return }
        switch byte {
        case 0x0A, 0x0B, 0x0C: returnedCarriage = false; forgetScrolledRows(model: model, screenRows: screenRows)
        case 0x0D: returnedCarriage = true
        case 0x09: break
        default: if let row = model.row { layer.forgetRow(row) } else { layer.forgetPainted() }  // BS, DEL…
        }
    }

    /// Nothing drawn so far can be found again (the cursor moved in a way not followed).
    mutating func forgetPainted() { if isOn { layer.forgetPainted() } }

    /// Only the cursor's row is still where it was (a resize that reflowed the rows above).
    mutating func keepOnlyRow(_ row: Int?) {
        guard isOn else { return }
        if let row { layer.forgetRows(before: row) } else { layer.forgetPainted() }
    }

    /// Scalars joined the cluster drawn last, ending at `offset`: drawn again whole, it would lose them.
    mutating func forgetLastPainted(endingAt offset: Int) { if isOn { layer.forgetLastPainted(endingAt: offset) } }

    /// Every byte before `offset` has been written.
    mutating func written(upTo offset: Int) {
        guard isOn else { return }
        layer.writtenEnd = offset
        layer.discardLooks(before: offset)
    }

    // MARK: Repainting restyled clusters

    /// Repaints the clusters on the screen whose look changed: up to each row (CUU, CUD), to its
    /// column (CHA), in the new look, and back to where the cursor was. Restyles that cannot be
    /// repainted (the cursor's place is not known, or the row may have scrolled off) are dropped;
    /// a cluster still fading fades toward its new look instead. Returns whether it moved the cursor.
    mutating func repaintRestyled(model: TerminalModel, screenRows: Int?, mayMove: Bool, live: inout LiveRegion,
                                  row record: inout RowRecord, pens: inout PenBook, colors: FadeColors,
                                  into out: inout [UInt8]) -> Bool {
        guard hasRestyles else { return false }
        let restyled = layer.takeRestyles()
        guard let row = model.row, let width = model.columns, var column = model.column, mayMove, model.allowsRepaint,
              !model.hyperlinkOpen, !model.scrollRegionMayBeSet else {
            layer.restyledOffScreen += restyled.count
            return false
        }
        // In pending wrap, the cursor goes back there by drawing the last cell again.
        var last: MarkdownLayer.Painted?
        if model.pendingWrap {
            guard let p = layer.lastPainted, p.row == row, p.column + p.width == width else {
                layer.restyledOffScreen += restyled.count
                return false
            }
            last = p
            column = p.column
        }
        // In pending wrap the next character would wrap first: move before drawing anything.
        var atRow = row, atColumn: Int? = last == nil ? column : nil
        var moved = false
        for cluster in restyled {
            let up = row - cluster.row
            guard up >= 0, up < (screenRows ?? 1) else { layer.restyledOffScreen += 1; continue }
            let (pen, penID) = styledPen(cluster.penID, look: cluster.wanted, pens: &pens)
            let link = layer.hyperlink(cluster.wantedLink)
            let (from, to) = colors.endpoints(of: pen)
            if up == 0, live.restyle(start: cluster.start, column: cluster.column, pen: pen, link: link, from: from, to: to) {
                // Still fading: it fades toward its new look from the step it has reached.
                layer.restyledCells += 1
                continue
            }
            if atRow != cluster.row || atColumn != cluster.column { pens.closeLink(into: &out) }
            Self.moveRows(from: atRow, to: cluster.row, into: &out)
            atRow = cluster.row
            if atColumn != cluster.column { ControlSequence.append(&out, cluster.column + 1, final: ControlSequence.cha, always: true) }
            pens.set(pen, link: link, terminalPenIsUnknown: model.penIsUnknown, into: &out)
            out.append(contentsOf: layer.bytes(of: cluster))
            atColumn = cluster.column + cluster.width < width ? cluster.column + cluster.width : nil
            if cluster.row == row {
                let bytes = layer.bytes(of: cluster)
                record.record(RowRecord.key(bytes, pen: penID), bytes, pen: penID, at: cluster.column, width: cluster.width, columns: width)
                if link != nil { record.markIncomplete() }  // a redraw of the row would not link it
            }
            layer.restyledCells += 1
            moved = true
        }
        guard moved else { return false }
        pens.closeLink(into: &out)
        Self.moveRows(from: atRow, to: row, into: &out)
        if atColumn != column { ControlSequence.append(&out, column + 1, final: ControlSequence.cha, always: true) }
        if let last {
            let (pen, _) = styledPen(last.penID, look: last.drawn, pens: &pens)
            pens.set(pen, link: layer.hyperlink(last.drawnLink), terminalPenIsUnknown: model.penIsUnknown, into: &out)
            out.append(contentsOf: layer.bytes(of: last))
        }
        return true
    }

    private static func moveRows(from: Int, to: Int, into out: inout [UInt8]) {
        if to < from { ControlSequence.append(&out, from - to, final: ControlSequence.cuu) }
        if to > from { ControlSequence.append(&out, to - from, final: ControlSequence.cud) }
    }
}
