import Testing
@testable import TypewriteCore
import TerminalJudge
@testable import TypewriteCLI

/// Drives a `CollapsedView` on a fake clock the way the session and the prompt do (a frame every
/// 1/60 s while animating) and feeds everything it writes to a virtual terminal. Nothing sleeps.
struct CollapseHarness {
    var view: CollapsedView
    var terminal: VirtualTerminal
    var time: Seconds = 0
    /// Everything written, in order.
    var output: [UInt8] = []

    init(columns: Int = 40, rows: Int = 24, visibleRows: Int = 3, depth: ColorDepth = .trueColor,
         holdingLimit: Int = CollapsedView.defaultHoldingLimit, margin: VirtualTerminal.MarginConvention = .xterm) {
        var configuration = FadeConfiguration()
        configuration.columns = columns
        configuration.colorDepth = depth
        configuration.charactersPerSecond = 400
        view = CollapsedView(configuration: configuration, visibleRows: visibleRows, holdingLimit: holdingLimit)
        terminal = VirtualTerminal(columns: columns, rows: rows, margin: margin, newlineIsCRLF: true)
    }

    mutating func write(_ bytes: [UInt8]) {
        output += bytes
        terminal.feed(bytes)
    }

    /// Frames until nothing animates (at most a minute of fake time).
    mutating func settle() {
        let limit = time + 60
        while view.isAnimating && time < limit {
            var out: [UInt8] = []
            view.frame(at: time, into: &out)
            write(out)
            time += 1.0 / 60
        }
        precondition(!view.isAnimating, "the view did not settle")
    }

    /// Input in reads `delay` seconds apart, frames in between.
    mutating func receive(_ reads: [[UInt8]], delay: Seconds = 0.05) {
        for read in reads {
            let until = time + delay
            while view.isAnimating && time < until {
                var out: [UInt8] = []
                view.frame(at: time, into: &out)
                write(out)
                time += 1.0 / 60
            }
            time = max(time, until)
            view.receive(read, at: time)
        }
    }

    mutating func end() {
        view.endInput(at: time)
        settle()
        precondition(view.isDrawn)
    }

    /// The whole session: input, end, settled.
    mutating func show(_ text: String, reads: Int = 1) {
        let bytes = Array(text.utf8)
        let size = max(1, (bytes.count + reads - 1) / reads)
        receive(stride(from: 0, to: bytes.count, by: size).map { Array(bytes[$0..<min(bytes.count, $0 + size)]) })
        end()
    }

    mutating func prompt(screenRows: Int = 24) {
        var out: [UInt8] = []
        view.beginPrompt(screenRows: screenRows, into: &out)
        write(out)
        settle()
    }

    mutating func press(_ key: CollapsedView.Key) {
        var out: [UInt8] = []
        view.press(key, at: time, into: &out)
        write(out)
        settle()
    }

    var lines: [String] { terminal.text().split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// What cat leaves in a terminal of this size for `text`.
    static func cat(_ text: String, columns: Int = 40, rows: Int = 24) -> VirtualTerminal {
        var terminal = VirtualTerminal(columns: columns, rows: rows, newlineIsCRLF: true)
        terminal.feed(text)
        return terminal
    }
}

@Suite("Collapse")
struct CollapseTests {
    static let esc = "\u{1B}"
    static let twelve = (1...12).map(String.init).joined(separator: "\n") + "\n"
    static let moreHint = "Read more  Enter or Space to expand, q to quit"
    static let lessHint = "Show less  Enter or Space to collapse, q to quit"

    @Test("text that fits in N rows is shown as cat shows it, with no label and no prompt",
          arguments: ["1\n2\n3\n", "1\n2\n3", "one line", String(repeating: "x", count: 120), "a\n\n"])
    func fits(text: String) {
        var h = CollapseHarness(visibleRows: 3)
        h.show(text, reads: 3)
        #expect(h.terminal.snapshot() == CollapseHarness.cat(text).snapshot(), "\(h.terminal.diff(CollapseHarness.cat(text).snapshot()) ?? "")")
        #expect(!h.view.awaitsKey)
        #expect(h.view.phase == .streaming)
    }

    @Test("Enter, Enter, q: expand in place, Show less collapses back, q leaves the view and ends the line")
    func enterEnterQuit() {
        var h = CollapseHarness(columns: 80, visibleRows: 3)
        h.show(Self.twelve, reads: 4)
        #expect(h.lines == ["1", "2", "3", "Read more"])
        #expect(h.view.awaitsKey)
        h.prompt()
        #expect(h.lines == ["1", "2", "3", Self.moreHint])
        #expect(h.terminal.snapshot().cursorRow == 3 && h.terminal.snapshot().cursorColumn == Self.moreHint.count)

        h.press(.toggle)
        #expect(h.lines == (1...12).map(String.init) + [Self.lessHint])
        #expect(h.view.phase == .expanded)
        // The expanded rows look exactly like cat's: full colour, no trace of the fade.
        let cat = CollapseHarness.cat(Self.twelve, columns: 80)
        for row in 0..<12 { #expect(h.terminal.line(row) == cat.line(row), "row \(row)") }

        h.press(.toggle)
        #expect(h.lines == ["1", "2", "3", Self.moreHint])
        #expect(h.view.phase == .collapsed)

        h.press(.quit)
        #expect(h.lines == ["1", "2", "3", "Read more"])
        #expect(h.view.phase == .done && !h.view.awaitsKey)
        let end = h.terminal.snapshot()
        #expect(end.cursorRow == 4 && end.cursorColumn == 0)
        #expect(end.style == VirtualTerminal.Style())
    }

    @Test("the last shown row fades out toward the background; the rows above keep their colour")
    func lastRowFades() {
        var h = CollapseHarness(visibleRows: 3)
        h.show(Self.twelve)
        let cell = h.terminal.cell(row: 2, column: 0)
        #expect(cell.text == "3")
        guard case .rgb(let r, let g, let b) = cell.style.fg else {
            Issue.record("last row not dimmed: \(cell)")
            return
        }
        // Between the background (black) and the assumed foreground (208 grey), nearer neither end.
        #expect(r == g && g == b && r > 40 && r < 180)
        #expect(h.terminal.cell(row: 1, column: 0).style == VirtualTerminal.Style())
        #expect(h.terminal.cell(row: 3, column: 0).style.bold)  // the label
        // 16 colours: faint.
        var basic = CollapseHarness(visibleRows: 3, depth: .basic16)
        basic.show(Self.twelve)
        #expect(basic.terminal.cell(row: 2, column: 0).style.faint)
        #expect(!basic.terminal.cell(row: 1, column: 0).style.faint)
        // No colour: the label still appears, nothing is painted.
        var none = CollapseHarness(visibleRows: 3, depth: .none)
        none.show(Self.twelve)
        #expect(none.lines == ["1", "2", "3", "Read more"])
        #expect(none.terminal.cell(row: 3, column: 0).style == VirtualTerminal.Style())
    }

    @Test("rows are display rows: a paragraph wraps at the terminal's width",
          arguments: VirtualTerminal.MarginConvention.allCases, [1, 7, 300])
    func wrappedParagraph(margin: VirtualTerminal.MarginConvention, reads: Int) {
        let text = String(DemoScript.answer.prefix(300))
        var h = CollapseHarness(columns: 30, visibleRows: 2, margin: margin)
        h.show(text, reads: reads)
        let cat = CollapseHarness.cat(text, columns: 30)
        #expect(h.lines.count == 3)
        #expect(h.lines[0] == VirtualTerminal.lineText(cat.line(0)).trimmingTrailingSpaces)
        #expect(h.lines[1].trimmingTrailingSpaces == VirtualTerminal.lineText(cat.line(1)).trimmingTrailingSpaces)
        #expect(h.lines[2] == "Read more")
        h.prompt()
        h.press(.toggle)
        let rows = cat.settledLines().count
        #expect(h.lines.count == rows + 1)
        for row in 0..<rows { #expect(h.terminal.line(row) == cat.line(row), "row \(row)") }
        #expect(h.lines[rows].hasPrefix("Show less"))
    }

    @Test("the input's colours survive collapsing, the cut and the expansion")
    func coloursAcrossTheCut() {
        let text = "plain\n\(Self.esc)[1;31mred bold\nstill red\(Self.esc)[0m and plain\n\(Self.esc)[4munder\nline\(Self.esc)[0m\n"
        var h = CollapseHarness(visibleRows: 3)
        h.show(text, reads: 5)
        #expect(h.lines == ["plain", "red bold", "still red and plain", "Read more"])
        // Dimmed, the red row stays red-ish and bold; the plain part is grey.
        let dimRed = h.terminal.cell(row: 2, column: 0).style
        #expect(dimRed.bold)
        if case .rgb(let r, let g, _) = dimRed.fg { #expect(r > g) } else { Issue.record("\(dimRed)") }
        h.prompt()
        h.press(.toggle)
        let cat = CollapseHarness.cat(text)
        for row in 0..<5 { #expect(h.terminal.line(row) == cat.line(row), "row \(row)") }
    }

    @Test("no Show less when the expanded text does not fit on the screen: the prompt ends")
    func tooTallForShowLess() {
        var h = CollapseHarness(rows: 10, visibleRows: 3)
        h.show(Self.twelve)
        h.prompt(screenRows: 10)
        h.press(.toggle)
        #expect(h.view.phase == .done)
        #expect(h.terminal.text() == CollapseHarness.cat(Self.twelve, rows: 10).text())
        // Exactly fitting: 12 text rows + the label in 13 rows.
        var fit = CollapseHarness(rows: 13, visibleRows: 3)
        fit.show(Self.twelve)
        fit.prompt(screenRows: 13)
        fit.press(.toggle)
        #expect(fit.view.phase == .expanded)
    }

    @Test("a narrow terminal gets the short hint, or none")
    func narrowHint() {
        var h = CollapseHarness(columns: 30, visibleRows: 3)
        h.show(Self.twelve)
        h.prompt()
        #expect(h.lines.last == "Read more  (Enter, q)")
        var tiny = CollapseHarness(columns: 12, visibleRows: 3)
        tiny.show(Self.twelve)
        tiny.prompt()
        #expect(tiny.lines.last == "Read more")
    }

    @Test("keys pressed while the rest types in finish it at once; q then leaves it complete")
    func keysDuringExpansion() {
        var h = CollapseHarness(visibleRows: 3)
        h.show(Self.twelve)
        h.prompt()
        var out: [UInt8] = []
        h.view.press(.toggle, at: h.time, into: &out)
        h.write(out)
        #expect(h.view.phase == .expanding)
        out = []
        h.view.press(.quit, at: h.time, into: &out)
        h.write(out)
        #expect(h.view.phase == .done)
        #expect(h.terminal.text() == CollapseHarness.cat(Self.twelve).text())
    }

    @Test("without a prompt (no foreground terminal) the view expands by itself and offers no Show less")
    func expandWithoutAsking() {
        var h = CollapseHarness(visibleRows: 2)
        h.show(Self.twelve)
        var out: [UInt8] = []
        h.view.expandWithoutAsking(at: h.time, into: &out)
        h.write(out)
        h.settle()
        #expect(h.view.phase == .done)
        #expect(h.terminal.snapshot() == CollapseHarness.cat(Self.twelve).snapshot())
    }

    @Test("more than the holding limit: the view expands by itself and streams the rest")
    func holdingLimit() {
        let text = (1...400).map { "line \($0)" }.joined(separator: "\n") + "\n"
        var h = CollapseHarness(visibleRows: 3, holdingLimit: 1000)
        let bytes = Array(text.utf8)
        h.receive([Array(bytes[..<40])])
        h.settle()  // the label is drawn
        #expect(h.lines.last == "Read more")
        h.receive(stride(from: 40, to: bytes.count, by: 300).map { Array(bytes[$0..<min(bytes.count, $0 + 300)]) })
        h.end()
        #expect(!h.view.awaitsKey)
        #expect(h.terminal.text() == CollapseHarness.cat(text).text())
    }

    @Test("cursor movement on the visible rows: collapsing is given up, the screen is cat's")
    func unfollowableInput() {
        let text = "a\nb\(Self.esc)[1Ac\nd\ne\nf\n"
        var h = CollapseHarness(visibleRows: 3)
        h.show(text)
        #expect(h.view.phase == .streamingAll && !h.view.awaitsKey)
        #expect(h.terminal.snapshot() == CollapseHarness.cat(text).snapshot())
    }

    @Test("a resize while collapsed gives up: the label goes, the rest follows")
    func resizeGivesUp() {
        var h = CollapseHarness(visibleRows: 3)
        let bytes = Array(Self.twelve.utf8)
        h.receive([Array(bytes[..<10])])
        h.settle()
        #expect(h.lines.last == "Read more")
        var out: [UInt8] = []
        h.view.resize(columns: 40, rows: nil, into: &out)
        h.write(out)
        h.receive([Array(bytes[10...])])
        h.end()
        #expect(!h.view.awaitsKey)
        #expect(h.lines.prefix(3) == ["1", "2", "3"])
        #expect(Array(h.lines.dropFirst(3)) == (4...12).map(String.init))
    }

    @Test("the collapsed screen is the same however the input is split")
    func anySplit() {
        let text = "héllo wörld, a wide 中文 line that wraps around\nsecond\n\(Self.esc)[32mthird\(Self.esc)[0m\nfourth\n"
        var whole = CollapseHarness(columns: 20, visibleRows: 3)
        whole.show(text)
        let expected = whole.terminal.snapshot()
        let bytes = Array(text.utf8)
        for cut in stride(from: 1, to: bytes.count, by: 3) {
            var h = CollapseHarness(columns: 20, visibleRows: 3)
            h.receive([Array(bytes[..<cut]), Array(bytes[cut...])])
            h.end()
            #expect(h.terminal.snapshot() == expected, "cut \(cut): \(h.terminal.diff(expected) ?? "")")
        }
    }

    @Test("interrupted while the visible rows still type in: the view is drawn as it would end")
    func flushWhileOverflowing() {
        var h = CollapseHarness(visibleRows: 3)
        h.receive([Array(Self.twelve.utf8)])
        #expect(h.view.phase == .overflowing)
        var out: [UInt8] = []
        h.view.endInput(at: h.time)
        h.view.interrupt(echo: nil, into: &out)
        h.write(out)
        #expect(h.lines == ["1", "2", "3", "Read more"])
        guard case .rgb = h.terminal.cell(row: 2, column: 0).style.fg else {
            Issue.record("last row not dimmed")
            return
        }
    }

    @Test("keys: Enter and Space toggle; q, Esc, Ctrl-C and Ctrl-D quit; an arrow key is nothing")
    func keys() {
        #expect(CollapsedView.Key.parse(Array("\r".utf8)) == [.toggle])
        #expect(CollapsedView.Key.parse(Array("\n".utf8)) == [.toggle])
        #expect(CollapsedView.Key.parse(Array(" ".utf8)) == [.toggle])
        #expect(CollapsedView.Key.parse(Array("q".utf8)) == [.quit])
        #expect(CollapsedView.Key.parse(Array("Q".utf8)) == [.quit])
        #expect(CollapsedView.Key.parse([0x1B]) == [.quit])
        #expect(CollapsedView.Key.parse([0x03]) == [.quit])
        #expect(CollapsedView.Key.parse([0x04]) == [.quit])
        #expect(CollapsedView.Key.parse(Array("\u{1B}[A".utf8)) == [.other])
        #expect(CollapsedView.Key.parse(Array("x".utf8)) == [.other])
        #expect(CollapsedView.Key.parse(Array("\r\r".utf8)) == [.toggle, .toggle])
    }

    @Test("labels lose control characters and are cut to the width")
    func labels() {
        #expect(CollapsedView.fit("Read\u{1B}[31m more", cells: 40).text == "Read[31m more")
        #expect(CollapsedView.fit("Lire la suite…", cells: 8) == ("Lire la ", 8))
        #expect(CollapsedView.fit("続きを読む", cells: 5) == ("続き", 4))
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
