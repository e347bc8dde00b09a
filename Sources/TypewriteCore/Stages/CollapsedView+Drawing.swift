// CollapsedView+Drawing.swift: painting the collapsed view: the dimmed last row, the label,
// expanding and collapsing. See CollapsedView.swift.

extension CollapsedView {
    // MARK: Drawing

    /// Draws the collapsed view: from the end of the visible text (first time) the cursor goes to
    /// the row below, the label is drawn there, and the last row starts fading out.
    mutating func showCollapsed(at time: Seconds, fromTextEnd: Bool, into out: inout [UInt8]) {
        out += Self.resetPen
        if fromTextEnd && !cutAfterNewline { out += Array("\r\n".utf8) }
        drawLabel(expanded: false, into: &out)
        phase = .collapsed
        dimStart = time
        dimStep = 0
        paintDim(at: time, into: &out)
    }

    /// The number of fade-out steps in this colour depth.
    var dimTargetStep: Int {
        switch configuration.colorDepth {
        case .none: return 0
        case .basic16: return 1
        default: return Self.dimSteps
        }
    }

    /// Repaints the last visible row at the fade-out step due at `time`, if it changed.
    mutating func paintDim(at time: Seconds, into out: inout [UInt8]) {
        guard let start = dimStart, dimStep < dimTargetStep else { return }
        let elapsed = min(max(0, time - start), Self.dimDuration)
        paintDim(step: min(dimTargetStep, Int(elapsed / Self.dimDuration * Double(dimTargetStep)) + 1), into: &out)
    }

    /// Repaints the last visible row at fade-out `step` (of `dimTargetStep`), if it changed.
    mutating func paintDim(step: Int, into out: inout [UInt8]) {
        guard dimStart != nil, step != dimStep else { return }
        dimStep = step
        let opacity = 1 - (1 - Self.dimmedOpacity) * Double(step) / Double(dimTargetStep)
        out += Self.synchronizedBegin
        repaintLastRow(opacity: opacity, into: &out)
        out += Self.synchronizedEnd
    }

    /// From the label row: up to the last visible row, its cells at `opacity`, back after the label.
    func repaintLastRow(opacity: Double, into out: inout [UInt8]) {
        out += Array("\r\u{1B}[A".utf8)
        out += Self.resetPen
        var pen = GraphicRendition()
        var skip = 0
        for cell in layout.cells {
            switch cell {
            case .empty:
                skip += 1
            case .continuation:
                break
            case .glyph(let bytes, _, let cellPen):
                if skip > 0 { out += Array("\u{1B}[\(skip)C".utf8); skip = 0 }
                let wanted = dimmed(cellPen, opacity: opacity)
                if wanted != pen {
                    let params = wanted.render()
                    out += Array((params.isEmpty ? "\u{1B}[0m" : "\u{1B}[0;\(params)m").utf8)
                    pen = wanted
                }
                out += store[bytes]
            }
        }
        out += Self.resetPen
        out += Array("\r\u{1B}[B".utf8)
        if labelCells > 0 { out += Array("\u{1B}[\(labelCells)C".utf8) }
    }

    /// `pen` with its foreground `opacity` of the way from the background (`docs/colour.md#the-fades-colours`).
    func dimmed(_ pen: GraphicRendition, opacity: Double) -> GraphicRendition {
        guard opacity < 1, pen.allowsFade else { return pen }
        switch configuration.colorDepth {
        case .none:
            return pen
        case .basic16:
            return pen.replacingForeground(with: nil, faint: true)
        case .palette256, .trueColor:
            let target = Self.rgb(pen.foreground) ?? configuration.foreground
            let background = Self.rgb(pen.background) ?? configuration.background
            let c = ColorRamp.mix(background, target, opacity)
            let parameter = configuration.colorDepth == .palette256
                ? "38;5;\(ColorRamp.nearestPaletteIndex(c))" : "38;2;\(c.red);\(c.green);\(c.blue)"
            return pen.replacingForeground(with: parameter)
        }
    }

    static func rgb(_ color: TerminalColor) -> RGB? {
        switch color {
        case .default: return nil
        case .indexed(let i): return RGB.xterm(i)
        case .rgb(let c): return c
        }
    }

    /// Draws the label (bold) on the cursor's row, replacing what was there, with the key hint while
    /// prompting; the cursor ends right after it.
    mutating func drawLabel(expanded: Bool, into out: inout [UInt8]) {
        let width = (configuration.columns ?? 80) - 1
        let text = Self.fit(expanded ? lessLabel : moreLabel, cells: width)
        let long = expanded ? "  Enter or Space to collapse, q to quit" : "  Enter or Space to expand, q to quit"
        let short = "  (Enter, q)"
        let hint = text.cells + long.count <= width ? long : short
        let showHint = prompting && text.cells + hint.count <= width
        let styled = configuration.colorDepth != .none
        out += Array("\r\u{1B}[K".utf8)
        if styled { out += Array("\u{1B}[0;1m".utf8) }
        out += Array(text.text.utf8)
        if styled { out += Self.resetPen }
        if showHint {
            if styled { out += Array("\u{1B}[2m".utf8) }
            out += Array(hint.utf8)
            if styled { out += Self.resetPen }
        }
        labelCells = text.cells + (showHint ? hint.count : 0)
    }

    /// `label` without control characters, cut to at most `cells` cells.
    static func fit(_ label: String, cells: Int) -> (text: String, cells: Int) {
        var text = ""
        var used = 0
        for character in label {
            if character.unicodeScalars.contains(where: { $0.value < 0x20 || ($0.value >= 0x7F && $0.value < 0xA0) }) { continue }
            let width = CellWidth.measure(character.unicodeScalars).cells
            if used + width > cells { break }
            text.append(character)
            used += width
        }
        return (text, used)
    }

    /// Replaces the label with the rest of the text: the last row back to full colour, then the
    /// rest from the row below through a fresh renderer, starting in the SGR state it had.
    mutating func expand(at time: Seconds, restoringLastRow: Bool, into out: inout [UInt8]) {
        out += Self.synchronizedBegin
        out += Self.resetPen
        out += Array("\r\u{1B}[K".utf8)
        labelCells = 0
        if restoringLastRow && dimStep > 0 { repaintLastRow(opacity: 1, into: &out) }
        out += Self.synchronizedEnd
        dimStart = nil
        dimStep = 0
        restartRenderer(at: time)
    }

    /// A fresh renderer at column 0 of the row below the visible rows, fed the held rest.
    mutating func restartRenderer(at time: Seconds) {
        renderer = FadeRenderer(configuration: configuration)
        let params = penAtCut.render()
        if !params.isEmpty { renderer.receive(Array("\u{1B}[0;\(params)m".utf8), at: time) }
        if store.end > cut { renderer.receive(store[cut..<store.end], at: time) }
        if inputEnded { renderer.endInput(at: time) }
    }

    /// The rest has been drawn: offer `Show less` if the whole text is on screen, else end.
    mutating func finishExpansion(into out: inout [UInt8]) {
        let labelRow = layout.atEmptyRowStart ? layout.row : layout.row + 1
        guard prompting, restIsMeasured, let rows = screenRows, labelRow + 1 <= rows else {
            phase = .done
            return
        }
        out += Self.resetPen
        if !layout.atEmptyRowStart { out += Array("\r\n".utf8) }
        drawLabel(expanded: true, into: &out)
        phase = .expanded
    }

    /// From the `Show less` label back to the collapsed view: up to the first row of the rest,
    /// erase to the end of the screen, label, fade the last visible row out again.
    mutating func collapse(at time: Seconds, into out: inout [UInt8]) {
        let labelRow = layout.atEmptyRowStart ? layout.row : layout.row + 1
        let up = labelRow - visibleRows
        out += Self.synchronizedBegin
        out += Self.resetPen
        out += Array("\r".utf8)
        if up > 0 { out += Array("\u{1B}[\(up)A".utf8) }
        out += Array("\u{1B}[J".utf8)
        out += Self.synchronizedEnd
        showCollapsed(at: time, fromTextEnd: false, into: &out)
    }

    static let resetPen = Array("\u{1B}[0m".utf8)
    static let synchronizedBegin = Array("\u{1B}[?2026h".utf8)
    static let synchronizedEnd = Array("\u{1B}[?2026l".utf8)
}
