// The fade renderer's side of what the tty and the terminal do on their own: the key echo a
// signal leaves (`eraseEcho`, `reanchor`), a resize that may reflow the cells still fading
// (`resize`, `cursorReport`), and losing the live region when its place is not certain.
// See FadeRenderer.swift.

extension FadeRenderer {
    mutating func noteRest() {
        restBefore = Rest(column: model.column, pendingWrap: model.pendingWrap, bounds: model.columnBounds, columns: model.columns,
                          pen: pens.terminal, penIsUnknown: model.penIsUnknown)
    }

    /// The bytes that erase `echo`, which the tty wrote where the cursor rested before the last
    /// output this renderer made (that output has not reached the terminal yet: a signal came
    /// first), and leave the cursor and the pen as that output expects them. Nil when the place
    /// is not certain (the cursor was in pending wrap, or its column unknown near the margin).
    public func eraseEcho(_ echo: KeyEcho) -> [UInt8]? {
        let rest = restBefore
        guard let columns = rest.columns, !rest.pendingWrap else { return nil }
        var out: [UInt8] = Array("\u{1B}[0m".utf8)  // erase in the default colours
        if let c = rest.column {
            if c + echo.width > columns {
                // The echo wrapped: erase its part on the row below, go back up.
                out += [0x0D, 0x1B, 0x5B, 0x4B]
                ControlSequence.append(&out, 1, final: ControlSequence.cuu)
            }
            ControlSequence.append(&out, c + 1, final: ControlSequence.cha, always: true)
            ControlSequence.append(&out, min(echo.width, columns - c), final: ControlSequence.ech)
        } else if let bounds = rest.bounds, bounds.upperBound + echo.width < columns {
            ControlSequence.append(&out, echo.width, final: ControlSequence.cub)
            ControlSequence.append(&out, echo.width, final: ControlSequence.ech)
        } else {
            return nil
        }
        if !rest.penIsUnknown {
            let params = rest.pen.render()
            if !params.isEmpty { out += Array("\u{1B}[0;\(params)m".utf8) }
        }
        return out
    }

    /// Whether the terminal's cursor, reported at `column` (0-based) right after a key's signal,
    /// is where everything written leaves it — where the output before the last one left it, with
    /// `held` (that one was not written yet) — and the tty's echo after it where it landed. A key's
    /// signal with NOFLSH clear discards what the terminal had not read
    /// (`docs/terminals.md#the-ttys-echo`); a cursor elsewhere shows that something was. False
    /// where that place is not known (the column is unknown, or the width).
    public func outputReached(column: Int, echo: KeyEcho?, held: Bool) -> Bool {
        let place = held ? (restBefore.column, restBefore.pendingWrap, restBefore.columns)
                         : (model.column, model.pendingWrap, model.columns)
        guard let c = place.0, let width = place.2 else { return false }
        let echoed = echo?.landed == true ? echo?.width ?? 0 : 0
        // The last column's pending wrap: xterm reports the last column, tmux one past it.
        if place.1 { return echoed > 0 ? column == echoed : column == width - 1 || column == width }
        let end = c + echoed
        if end == width { return column == width - 1 || column == width }
        return column == (end < width ? end : end - width)
    }

    /// Ends the run after a key's signal that discarded output the terminal had not read
    /// (`outputReached` false): nothing more of the text is written — it would land after the
    /// hole, from a cursor that is not where the renderer believes. A frame may have been cut
    /// anywhere, so only what lands nowhere is written: the end of a synchronized update, the end
    /// of typewrite's own hyperlink, the input's own pen (as cat leaves it), and the key's echo
    /// where the tty did not write it, at the cursor, where cat's would be. A repaint cut after it
    /// went back leaves the cursor inside cells drawn before: where the cursor's column is known
    /// (`cursorColumn`, reported after the tty's echo) and the echo does not end in the last
    /// column, the rest of its row is erased (EL 0; those are the only cells drawn past the
    /// cursor, as a repaint never leaves its row). Cells left of the cursor that were fading when
    /// the terminal last read keep the colour they have.
    package mutating func abandon(echo: KeyEcho?, cursorColumn: Int?, into out: inout [UInt8]) {
        relocation = nil
        live.removeAll()
        out += Array("\u{1B}[?2026l".utf8)
        if !model.hyperlinkOpen { out += Array("\u{1B}]8;;\u{1B}\\".utf8) }
        out += Array("\u{1B}[0m".utf8)
        let written = echo.map { $0.landed ? 0 : $0.width } ?? 0
        if let column = cursorColumn, let width = model.columns, column + written < width - 1 {
            out += Array("\u{1B}[K".utf8)
        }
        let params = model.pen.render()
        if !params.isEmpty { out += Array("\u{1B}[0;\(params)m".utf8) }
        if let echo, !echo.landed { out += echo.bytes }
        inputEnded = true
        model.cursorMovedElsewhere()
    }

    /// Finds the anchor again after the tty's `echo` (`LiveRegion.reanchor`).
    mutating func reanchor(afterEcho echo: KeyEcho, into out: inout [UInt8]) -> Bool {
        row.sync(model)
        let found = live.reanchor(afterEcho: echo.width, model: model, row: row, pens: &pens, into: &out)
        if found { framing.movedCursor = true }
        return found
    }

    /// The terminal is now `newColumns` wide and `newRows` high (SIGWINCH; nil when unknown: then
    /// nothing is written ahead). Where nothing can have moved in a terminal that does its job —
    /// the row never wrapped and the cursor is left of both margins — and nothing is fading, the
    /// cursor's column is said again (`CSI n G`) and the text goes on. Elsewhere, while cells
    /// fade, a terminal that reflows its rows (tmux, kitty, VTE) may have moved them along the
    /// line, one that does not (xterm) kept them, and kitty may have left the cursor a cell short
    /// even on a row that did not wrap, with its rows resized some milliseconds after the signal:
    /// the renderer waits, writing nothing, for the cursor's column (`cursorReport`), which tells
    /// these apart (`docs/terminals.md#resize-and-reflow`).
    /// - Parameter time: when the signal came (nil: not known); frames written long before it are
    ///   taken to have been read (`framesUnreadFor`).
    package mutating func resize(columns newColumns: Int?, rows newRows: Int?, at time: Seconds? = nil, into out: inout [UInt8]) {
        if let time, let written = framesWrittenAt, time - written > Self.framesUnreadFor {
            recentFrames.removeAll()
            lineEnds.removeAll()
        }
        ahead.rows = Self.valid(newRows)
        let valid = Self.valid(newColumns)
        var unmoved = false
        if let c = model.column, let old = model.columns, let new = valid {
            unmoved = !model.rowWrapped && !model.pendingWrap && c < old - 1 && c < new - 1
        }
        if relocation == nil, unmoved, let c = model.column, let new = valid, !live.isFading, !mayHaveEndedLineInFlight {
            keepRow(columns: new, sayingColumn: c, into: &out)
            return
        }
        markdown.forgetPainted()
        if var r = relocation, let new = valid {
            // A second resize before the report (nothing is written meanwhile): the cells, and the
            // frames read after the first reflow, are still where the first found them.
            r.columns = new
            r.keptWithoutReport = r.keptWithoutReport && r.anchor < new - 1
            r.narrowest = min(r.narrowest, new)
            relocation = r
            return
        }
        if let anchor = model.column, let new = valid, (live.isFading && !model.pendingWrap) || mayHaveFramesInFlight {
            // Cells fade, or nothing fades but frames kitty may read after its reflow can draw
            // cells wrongly.
            if !live.isFading || model.pendingWrap { live.removeAll() }
            relocation = Relocation(anchor: anchor, lineOffset: model.lineOffset, columns: new,
                                    keptWithoutReport: unmoved && anchor < new - 1, inFlight: recentFrames, lineEnds: lineEnds)
            return
        }
        relocation = nil
        loseLiveRegion(columns: valid, into: &out)
    }

    /// Where the environment names kitty and the last frames written are described: a resize now
    /// may have them read after the reflow (`mendLateFrames`).
    var mayHaveFramesInFlight: Bool { configuration.reflow == .cutsCells && (!recentFrames.isEmpty || !lineEnds.isEmpty) }

    /// Where the environment names kitty and a line ended in the last frames (`mendLineEnd`).
    var mayHaveEndedLineInFlight: Bool { configuration.reflow == .cutsCells && !lineEnds.isEmpty }

    /// The cursor's row is where it was at the new width `columns` (it never wrapped and the
    /// cursor is left of both margins); the rows above may have been reflowed. `column`, when
    /// given, is said again (`CSI n G`): kitty (0.26) leaves a cursor that stood right after a
    /// wide cluster on that cluster's second cell.
    private mutating func keepRow(columns: Int, sayingColumn column: Int?, into out: inout [UInt8]) {
        model.columns = columns
        markdown.keepOnlyRow(model.row)
        if let column { ControlSequence.append(&out, column + 1, final: ControlSequence.cha, always: true) }
    }

    /// A key's signal came while the cursor's place after a resize was still to be asked: where
    /// nothing can have moved the cells are taken to be in place; elsewhere the rows they were
    /// on are gone, so they are left as drawn and the column is unknown (drawing the row again
    /// from the old width would repeat its text).
    mutating func giveUpRelocation(into out: inout [UInt8]) {
        guard let r = relocation else { return }
        relocation = nil
        if r.keptWithoutReport {
            // Not said again: the tty's echo follows the cursor, and the echo rules start from there.
            keepRow(columns: r.columns, sayingColumn: nil, into: &out)
        } else {
            loseLiveRegion(columns: r.columns, into: &out)
        }
    }

    /// Whether the renderer waits for `cursorReport` before it writes more.
    package var wantsCursorReport: Bool { relocation != nil }

    /// The cursor's column (0-based) as the terminal reported it after a resize, or nil when it
    /// could not be asked. The cells still fading were right before the cursor; the column tells
    /// what the terminal did with them. A terminal that keeps rows in place (xterm) keeps the
    /// cursor's column (or the last one, when the new width cuts it off); one that reflows them
    /// puts the cursor at its place in the logical line modulo the new width, the cells just before
    /// it, the oldest maybe at the end of the row above. Where the column matches what one of them
    /// does, and not both differently, the cells are found again; elsewhere they are left as drawn
    /// and the text goes on settled until the column is certain again.
    ///
    /// kitty (0.26) reflows the cells right but leaves the cursor one cell short of its place when
    /// it stood right after a wide cluster or at the second column of a row reached by wrapping
    /// (`docs/terminals.md#resize-and-reflow`): where no place fits the column reported and the
    /// next column would, the cursor is taken to be there and is put back by an absolute move.
    ///
    /// Without a report (none could be asked, or none came in time), the cells are found where
    /// that is certain: on a row nothing can have moved, and where the environment names tmux and
    /// the row record knows the line, at the place tmux's layout gives the cursor (`expectedReport`).
    public mutating func cursorReport(column answer: Int?, into out: inout [UInt8]) {
        guard let r = relocation else { return }
        relocation = nil
        if answer == nil && r.keptWithoutReport {
            // No report (none could be asked): where nothing can have moved, the fade goes on.
            keepRow(columns: r.columns, sayingColumn: r.anchor, into: &out)
            return
        }
        let reported = answer ?? expectedReport(r)
        if let now = reported, !r.lineEnds.isEmpty, var down = row.reflowed(upTo: r.anchor, columns: r.columns, as: .cutsCells)?.cursor.row {
            // The lines before first, the last first: each comes back to the cursor, where the rest
            // starts from. One that cannot be mended leaves the rows of those above it uncertain.
            for end in r.lineEnds.reversed() {
                guard let above = mendLineEnd(end, r, reported: now, rowsDown: down, into: &out) else { break }
                down = above
            }
        }
        // Frames read late explain the report, where one way of reading them does (kitty): what they
        // drew is mended. Otherwise the cells are where one way of reflowing put them, or lost.
        if let now = reported, mendLateFrames(r, reported: now, into: &out) { return }
        if live.cells.isEmpty && r.keptWithoutReport {
            // Nothing fades on a row that did not move: the column is said again.
            keepRow(columns: r.columns, sayingColumn: r.anchor, into: &out)
            return
        }
        // tmux reports a cursor in pending wrap one past the last column.
        guard let now = reported, now <= r.columns, !live.cells.isEmpty else {
            if reported == nil, settleWhereEveryLayoutAgrees(r, into: &out) { return }
            loseLiveRegion(columns: r.columns, into: &out)
            return
        }
        var found = relocated(r, reported: now)
        var shortByOne = false
        if case .lost = found, now < r.columns, mayBeLeftShort(r) {
            let next = relocated(r, reported: now + 1)
            switch next {
            case .inPlace, .reflowed: found = next; shortByOne = true
            case .cutOff, .lost: break
            }
        }
        switch found {
        case .inPlace(let column, let lineOffset):
            // In place (or reflowed with the same column, which leaves the same cells before it:
            // the row then holds the last `column` cells of the logical line, as it did).
            if shortByOne { ControlSequence.append(&out, column + 1, final: ControlSequence.cha, always: true) }
            model.columns = r.columns
            model.cursorFound(column: column, lineOffset: lineOffset)
            return
        case .cutOff(let column, let margin):
            // Cut off (xterm): the cells left of the new margin are where they were.
            framing.begin(at: out.count)
            live.settle(moves: .absolute, colors: &colors, pens: &pens, cursor: column, penIsUnknown: model.penIsUnknown,
                        cutAt: margin, into: &out)
            ControlSequence.append(&out, column + 1, final: ControlSequence.cha, always: true)
            restorePen(into: &out)
            framing.movedCursor = true
            framing.end(into: &out)
        case .reflowed(let places, let cursor, let lineOffset, let finish):
            // Every cell is drawn at its place by absolute column, and the cursor put after the
            // last: right whether or not the terminal left the cursor short.
            framing.begin(at: out.count)
            if live.settle(at: places, cursor: cursor, columns: r.columns, colors: &colors, pens: &pens,
                           penIsUnknown: model.penIsUnknown, into: &out) {
                // Where the terminal left it on the last cell, not in pending wrap, it goes back
                // there: the text after it lands where it lands after cat's.
                if case .onLastCell = finish { ControlSequence.append(&out, r.columns, final: ControlSequence.cha, always: true) }
                restorePen(into: &out)
                framing.movedCursor = true
                framing.end(into: &out)
                model.columns = r.columns
                if cursor < r.columns {
                    model.cursorFound(column: cursor, lineOffset: lineOffset)
                    return
                }
            }
        case .lost:
            break
        }
        loseLiveRegion(columns: r.columns, into: &out)
    }

    /// Without a report from a terminal the environment does not name, the cells still fading
    /// are settled where that is certain: where a terminal that keeps its rows (xterm: the cursor
    /// and every cell left of both margins) and every way of reflowing the logical line
    /// (`RowRecord.reflowed`, known cell by cell) leave each of them the same number of cells
    /// before the cursor on its row, not in pending wrap, and no terminal can have left the cursor
    /// a cell short (`mayBeLeftShort`). They are then reached by BS from the cursor (never past the
    /// row's start in any of those layouts) and written settled, which brings the cursor back;
    /// its column stays unknown (the layouts differ in it) until a CR or LF. Returns false, having
    /// written nothing, elsewhere: the cells keep their colour (`docs/terminals.md#resize-and-reflow`).
    mutating func settleWhereEveryLayoutAgrees(_ r: Relocation, into out: inout [UInt8]) -> Bool {
        guard configuration.reflow == nil, !live.cells.isEmpty, r.anchor < r.narrowest - 1, r.anchor < r.columns - 1,
              !row.mayLeaveCursorShort(at: r.anchor) else { return false }
        for reflow in RowRecord.Reflow.allCases {
            guard let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: reflow),
                  layout.cursor.column < r.columns else { return false }
            for cell in live.cells {
                guard let place = layout.places[cell.column], place.row == layout.cursor.row,
                      layout.cursor.column - place.column == r.anchor - cell.column else { return false }
            }
        }
        framing.begin(at: out.count)
        if live.settle(moves: .relative, colors: &colors, pens: &pens, cursor: r.anchor, penIsUnknown: model.penIsUnknown, into: &out) {
            restorePen(into: &out)
            framing.movedCursor = true
        }
        framing.end(into: &out)
        loseLiveRegion(columns: r.columns, into: &out)
        return true
    }

    /// The column tmux reports after the resize `r`, where the environment names tmux and the row
    /// record knows every cell of the cursor's logical line: tmux reflows a line as writing wraps
    /// it (`RowRecord.reflowed`, measured: `docs/terminals.md#resize-and-reflow`) and reports a
    /// cursor in pending wrap one past the last column. Nil elsewhere: without the report, which
    /// of keeping and reflowing the terminal did is not known.
    func expectedReport(_ r: Relocation) -> Int? {
        guard configuration.reflow == .wrapsWide,
              let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: .wrapsWide) else { return nil }
        return layout.cursor.column
    }

    /// What a cursor report after a resize says of the cells still fading.
    enum Relocated {
        /// Where they were, the cursor at `column`.
        case inPlace(column: Int, lineOffset: Int?)
        /// Where they were, the rows cut at `margin`, the cursor clamped to `column`.
        case cutOff(column: Int, margin: Int)
        /// Moved along the logical line to `places`, the cursor to `cursor` (`columns`: pending wrap).
        case reflowed(places: [LiveRegion.Place], cursor: Int, lineOffset: Int?, finish: Finish)
        /// Not certain: left as drawn.
        case lost
    }

    /// What follows drawing the cells at their places after a reflow.
    enum Finish {
        /// Nothing: the cursor is after the last of them.
        case asDrawn
        /// The cursor goes back onto the last cell, not into pending wrap, where kitty left it.
        case onLastCell
    }

    /// Where each kind of terminal would have put the cursor, against the column `now` reported:
    /// one that keeps rows keeps its column (or the last one, when the new width cuts it off); one
    /// that reflows puts it at its place in the logical line modulo the width (at a row boundary:
    /// pending wrap after the last column of the row above).
    func relocated(_ r: Relocation, reported now: Int) -> Relocated {
        let kept = min(r.anchor, r.columns - 1)
        let clamped = r.anchor >= r.columns
        let reflowed = r.lineOffset.map { $0 % r.columns }
        let wrapsPending = r.lineOffset.map { $0 > 0 && $0 % r.columns == 0 } ?? false
        if now == kept && !clamped && !reflowsElsewhere(r, reported: now) {
            return .inPlace(column: now, lineOffset: reflowed == now ? r.lineOffset : nil)
        }
        // Two resizes or more before the report: a terminal that keeps its rows (not one named as
        // reflowing them) cut them at the narrowest width, and clamped the cursor there.
        if configuration.reflow == nil, r.narrowest < r.columns, r.anchor >= r.narrowest, now == r.narrowest - 1 {
            return .cutOff(column: now, margin: r.narrowest)
        }
        // Where a reflow would have put the cursor: at the logical line's place, or, where the row
        // record knows the whole line, where writing it again at the new width ends.
        let placement = placesAfterReflow(r, reported: now)
        var layout: (places: [LiveRegion.Place], cursor: Int)?
        if case .found(let places, let cursor) = placement { layout = (places, cursor) }
        // Where the line is known, only its layouts say where a reflow put the cursor.
        let lineKnown: Bool
        if case .unknown = placement { lineKnown = false } else { lineKnown = true }
        let reflowFits = layout != nil || (!lineKnown && (reflowed == now || (wrapsPending && now >= r.columns - 1)))
        if case .ambiguous = placement {
            // Reflowing terminals part ways here: the cells are left as drawn.
            return .lost
        }
        // Where a reflow would have put the cells, the cursor right after the last of them (at
        // the last column it may be in pending wrap, after it: only where the logical line, or a
        // report past the column, says which).
        let cursor = layout?.cursor ?? (wrapsPending && now >= r.columns - 1 ? r.columns : now)
        let places = layout?.places
            ?? (lineKnown ? nil : live.placesAfterReflow(cursor: cursor, anchor: r.anchor, columns: r.columns))
        if now == kept && clamped {
            guard reflowFits, let places else { return .cutOff(column: now, margin: r.columns) }
            // Both kinds of terminal would report this column (kitty leaves a cursor whose place
            // is a whole number of rows on the last cell, as xterm's cut does). Where the reflow
            // left every cell where it was — the row held them all and never wrapped — the two
            // agree; elsewhere the cells are in different places, and writing them in either
            // would garble the other, unless the environment names a terminal that reflows (tmux,
            // kitty).
            if zip(places, live.cells).allSatisfy({ $0.up == 0 && $0.column == $1.column }) {
                return .cutOff(column: now, margin: r.columns)
            }
            guard let reflow = configuration.reflow else { return .lost }
            if cursor == r.columns {
                // tmux reports pending wrap one past the last column: this column is not its reflow.
                guard reflow == .cutsCells else { return .lost }
                return .reflowed(places: places, cursor: cursor, lineOffset: nil, finish: .onLastCell)
            }
            return .reflowed(places: places, cursor: cursor, lineOffset: reflowed == now ? r.lineOffset : nil, finish: .asDrawn)
        }
        guard now < r.columns - 1 || reflowFits || now == r.columns else { return .lost }
        // Moved with the cursor (a terminal that keeps rows would not have moved it): the cells
        // are the ones just before it.
        guard let places else { return .lost }
        return .reflowed(places: places, cursor: cursor, lineOffset: reflowed == now ? r.lineOffset : nil, finish: .asDrawn)
    }

    /// Whether the environment names kitty, which reflows every row its line reached by wrapping,
    /// and its layout of the line puts the cursor elsewhere than `now`: a report at the old column
    /// there is not the row kept in place but frames read after the reflow (`mendLateFrames`).
    func reflowsElsewhere(_ r: Relocation, reported now: Int) -> Bool {
        guard configuration.reflow == .cutsCells, let offset = r.lineOffset, offset > r.anchor else { return false }
        let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: .cutsCells)
        return (layout?.cursor.column ?? offset % r.columns) != now
    }

    /// Where the cells still fading are in `layout` (`RowRecord.reflowed`), counted up from its
    /// cursor's row; nil when one has no place there or would be above the screen.
    func livePlaces(in layout: RowRecord.Layout) -> [LiveRegion.Place]? {
        var places: [LiveRegion.Place] = []
        for cell in live.cells {
            guard let place = layout.places[cell.column], layout.cursor.row - place.row < (ahead.rows ?? 1) else { return nil }
            places.append(LiveRegion.Place(up: layout.cursor.row - place.row, column: place.column))
        }
        return places
    }

    /// Whether a terminal may have left the cursor one cell short of its place after the resize
    /// (kitty 0.26, `RowRecord.mayLeaveCursorShort`: right after a wide cluster, settled or not,
    /// or at the second column) — the rule the late frames' stories use too. Not where the
    /// environment names tmux, which places it right.
    func mayBeLeftShort(_ r: Relocation) -> Bool {
        configuration.reflow != .wrapsWide && row.mayLeaveCursorShort(at: r.anchor)
    }

    /// What the row record tells of where a reflow put the cells still fading.
    enum ReflowPlacement {
        /// Every way of reflowing that puts the cursor at the reported column puts the cells
        /// here (`cursor`: the cursor's column, `columns` in pending wrap).
        case found(places: [LiveRegion.Place], cursor: Int)
        /// Terminals that reflow differently would put the cursor there with the cells in
        /// different places, or in one that cannot be reached: the cells are not to be touched.
        case ambiguous
        /// The record does not know the logical line: only the cursor's column places them.
        case unknown
        /// The record knows the logical line and no way of reflowing puts the cursor at the
        /// reported column: the terminal did not reflow it.
        case notReflowed
    }

    /// Where the cells still fading are after a reflow, when the row record knows every cell of
    /// the cursor's logical line before them (`RowRecord.reflowed`), laid out as each kind of
    /// reflowing terminal does (tmux wraps a wide cluster whole, kitty cuts rows by cells), and
    /// the cursor is where that layout puts it (`reported`; the last column's pending wrap reads
    /// as either). Where both layouts put it there with the cells in different places, the
    /// terminal's way named by the environment (`FadeConfiguration.reflow`) decides, if any.
    func placesAfterReflow(_ r: Relocation, reported: Int) -> ReflowPlacement {
        guard row.lineStart != nil else { return .unknown }
        var found: (places: [LiveRegion.Place], cursor: Int)?
        var known = false, ambiguous = false
        var hinted: (places: [LiveRegion.Place], cursor: Int)??
        for reflow in RowRecord.Reflow.allCases {
            guard let layout = row.reflowed(upTo: r.anchor, columns: r.columns, as: reflow) else { continue }
            known = true
            let cursor = layout.cursor
            // In pending wrap: the last column (tmux one past it); kitty, where frames read after its
            // reflow left the cursor there, the first column.
            let pending = cursor.column == r.columns
                && (reported == r.columns - 1 || (reported == 0 && reflow == .cutsCells && configuration.reflow == .cutsCells))
            guard reported == cursor.column || pending else { continue }
            let result = livePlaces(in: layout).map { ($0, cursor.column) }
            // The terminal named by the environment decides a tie the report cannot.
            if reflow == configuration.reflow { hinted = .some(result) }
            guard let result else { ambiguous = true; continue }
            if let found, found.places != result.0 || found.cursor != result.1 { ambiguous = true }
            found = result
        }
        if case .some(let layout) = hinted { return layout.map { .found(places: $0.places, cursor: $0.cursor) } ?? .ambiguous }
        if ambiguous { return .ambiguous }
        if let found { return .found(places: found.places, cursor: found.cursor) }
        return known ? .notReflowed : .unknown
    }

    /// The cells still fading can no longer be found: they keep the colour they have, and the
    /// column is unknown until a CR or LF.
    mutating func loseLiveRegion(columns: Int?, into out: inout [UInt8]) {
        live.removeAll()
        restorePen(into: &out)
        model.columns = columns
        forgetColumn()
    }

    /// Resets the terminal's SGR state (`CSI 0 m`) before typewrite stops (SIGTSTP); the input's
    /// state is restored before the next text.
    package mutating func resetPen(into out: inout [UInt8]) {
        pens.reset(terminalPenIsUnknown: model.penIsUnknown, into: &out)
    }

    /// The terminal's own colours, as it reported them (OSC 10/11, OSC 4): every fade runs from this
    /// background to this foreground from now on, those under way from the step they reached.
    package mutating func useTerminalColors(_ colors: TerminalColors) {
        self.colors.use(colors)
        live.retarget(self.colors)
        if let background = colors.background { configuration.background = background }
        if let foreground = colors.foreground { configuration.foreground = foreground }
        configuration.palette.merge(colors.palette) { _, reported in reported }
    }

    /// Something else moved the cursor (the job was stopped and continued): forget the column.
    package mutating func forgetCursor(into out: inout [UInt8]) {
        settleLive(into: &out)
        model.cursorMovedElsewhere()
        markdown.forgetPainted()
    }
}
