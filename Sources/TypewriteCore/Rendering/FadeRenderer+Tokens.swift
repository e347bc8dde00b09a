// The fade renderer's token loop: each cluster, control and sequence the input holds, written
// as the terminal model says it lands, the clusters still fading recorded in the live region.
// See FadeRenderer.swift.

extension FadeRenderer {
    // MARK: The token loop

    /// Writes the clusters due at `front` (all with `finishing`), those before `settledUpTo` settled.
    mutating func render(front: Double, finishing: Bool, settledUpTo: Int, moves: LiveRegion.Moves = .relative,
                                 into out: inout [UInt8]) {
        if out.isEmpty { noteRest() }
        let frameStart = out.count, offsetBefore = model.lineOffset
        defer { noteFrame(out[frameStart...], from: offsetBefore) }
        framing.begin(at: out.count)
        if markdown.repaintRestyled(model: model, screenRows: ahead.rows, mayMove: restylesMayMove, live: &live, row: &row,
                                    pens: &pens, colors: colors, into: &out) {
            framing.movedCursor = true
        }
        if let end = model.column,
           live.step(front: front, pacing: pacing, moves: moves, colors: &colors, pens: &pens, cursor: end,
                     penIsUnknown: model.penIsUnknown, into: &out) {
            framing.movedCursor = true
        }
        let target = finishing ? pacing.received : max(settledUpTo, pacing.revealedCount(front: front))
        let settledEdge = finishing ? pacing.received : max(settledUpTo, pacing.settledCount(front: front))
        let tokensAtStart = stream.count
        // After a cluster that ends in ZWJ, terminals disagree on whether it joins the next cluster
        // across a control or an escape sequence (tmux joins within one write). So the tokens of the
        // same read that follow it are written as they came, in this write, with nothing inserted
        // and without waiting for the pacing, until a printable character settles it; a token of a
        // later read starts a new write, as with cat.
        var joinerBoundary: Int? = nil
        var joinerWriteStart = out.count
        /// Whether the cluster taken last in this frame ends in ZWJ.
        var afterJoiner = false
        loop: while let token = stream.first {
            var joining = false
            if let boundary = joinerBoundary {
                if token.start >= boundary {
                    if !finishing { break loop }
                    joinerBoundary = nil
                } else {
                    joining = true
                }
            }
            if !joining && !finishing && framing.isFull(at: out.count) { break }
            // A barrier waits while cells fade, until the text after it is due, so the end of a
            // line keeps fading while the producer pauses.
            let barrierWaits = !joining && !finishing && revealed >= target && live.isFading
            switch token {
            case .text(let s, let n):
                joinerBoundary = nil  // printable ASCII: the ZWJ joins nothing (tmux drops it)
                afterJoiner = false
                guard revealed < target else { break loop }
                if revealed + n <= settledEdge
                    && writeSettledLines(upTo: settledEdge, byteLimit: framing.byteLimit - (out.count - framing.start), into: &out) {
                    continue
                }
                let k = min(n, target - revealed)
                writeASCII(s, count: k, settledEdge: settledEdge, front: front, moves: moves, into: &out)
                if k < n { stream.replaceFirst(with: .text(start: s + k, count: n - k)); break loop }
                stream.removeFirst()
            case .cluster(let s, let n, let width, let certain):
                // A cluster that begins with ASCII settles the ZWJ (tmux draws it as usual).
                if joining && stream[s] < 0x80 { joining = false; joinerBoundary = nil }
                guard joining || revealed < target else { break loop }
                // Whole settled lines that start with a cluster go out at once too (tried where a
                // line starts, not at every cluster of a line that is not whole yet).
                if !joining && revealed < settledEdge && model.column == 0
                    && writeSettledLines(upTo: settledEdge, byteLimit: framing.byteLimit - (out.count - framing.start), into: &out) {
                    afterJoiner = false
                    continue
                }
                // Joined to the ZWJ (tmux: no cell of its own) or not (xterm), or right after a
                // UTF-8 sequence cut short (tmux drops it): its width is uncertain.
                let dropped = model.utf8Interrupted && stream[s] >= 0x80
                model.utf8Interrupted = false
                writeCluster(stream[s..<(s + n)], start: s, width: width, certain: certain && !joining && !dropped, index: revealed,
                             opacity: joining || revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front),
                             moves: moves, into: &out)
                revealed += 1
                stream.removeFirst()
                joinerBoundary = nil
                afterJoiner = stream.endsInJoiner(s, n)
                if afterJoiner { joinerBoundary = stream.readEnd(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .extend(let s, let n, let width, let certain):
                // It arrived in a later read than the token before it. After a ZWJ it is a write of
                // its own, as with cat (tmux joins a ZWJ only within one read); any other extension
                // (a combining mark, a skin tone, a flag's second half, a Hangul jamo, VS16) joins its
                // cluster in tmux whether or not it comes in the same write, so it goes in this one
                // (docs/terminals.md#joiners).
                if !finishing && stream.count < tokensAtStart && afterJoiner { break loop }
                let dropped = model.utf8Interrupted
                model.utf8Interrupted = false
                extend(stream[s..<(s + n)], start: s, width: width, certain: certain && !dropped, moves: moves, into: &out)
                stream.removeFirst()
                afterJoiner = stream.endsInJoiner(s, n)
                if afterJoiner { joinerBoundary = stream.readEnd(atOrAfter: s + n); joinerWriteStart = out.count - n }
            case .control(_, let byte):
                if barrierWaits && byte != 0x07 && byte != 0x00 { break loop }
                control(byte, moves: moves, into: &out)
                stream.removeFirst()
            case .sequence(let s, let n, let kind):
                if barrierWaits && !kind.isSelectGraphicRendition { break loop }
                sequence(s..<(s + n), kind: kind, moves: moves, into: &out)
                stream.removeFirst()
            case .raw(let s, let n):
                if barrierWaits { break loop }
                settleLive(moves: moves, into: &out)
                restorePen(into: &out)
                // An incomplete UTF-8 sequence must be the last thing written, as with cat: close the
                // synchronized update before it, not after (and before the ZWJ whose joining stretch
                // it is part of, so that nothing comes between them).
                framing.closeSynchronizedUpdate(endingAt: joining ? joinerWriteStart : out.count, into: &out)
                out.append(contentsOf: stream[s..<(s + n)])
                model.apply(token, stream.store)
                markdown.forgetPainted()
                stream.removeFirst()
            }
        }
        if finishing { settleLive(moves: moves, into: &out) }
        // Restyles come only with input (receive, endInput), so the next frame repaints them.
        markdown.written(upTo: stream.takenEnd)
        restorePen(into: &out)
        framing.end(into: &out)
        stream.discardTaken()
    }

    // MARK: Writing cells

    mutating func writeASCII(_ start: Int, count: Int, settledEdge: Int, front: Double, moves: LiveRegion.Moves,
                                     into out: inout [UInt8]) {
        model.utf8Interrupted = false  // printable ASCII ends a cut UTF-8 sequence everywhere
        var s = start
        var remaining = count
        // Clusters already past the soft edge are written in bulk, settled.
        let settled = min(remaining, max(0, settledEdge - revealed))
        if settled > 0 {
            if live.isFading { settleLive(moves: moves, into: &out) }
            live.removeAll()
            if !markdown.isOn {
                restorePen(into: &out)
                out.append(contentsOf: stream[s..<(s + settled)])
                advanceSettled(s, count: settled, penID: pens.inputID)
            } else {
                // Run by run of one look and link.
                var at = s
                while at < s + settled {
                    let drawing = markdown.drawing(at: at, pens: &pens, model: model)
                    let link = markdown.link(at: at)
                    var end = at + 1
                    while end < s + settled && markdown.look(at: end) == drawing.look && markdown.link(at: end) == link { end += 1 }
                    pens.set(drawing.pen, id: drawing.id, link: drawing.link, terminalPenIsUnknown: model.penIsUnknown, into: &out)
                    out.append(contentsOf: stream[at..<end])
                    markdown.notePaintedText(stream, start: at, count: end - at, drawing: drawing, pens: pens, model: &model)
                    advanceSettled(at, count: end - at, penID: drawing.id, linked: drawing.link != nil)
                    markdown.forgetScrolledRows(model: model, screenRows: ahead.rows)
                    at = end
                }
            }
            s += settled
            remaining -= settled
            revealed += settled
        }
        for i in 0..<remaining {
            let opacity = revealed < settledEdge ? 1 : pacing.opacity(ofClusterAt: revealed, front: front)
            writeCluster(stream[(s + i)..<(s + i + 1)], start: s + i, width: 1, certain: true, index: revealed, opacity: opacity,
                         moves: moves, into: &out)
            revealed += 1
        }
    }

    /// Writes whole settled lines of text at once (a flood of short lines, or rows that scroll off
    /// unseen), while nothing fades and the pen is the input's. Each line ends at column 0 —
    /// by CR LF, or by LF alone where the tty's ONLCR makes it CR LF (a pipe's text; a pty's output
    /// under `--exec` arrives as CR LF) — whatever the clusters before it did to the column, so no
    /// per-line bookkeeping is needed. Not right after a UTF-8 sequence cut short (tmux then drops
    /// the next non-ASCII character, which the model follows cluster by cluster). Returns whether
    /// it wrote any.
    mutating func writeSettledLines(upTo settledEdge: Int, byteLimit: Int, into out: inout [UInt8]) -> Bool {
        guard live.isEmpty, !markdown.isOn, model.columns != nil, !model.autowrapOff,
              !model.penIsUnknown, pens.terminal == model.pen,
              let lines = stream.removeLines(clusterLimit: settledEdge - revealed, byteLimit: max(byteLimit, 1),
                                             bareLineFeedEnds: configuration.newlineReturnsCarriage,
                                             clusters: !model.utf8Interrupted) else { return false }
        out.append(contentsOf: stream[lines.bytes])
        revealed += lines.clusters
        model.newRow(wrapped: false)
        row.sync(model)
        model.column = 0
        model.pendingWrap = false
        return true
    }

    /// Column bookkeeping for `count` settled one-cell clusters at `start` written in bulk.
    mutating func advanceSettled(_ start: Int, count: Int, penID pen: Int, linked: Bool = false) {
        guard let width = model.columns, var c = model.column else {
            model.drawText(count: count)
            return
        }
        if model.pendingWrap { c = 0 }
        var first = 0
        if c + count > width {
            // Wrapped one or more times: only the last row's cells are still on the cursor's row.
            first = count - ((c + count - 1) % width + 1)
            c = 0
        }
        model.drawText(count: count)
        row.sync(model)
        row.recordText(stream.store, start: start + first, count: count - first, column: c, pen: pen)
        if linked || model.hyperlinkOpen || !model.allowsRepaint { row.markIncomplete() }
    }

    mutating func writeCluster(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, index: Int,
                                       opacity: Double, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        let drawing = markdown.drawing(at: start, pens: &pens, model: model)
        let pen = drawing.pen, drawnPenID = drawing.id, link = drawing.link
        guard let columns = model.columns, var c = model.column else {
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            if certain { model.draw(width: width) } else { model.drawUncertain(width: width) }
            return
        }
        if !certain || width == 0 {
            settleLive(moves: moves, into: &out)
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            if !certain { model.drawUncertain(width: width) } else { row.markIncomplete() }
            return
        }
        row.sync(model)
        var wrapped = false
        if model.pendingWrap || c + width > columns {
            // The terminal wraps before drawing: a new row starts with this cluster.
            wrapped = true
            settleLive(moves: moves, into: &out)
            model.newRow(wrapped: true)
            row.sync(model)
            model.pendingWrap = false
            c = 0
            model.column = 0
            markdown.forgetScrolledRows(model: model, screenRows: ahead.rows)
            if width > columns {
                setPen(pen, link: link, into: &out)
                out.append(contentsOf: bytes)
                forgetColumn()  // wider than the screen: where it ends is unknown
                return
            }
        }
        let key = RowRecord.key(bytes, pen: drawnPenID)
        if c + width >= columns {
            // Reaching the last column: nothing may fade while the cursor sits in pending wrap.
            settleLive(moves: moves, into: &out)
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
            record(key, bytes, pen: drawnPenID, at: c, width: width, linked: link != nil)
            markdown.notePainted(start: start, bytes: bytes, column: c, width: width, drawing: drawing, pens: pens, model: &model)
            model.draw(width: width)
            return
        }
        var code = ColorRamp.settled
        var level = colors.levels
        var from = colors.background, to = colors.foreground
        if colors.mayFade(pen) && model.allowsRepaint && !row.shows(key, at: c) && opacity < 1 {
            (from, to) = colors.endpoints(of: pen)
            level = colors.level(opacity: opacity, index: index)
            code = colors.code(level: level, from: from, to: to)
        }
        if code == ColorRamp.settled && live.isEmpty {
            setPen(pen, link: link, into: &out)
            out.append(contentsOf: bytes)
        } else {
            if wrapped && code != ColorRamp.settled {
                // A row that scrolls in takes the pen of the wrap in its blank cells (xterm draws
                // the cursor in their colour): wrap in the settled pen, then draw the fade over it.
                setPen(pen, link: link, into: &out)
                out.append(contentsOf: bytes)
                pens.closeLink(into: &out)
                ControlSequence.append(&out, width, final: ControlSequence.cub)
                framing.movedCursor = true
            }
            setPen(code == ColorRamp.settled ? pen : colors.fadePen(pen, code), link: link, into: &out)
            out.append(contentsOf: bytes)
            live.add(bytes, column: c, width: width, pen: pen, link: link, index: index, code: code, level: level, from: from, to: to,
                     start: start)
        }
        record(key, bytes, pen: drawnPenID, at: c, width: width, linked: link != nil)
        markdown.notePainted(start: start, bytes: bytes, column: c, width: width, drawing: drawing, pens: pens, model: &model)
        model.draw(width: width)
    }

    /// Scalars joining the cluster written last.
    mutating func extend(_ bytes: ArraySlice<UInt8>, start: Int, width: Int, certain: Bool, moves: LiveRegion.Moves,
                                 into out: inout [UInt8]) {
        settleLive(moves: moves, into: &out)
        let drawing = markdown.drawing(at: start, pens: &pens, model: model)
        setPen(drawing.pen, link: drawing.link, into: &out)
        out.append(contentsOf: bytes)
        markdown.forgetLastPainted(endingAt: start)  // drawn again whole, it would lose what joined it
        model.extend(width: width, certain: certain)
    }

    mutating func record(_ key: UInt64, _ cluster: ArraySlice<UInt8>, pen: Int, at column: Int, width: Int,
                                 linked: Bool) {
        guard let columns = model.columns else { return }
        row.sync(model)
        row.record(key, cluster, pen: pen, at: column, width: width, columns: columns)
        // A cell drawn in a hyperlink, or in a mode a redraw would not restore.
        if linked || model.hyperlinkOpen || !model.allowsRepaint { row.markIncomplete() }
    }

    mutating func forgetColumn() {
        model.forgetColumn()
        row.sync(model)
    }

    /// Paints every fading cell in its final style and forgets them.
    mutating func settleLive(moves: LiveRegion.Moves = .relative, into out: inout [UInt8]) {
        if live.settle(moves: moves, colors: &colors, pens: &pens, cursor: model.column, penIsUnknown: model.penIsUnknown, into: &out) {
            framing.movedCursor = true
        }
    }

    // MARK: Pens

    mutating func setPen(_ pen: GraphicRendition, link: Hyperlink? = nil, into out: inout [UInt8]) {
        pens.set(pen, link: link, terminalPenIsUnknown: model.penIsUnknown, into: &out)
    }

    /// Leaves the terminal in exactly the input's SGR state.
    mutating func restorePen(into out: inout [UInt8]) { setPen(model.pen, into: &out) }

    /// Follows a pen the terminal took by itself (DECRC, DECSTR, RIS).
    mutating func syncTerminalPen() {
        guard model.penReplacements != seenPenReplacements else { return }
        seenPenReplacements = model.penReplacements
        pens.terminalTook(model.pen)
        pens.followInput(model.pen)
    }

    // MARK: Controls and sequences

    mutating func control(_ byte: UInt8, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        if byte == 0x00 || byte == 0x07 {
            out.append(byte)  // no cursor movement
            return
        }
        settleLive(moves: moves, into: &out)
        restorePen(into: &out)
        if configuration.reflow == .cutsCells, byte == 0x0A || byte == 0x0D {
            // The line's end as the frame's first line feed leaves it; after CR, as the CR found it
            // (CR LF). The line feeds after it end whole lines the frame wrote.
            if lineFeedRecord == nil { lineFeedRecord = model.lineOffset.map { (row, $0) } }
        }
        out.append(byte)
        model.control(byte)
        row.sync(model)
        if byte == 0x0D || byte == 0x08 { row.markMovedBack() }
        markdown.control(byte, model: model, screenRows: ahead.rows)
    }

    mutating func sequence(_ range: Range<Int>, kind: SequenceKind, moves: LiveRegion.Moves, into out: inout [UInt8]) {
        let bytes = stream[range]
        if case .csi(0x6D, 0, false, true) = kind {
            // SGR with C0 controls inside: the terminal runs the controls and still sets the pen.
            settleLive(moves: moves, into: &out)
            restorePen(into: &out)
            framing.closeSynchronizedUpdate(into: &out)
            out.append(contentsOf: bytes)
            model.selectGraphicRendition(bytes, hasControls: true)
            markdown.forgetPainted()
            row.sync(model)
            pens.terminalTook(model.pen)
            pens.followInput(model.pen)
            return
        }
        if kind.isSelectGraphicRendition {
            let (next, outcome) = model.pen(afterSGR: bytes.dropFirst(2).dropLast())
            // A 24-bit pen when typewrite is not in 24-bit mode is written only as it came, in the
            // input's order: terminals that approximate 24-bit colours (urxvt) pick the colour
            // from what was sent before, so a pen re-sent in another order can settle differently.
            let asItCame = outcome.ambiguous || (colors.depth != .trueColor && next.usesTrueColor)
            if pens.terminal == model.pen || model.penIsUnknown || asItCame {
                // Written as it came; a fade pen is put back first, so the terminal applies it to
                // the input's own state (an ambiguous one is never rewritten in typewrite's words,
                // so cells still fading are settled while their pens can still be written).
                if asItCame && !model.penIsUnknown { settleLive(moves: moves, into: &out) }
                restorePen(into: &out)
                // What follows is written as it came: the frame's own synchronized update ends first.
                if outcome.ambiguous { framing.closeSynchronizedUpdate(into: &out) }
                out.append(contentsOf: bytes)
                pens.terminalTook(next)
            }
            model.take(pen: next, outcome: outcome)
            pens.followInput(model.pen)
            return
        }
        settleLive(moves: moves, into: &out)
        restorePen(into: &out)
        if bytes.dropFirst().contains(where: { $0 < 0x20 || $0 == 0x7F }) { framing.closeSynchronizedUpdate(into: &out) }
        out.append(contentsOf: bytes)
        // A sequence that may move the cursor or change cells: what was drawn is no longer known.
        if kind != .operatingSystemCommand { markdown.forgetPainted() }
        model.sequence(bytes, kind: kind)
        row.sync(model)
        if case .csi(let final, _, _, _) = kind, [0x44, 0x47, 0x60, 0x5A].contains(final) { row.markMovedBack() }  // CUB, CHA, HPA, CBT
        syncTerminalPen()
    }
}
