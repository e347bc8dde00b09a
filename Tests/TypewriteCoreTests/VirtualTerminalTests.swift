// Tests for the test-side VirtualTerminal (Tests/TerminalJudge/VirtualTerminal.swift, the one judge
// of `swift test` and of the fuzz package).
// Widths used here are uncontroversial in every table: ASCII 1, CJK/fullwidth 2, U+0301 0.

import Testing
@testable import TypewriteCore
import TerminalJudge

private typealias VT = VirtualTerminal

private func terminal(_ input: String, columns: Int = 10, rows: Int = 4,
                      margin: VirtualTerminal.MarginConvention = .xterm, scrollback: Bool = true,
                      crlf: Bool = false) -> VT {
    var t = VT(columns: columns, rows: rows, margin: margin, scrollback: scrollback, newlineIsCRLF: crlf)
    t.feed(input)
    return t
}

/// Scalars of a cell, so "e\u{301}" and "é" are not confused by String's canonical equivalence.
private func scalars(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

/// A corpus touching every parser state; the invalid bytes sit between sequences.
private let corpus: [UInt8] = {
    var bytes: [UInt8] = []
    let parts = [
        "plain ascii text that wraps around the margin more than once, and then some\r\n",
        "\u{1B}[1;31mred bold\u{1B}[0m \u{1B}[38;2;10;20;30mrgb\u{1B}[38:2::1:2:3mcolon\u{1B}[4:3;58:5:9mx\u{1B}[m\r\n",
        "中文字符 Ａ e\u{301} a\u{AD}b a\u{200B}b 中\u{301}\r\n",
        "\u{1B}]8;id=1;https://example.com\u{1B}\\link\u{1B}]8;;\u{7} \u{1B}]0;title\u{7}",
        "progress 10%\rprogress 100%\r\n\tTab\tstops\u{1B}[3g\t\u{1B}H\u{1B}[5G\u{1B}H\r\t.\r\n",
        "\u{1B}[?1049halt screen\u{1B}[2J\u{1B}[3;1Hx\u{1B}[?1049l",
        "\u{1B}7saved\u{1B}8\u{1B}[s\u{1B}[u\u{1B}[5;5H\u{1B}[K\u{1B}[1J\u{1B}[2;4r\n\n\n\n\u{1B}M\u{1B}[r",
        "\u{1B}P1$r\u{1B}\\\u{1B}_apc\u{1B}\\\u{1B}[41m\u{1B}[2@\u{1B}[P\u{1B}[X\u{1B}[L\u{1B}[M\u{1B}[S\u{1B}[T",
        "wide at the edge: 一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十一二三四五六七八九十\u{8}\u{1B}[D!",
        "\u{1B}[?25l\u{1B}[?7lno wrap no wrap no wrap no wrap no wrap no wrap no wrap no wrap no wrap\u{1B}[?7h\u{1B}[?25h",
        "\u{E}so\u{F}\u{1B}(0q\u{1B}(B\u{1B}c after reset\u{1B}]2;a\u{18}b\u{1B}]2;c\u{1B}x",
    ]
    for (i, part) in parts.enumerated() {
        bytes += Array(part.utf8)
        bytes += [[0xFF], [0xE4, 0xB8], [0xC0, 0xAF], [0xF0, 0x9F, 0x98]][i % 4]
    }
    bytes += Array("\u{1B}[0m\r\nend".utf8)
    return bytes
}()

@Suite("VirtualTerminal")
struct VirtualTerminalTests {

    // MARK: - Text, controls, wrapping

    struct TextCase: Sendable, CustomTestStringConvertible {
        var input: String
        var columns = 10
        var text: String
        var row: Int
        var column: Int
        var pendingWrap = false
        var testDescription: String { input.debugDescription }
    }

    @Test(arguments: [
        TextCase(input: "hello", text: "hello", row: 0, column: 5),
        TextCase(input: "", text: "", row: 0, column: 0),
        TextCase(input: "ab\r\ncd", text: "ab\ncd", row: 1, column: 2),
        TextCase(input: "ab\ncd", text: "ab\n  cd", row: 1, column: 4),            // LF keeps the column
        TextCase(input: "ab\u{0B}c\u{0C}d", text: "ab\n  c\n   d", row: 2, column: 4),  // VT, FF = LF
        TextCase(input: "a\u{0}b\u{7}c\u{7F}d\u{18}e\u{1A}", text: "abcde", row: 0, column: 5),
        TextCase(input: "abc\u{8}\u{8}X", text: "aXc", row: 0, column: 2),
        TextCase(input: "\u{8}\u{8}X", text: "X", row: 0, column: 1),
        TextCase(input: "中文", text: "中文", row: 0, column: 4),
        TextCase(input: "Ａb", text: "Ａb", row: 0, column: 3),
        TextCase(input: "abcde", columns: 5, text: "abcde", row: 0, column: 4, pendingWrap: true),
        TextCase(input: "abcdef", columns: 5, text: "abcde\nf", row: 1, column: 1),
        TextCase(input: "abcde\r\n", columns: 5, text: "abcde", row: 1, column: 0),
        TextCase(input: "Progress 100%\rDone", columns: 20, text: "Doneress 100%", row: 0, column: 4),
        TextCase(input: "10%\r20%\r100%\rok", columns: 20, text: "ok0%", row: 0, column: 2),
        TextCase(input: "a\u{1B}[3b", text: "aaaa", row: 0, column: 4),  // REP
    ])
    func basicText(_ c: TextCase) {
        let t = terminal(c.input, columns: c.columns)
        #expect(t.text() == c.text)
        #expect(t.cursorRow == c.row)
        #expect(t.cursorColumn == c.column)
        #expect(t.pendingWrap == c.pendingWrap)
    }

    @Test func wrapMarksTheLineSoftWrapped() {
        let t = terminal("abcdefghijkl\r\nxy", columns: 5)
        #expect(t.text() == "abcde\nfghij\nkl\nxy")
        #expect(t.softWrapped.prefix(4) == [true, true, false, false])
        #expect(t.snapshot().softWrapped == [true, true, false, false])
    }

    @Test func newlineIsCRLFModelsONLCR() {
        let raw = terminal("ab\ncd\n")
        let pty = terminal("ab\ncd\n", crlf: true)
        #expect(raw.text() == "ab\n  cd")
        #expect(pty.text() == "ab\ncd")
        #expect(pty.cursorRow == 2 && pty.cursorColumn == 0)
        // ONLCR maps only NL: VT and FF keep the column through a pty (tmux 3.3a, measured).
        let vtff = terminal("ab\u{0B}c\u{0C}d", crlf: true)
        #expect(vtff.text() == "ab\n  c\n   d")
    }

    // MARK: - Margin conventions (docs/terminals.md#pending-wrap)

    struct MarginCase: Sendable, CustomTestStringConvertible {
        var name: String
        var input: String           // fed after "abcde" on a 5-column screen
        var xterm: (text: String, row: Int, column: Int, pending: Bool)
        var tmux: (text: String, row: Int, column: Int, pending: Bool)
        var testDescription: String { name }
    }

    @Test(arguments: [
        MarginCase(name: "nothing", input: "",
                   xterm: ("abcde", 0, 4, true), tmux: ("abcde", 0, 4, true)),
        MarginCase(name: "BS", input: "\u{8}",
                   xterm: ("abcde", 0, 3, false), tmux: ("abcde", 0, 4, false)),
        MarginCase(name: "BS X", input: "\u{8}X",
                   xterm: ("abcXe", 0, 4, false), tmux: ("abcdX", 0, 4, true)),
        MarginCase(name: "BS BS X", input: "\u{8}\u{8}X",
                   xterm: ("abXde", 0, 3, false), tmux: ("abcXe", 0, 4, false)),
        MarginCase(name: "CUB X", input: "\u{1B}[DX",
                   xterm: ("abcXe", 0, 4, false), tmux: ("abcdX", 0, 4, true)),
        MarginCase(name: "CUB 2 X", input: "\u{1B}[2DX",
                   xterm: ("abXde", 0, 3, false), tmux: ("abcXe", 0, 4, false)),
        MarginCase(name: "CUB 0 X (0 means 1)", input: "\u{1B}[0DX",
                   xterm: ("abcXe", 0, 4, false), tmux: ("abcdX", 0, 4, true)),
        MarginCase(name: "CUB huge X", input: "\u{1B}[99999999999DX",
                   xterm: ("Xbcde", 0, 1, false), tmux: ("Xbcde", 0, 1, false)),
        MarginCase(name: "CR X", input: "\rX",
                   xterm: ("Xbcde", 0, 1, false), tmux: ("Xbcde", 0, 1, false)),
        MarginCase(name: "CHA 4 X", input: "\u{1B}[4GX",
                   xterm: ("abcXe", 0, 4, false), tmux: ("abcXe", 0, 4, false)),
        MarginCase(name: "wrap, CR, BS at column 0, X", input: "f\r\u{8}X",
                   xterm: ("abcde\nX", 1, 1, false), tmux: ("abcdX\nf", 0, 4, true)),
    ])
    func marginConventions(_ c: MarginCase) {
        for margin in VirtualTerminal.MarginConvention.allCases {
            let t = terminal("abcde" + c.input, columns: 5, margin: margin)
            let want = margin == .xterm ? c.xterm : c.tmux
            #expect(t.text() == want.text, "\(margin)")
            #expect(t.cursorRow == want.row, "\(margin)")
            #expect(t.cursorColumn == want.column, "\(margin)")
            #expect(t.pendingWrap == want.pending, "\(margin)")
        }
    }

    @Test(arguments: VirtualTerminal.MarginConvention.allCases)
    func backspaceAtColumnZeroWithoutSoftWrapStays(_ margin: VirtualTerminal.MarginConvention) {
        let t = terminal("abc\r\ndef\r\u{8}X", margin: margin)
        #expect(t.text() == "abc\nXef")
        #expect(t.cursorRow == 1 && t.cursorColumn == 1)
    }

    /// kitty 0.26 under the tmux convention: BS at column 0 stays even below a soft-wrapped row
    /// (docs/terminals.md#backspace-at-column-0); the xterm convention never reverse-wraps.
    @Test(arguments: VirtualTerminal.MarginConvention.allCases)
    func backspaceAtColumnZeroWithoutReverseWrapStays(_ margin: VirtualTerminal.MarginConvention) {
        var t = VT(columns: 5, rows: 4, margin: margin)
        t.backspaceReverseWraps = false
        t.feed("abcdef\r\u{8}X")
        #expect(t.text() == "abcde\nX")
        #expect(t.cursorRow == 1 && t.cursorColumn == 1 && !t.pendingWrap)
    }

    @Test(arguments: VirtualTerminal.MarginConvention.allCases)
    func autowrapOffOverwritesTheLastColumn(_ margin: VirtualTerminal.MarginConvention) {
        var t = terminal("\u{1B}[?7labcdefg", columns: 5, margin: margin)
        #expect(t.text() == "abcdg")
        #expect(t.cursorColumn == 4 && !t.pendingWrap && !t.autowrap)
        t.feed("\u{1B}[?7h\rvwxyz!")
        #expect(t.text() == "vwxyz\n!")
    }

    // MARK: - Wide glyphs

    @Test(arguments: [80, 79])
    func wideGlyphAtTheMargin(_ width: Int) {
        let prefix = String(repeating: "a", count: 78)
        var t = VT(columns: width, rows: 3)
        t.feed(prefix + "中")
        if width == 80 {
            // Fits in columns 78–79: pending wrap on the continuation cell.
            #expect(t.text() == prefix + "中")
            #expect(t.cell(row: 0, column: 78).text == "中")
            #expect(t.cell(row: 0, column: 79).text == "")
            #expect(t.cursorRow == 0 && t.cursorColumn == 79 && t.pendingWrap)
            t.feed("x")
            #expect(t.text() == prefix + "中\nx")
            #expect(t.cursorRow == 1 && t.cursorColumn == 1)
        } else {
            // Does not fit in column 78 (the last): it stays blank and the glyph wraps.
            #expect(t.text() == prefix + "\n中")
            #expect(t.cell(row: 0, column: 78) == .blank)
            #expect(t.cursorRow == 1 && t.cursorColumn == 2 && !t.pendingWrap)
            t.feed("x")
            #expect(t.text() == prefix + "\n中x")
        }
        #expect(t.softWrapped[0])
    }

    @Test func wideGlyphThatWrapsBlanksTheOldLastCell() {
        let t = terminal("xxxxx\raaaa中", columns: 5)
        #expect(t.text() == "aaaa\n中")
        #expect(t.softWrapped[0])
    }

    @Test func wideGlyphOnOneColumnScreenIsDropped() {
        let t = terminal("中a", columns: 1, rows: 2)
        #expect(t.text() == "a")
    }

    struct HalfCase: Sendable, CustomTestStringConvertible {
        var input: String
        var text: String
        var testDescription: String { input.debugDescription }
    }

    @Test(arguments: [
        HalfCase(input: "中文\r\u{1B}[Cx", text: " x文"),     // right half overwritten: left half blank
        HalfCase(input: "中文\rx", text: "x 文"),              // left half overwritten: right half blank
        HalfCase(input: "中\u{8}x", text: " x"),              // BS lands on the right half
        HalfCase(input: "ab中\r\u{1B}[C文", text: "a文"),      // wide over narrow + left half of a wide
        HalfCase(input: "中文\r\u{1B}[C日", text: " 日"),      // straddling two wide glyphs
        HalfCase(input: "中文\r\u{1B}[C\u{1B}[K", text: ""),   // erase from a right half
        HalfCase(input: "中文\r\u{1B}[C\u{1B}[P", text: " 文"),  // DCH on a right half orphans the left
        HalfCase(input: "中文\r\u{1B}[@", text: " 中文"),       // ICH shifts whole glyphs
        HalfCase(input: "中文\r\u{1B}[C\u{1B}[@", text: "   文"), // ICH between the halves splits one
        HalfCase(input: "中文\r\u{1B}[2C\u{1B}[X", text: "中"),  // ECH on a left half
    ])
    func overwritingHalfAWideGlyph(_ c: HalfCase) {
        let t = terminal(c.input)
        #expect(t.text() == c.text)
        // No continuation cell without its head, no head without its continuation.
        for column in 0..<t.columns where t.cell(row: 0, column: column).text.isEmpty {
            #expect(column > 0 && !t.cell(row: 0, column: column - 1).text.isEmpty)
        }
    }

    @Test func halfBlankKeepsTheGlyphStyle() {
        let t = terminal("\u{1B}[31m中\u{1B}[m\r\u{1B}[Cx")
        #expect(t.cell(row: 0, column: 0) == VirtualTerminal.Cell(text: " ", style: VirtualTerminal.Style(fg: .indexed(1))))
        #expect(t.cell(row: 0, column: 1) == VirtualTerminal.Cell(text: "x"))
    }

    // MARK: - Width-0 scalars

    @Test func combiningMarksAttachToThePreviousCell() {
        var t = terminal("e\u{301}x")
        #expect(scalars(t.cell(row: 0, column: 0).text) == [0x65, 0x301])
        #expect(t.cursorColumn == 2)

        t = terminal("abc\u{301}", columns: 3)  // pending wrap: the last cell
        #expect(scalars(t.cell(row: 0, column: 2).text) == [0x63, 0x301])
        #expect(t.pendingWrap)

        t = terminal("中\u{301}")  // after a wide glyph: its head
        #expect(scalars(t.cell(row: 0, column: 0).text) == [0x4E2D, 0x301])
        #expect(t.cell(row: 0, column: 1).text == "")

        t = terminal("\u{301}x")  // nothing to attach to at column 0
        #expect(scalars(t.text()) == [0x78])
    }

    // MARK: - Tabs

    @Test(arguments: [
        TextCase(input: "a\tb", columns: 20, text: "a       b", row: 0, column: 9),
        TextCase(input: "\t\t\t", columns: 20, text: "", row: 0, column: 19),        // never past the margin
        TextCase(input: "012345678\tX", text: "012345678X", row: 0, column: 9, pendingWrap: true),
        TextCase(input: "abcdefghij\r\tX", columns: 20, text: "abcdefghXj", row: 0, column: 9),  // no erase
        TextCase(input: "abc\u{1B}Hdef\r\tX", columns: 20, text: "abcXef", row: 0, column: 4),  // HTS
        TextCase(input: "\u{1B}[3g\tX", columns: 20, text: String(repeating: " ", count: 19) + "X",
                 row: 0, column: 19, pendingWrap: true),                                     // TBC 3
        TextCase(input: "\u{1B}[9G\u{1B}[g\r\tX", columns: 20, text: String(repeating: " ", count: 16) + "X",
                 row: 0, column: 17),                                                         // TBC 0
        TextCase(input: "\u{1B}[2IX", columns: 20, text: String(repeating: " ", count: 16) + "X",
                 row: 0, column: 17),                                                         // CHT
        TextCase(input: "\u{1B}[20G\u{1B}[ZX", columns: 20, text: String(repeating: " ", count: 16) + "X",
                 row: 0, column: 17),                                                         // CBT
    ])
    func tabStops(_ c: TextCase) {
        let t = terminal(c.input, columns: c.columns)
        #expect(t.text() == c.text)
        #expect(t.cursorRow == c.row && t.cursorColumn == c.column)
        #expect(t.pendingWrap == c.pendingWrap)
    }

    // MARK: - SGR

    struct SGRCase: Sendable, CustomTestStringConvertible {
        var params: String
        var style: VirtualTerminal.Style
        var testDescription: String { "CSI \(params) m" }
    }

    @Test(arguments: [
        SGRCase(params: "1", style: .init(bold: true)),
        SGRCase(params: "2", style: .init(faint: true)),
        SGRCase(params: "3", style: .init(italic: true)),
        SGRCase(params: "4", style: .init(underline: 1)),
        SGRCase(params: "4:3", style: .init(underline: 3)),
        SGRCase(params: "4;4:0", style: .init()),
        SGRCase(params: "21", style: .init(underline: 2)),
        SGRCase(params: "5", style: .init(blink: true)),
        SGRCase(params: "7", style: .init(reverse: true)),
        SGRCase(params: "8", style: .init(conceal: true)),
        SGRCase(params: "9", style: .init(strike: true)),
        SGRCase(params: "53", style: .init(overline: true)),
        SGRCase(params: "1;2;3;4;5;7;8;9;53;22;23;24;25;27;28;29;55", style: .init()),
        SGRCase(params: "31", style: .init(fg: .indexed(1))),
        SGRCase(params: "97", style: .init(fg: .indexed(15))),
        SGRCase(params: "42", style: .init(bg: .indexed(2))),
        SGRCase(params: "100", style: .init(bg: .indexed(8))),
        SGRCase(params: "31;42;39;49", style: .init()),
        SGRCase(params: "38;5;208", style: .init(fg: .indexed(208))),
        SGRCase(params: "38;5;1", style: .init(fg: .indexed(1))),
        SGRCase(params: "48;5;17", style: .init(bg: .indexed(17))),
        SGRCase(params: "38;2;10;20;30", style: .init(fg: .rgb(10, 20, 30))),
        SGRCase(params: "48;2;1;2;3;1", style: .init(bg: .rgb(1, 2, 3), bold: true)),
        SGRCase(params: "38:5:208", style: .init(fg: .indexed(208))),
        SGRCase(params: "38:2::10:20:30", style: .init(fg: .rgb(10, 20, 30))),
        SGRCase(params: "38:2:10:20:30", style: .init(fg: .rgb(10, 20, 30))),
        SGRCase(params: "38:2:0:10:20:30", style: .init(fg: .rgb(10, 20, 30))),
        SGRCase(params: "48:2::1:2:3;4", style: .init(bg: .rgb(1, 2, 3), underline: 1)),
        SGRCase(params: "58:5:4", style: .init(underlineColor: .indexed(4))),
        SGRCase(params: "58;2;1;2;3", style: .init(underlineColor: .rgb(1, 2, 3))),
        SGRCase(params: "58:5:4;59", style: .init()),
        SGRCase(params: "1;31;0", style: .init()),
        SGRCase(params: "1;31;", style: .init()),              // empty parameter = 0
        SGRCase(params: "38;5;300;1", style: .init(bold: true)), // bad index ignored
        SGRCase(params: "38;2;1;300;3;1", style: .init(bold: true)),
        SGRCase(params: "38;2;1;2", style: .init()),           // truncated: ignored
        SGRCase(params: "38;9;1", style: .init(bold: true)),   // unknown form skipped with its selector
        SGRCase(params: "99;1", style: .init(bold: true)),     // unknown parameter ignored
        SGRCase(params: "1:2;3", style: .init(italic: true)),  // unknown sub-parameters ignored
        SGRCase(params: "99999999999;4", style: .init(underline: 1)),
    ])
    func selectGraphicRendition(_ c: SGRCase) {
        let t = terminal("\u{1B}[\(c.params)mx")
        #expect(t.style == c.style)
        #expect(t.cell(row: 0, column: 0).style == c.style)
    }

    @Test func sgrResetAndPrivateForms() {
        let t = terminal("\u{1B}[1;31mA\u{1B}[mB\u{1B}[1mC\u{1B}[0mD\u{1B}[4m\u{1B}[>4;1mE\u{1B}[?1mF")
        let styles = (0..<6).map { t.cell(row: 0, column: $0).style }
        #expect(styles == [VirtualTerminal.Style(fg: .indexed(1), bold: true), .init(), .init(bold: true), .init(),
                           .init(underline: 1), .init(underline: 1)])
    }

    @Test func eraseUsesTheBackgroundColour() {
        let t = terminal("abcdef\r\u{1B}[2C\u{1B}[1;41m\u{1B}[K\u{1B}[m", columns: 6)
        let line = t.settledLines()[0]
        #expect(line.count == 6)  // coloured blanks are not trimmed
        #expect(line[2] == VirtualTerminal.Cell(text: " ", style: .init(bg: .indexed(1))))  // only the background
        #expect(VirtualTerminal.lineText(line) == "ab    ")
    }

    // MARK: - OSC

    @Test func hyperlinksAreRecordedPerCell() {
        let t = terminal("a\u{1B}]8;;http://x\u{1B}\\bc\u{1B}]8;;\u{1B}\\d"
                         + "\u{1B}]8;id=7;https://e.com/a;b\u{7}\u{1B}[0mz\u{1B}]8;;\u{7}")
        #expect(t.text() == "abcdz")
        #expect((0..<5).map { t.cell(row: 0, column: $0).link }
                == [nil, "http://x", "http://x", nil, "id=7;https://e.com/a;b"])  // parameters kept with the URI
        #expect(t.link == nil)
        #expect(terminal("\u{1B}]8;;u\u{7}").link == "u")
    }

    @Test func titlesAndAbortedStrings() {
        #expect(terminal("\u{1B}]0;first\u{7}\u{1B}]2;second\u{1B}\\x").title == "second")
        #expect(terminal("\u{1B}]2;second\u{1B}\\x").text() == "x")
        #expect(terminal("\u{1B}]1;icon\u{7}").title == nil)

        let cancelled = terminal("\u{1B}]2;ab\u{18}cd")  // CAN aborts the OSC
        #expect(cancelled.title == nil && cancelled.text() == "cd")

        let interrupted = terminal("\u{1B}]2;ab\u{1B}[31mX")  // ESC other than ST: new sequence
        #expect(interrupted.title == nil && interrupted.text() == "X")
        #expect(interrupted.style == .init(fg: .indexed(1)))

        // DCS, SOS, PM, APC: swallowed up to ST, BEL does not end them.
        #expect(terminal("\u{1B}P1$r\u{7}0m\u{1B}\\x\u{1B}Xs\u{1B}\\\u{1B}^p\u{1B}\\\u{1B}_a\u{1B}\\y").text() == "xy")
    }

    @Test func oscStringsAreCapped() {
        var t = VT(columns: 10, rows: 2)
        t.feed("\u{1B}]2;")
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 4096)
        for _ in 0..<256 { t.feed(chunk) }  // 1 MiB
        t.feed("\u{7}ok")
        #expect(t.title?.utf8.count == 64 * 1024 - 2)  // the cap counts "2;"
        #expect(t.text() == "ok")
    }

    // MARK: - Parser robustness and splitting

    @Test func controlsInsideSequences() {
        #expect(terminal("ab\u{1B}[1\r0CX", columns: 20).text() == "ab        X")  // CR executed mid-CSI
        #expect(terminal("\u{1B}[31\u{18}mX").text() == "mX")                      // CAN aborts
        #expect(terminal("\u{1B}[31\u{1A}mX").style == .init())                    // SUB aborts
        #expect(terminal("\u{1B}[31\u{1B}[32mX").style == .init(fg: .indexed(2))) // ESC restarts
        #expect(terminal("\u{1B}[1;2;3$pX").text() == "X")                         // with intermediate: ignored
        #expect(terminal("\u{1B}[1?2mX").style == .init())                          // malformed: ignored
        #expect(terminal("\u{1B}(0\u{1B})Bq\u{1B}#3\u{1B}=\u{1B}>").text() == "q")
        #expect(terminal("\u{1B}#8", columns: 3, rows: 2).text() == "EEE\nEEE")    // DECALN
        // A byte of 0x80 or more inside ESC or CSI (measured in xterm 379 and tmux 3.3a): xterm reads
        // U+00A0–U+00FF as the GL byte (é as `i`, so ESC é is ESC i) and ends the sequence at any
        // other character or invalid UTF-8, drawing nothing for it; tmux ignores the byte.
        #expect(terminal("\u{1B}é|").text() == "|")
        #expect(terminal("\u{1B}é|", margin: .tmux).text() == "")
        let invalid: [UInt8] = Array("a\u{1B}[31".utf8) + [0xCB] + Array("mX".utf8)
        var xterm = VT(columns: 10, rows: 2), tmux = VT(columns: 10, rows: 2, margin: .tmux)
        xterm.feed(invalid)
        tmux.feed(invalid)
        #expect(xterm.text() == "amX" && xterm.style == .init())
        #expect(tmux.text() == "aX" && tmux.style == .init(fg: .indexed(1)))
        #expect(terminal("\u{1B}[2;5\u{C8}X", rows: 3).text() == "\n    X")          // È read as H: CUP
        #expect(terminal("\u{1B}[2;5\u{C8}X", rows: 3, margin: .tmux).text() == "")   // È ignored: ECH
        #expect(terminal("a\u{1B}[31中mX").text() == "amX")                              // 中 ends the CSI
        var so = terminal("\u{E}")
        #expect(so.shiftOut)
        so.feed("\u{F}")
        #expect(!so.shiftOut)
    }

    @Test(arguments: [
        [UInt8]([0xFF]), [0xC3], [0xE4, 0xB8], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
        [0xC0, 0xAF], [0xE0, 0x80, 0xAF], [0xF0, 0x9F, 0x98], [0x80, 0x9B, 0x9C], [0xC3, 0xA9, 0xA9],
        [0xF0, 0x9F, 0x98, 0x41], [0xE4, 0xB8, 0xAD, 0xC3],
    ])
    func invalidUTF8BecomesOneCellReplacements(_ bytes: [UInt8]) {
        let input = bytes + Array("|".utf8)
        var t = VT(columns: 40, rows: 2)
        t.feed(input)
        let expected = String(decoding: input, as: UTF8.self)
        #expect(scalars(t.text()) == scalars(expected))
        var cells = 0
        for scalar in expected.unicodeScalars { cells += scalar == "\u{FFFD}" ? 1 : CellWidth.of(scalar) }
        #expect(t.cursorColumn == cells)
    }

    @Test func truncatedUTF8BeforeAControlIsReplaced() {
        var t = VT(columns: 10, rows: 2)
        t.feed([0xE4, 0xB8, 0x0D, 0x41, 0x42])
        #expect(scalars(t.text()) == [0x41, 0x42])  // U+FFFD drawn, then CR, then "AB" over it
        t.feed([0xE4, 0xB8])
        #expect(scalars(t.text()) == [0x41, 0x42])  // still waiting for the third byte
        t.feed("\u{1B}[m")
        #expect(scalars(t.text()) == [0x41, 0x42, 0xFFFD])
    }

    /// tmux 3.3a, measured in a pane: a ZWJ joins the next non-ASCII scalar of the same read into the
    /// cell before it; at the end of a read, or before ASCII, it is lost.
    @Test(arguments: [
        (["👩\u{200D}💻"], [0x1F469, 0x200D, 0x1F4BB], 2),
        (["👩\u{200D}", "💻"], [0x1F469, 0x1F4BB], 4),
        (["👩", "\u{200D}💻"], [0x1F469, 0x200D, 0x1F4BB], 2),
        (["A\u{200D}B"], [0x41, 0x42], 2),
        (["A\u{200D}中"], [0x41, 0x200D, 0x4E2D], 1),
        (["👩\u{200D}\u{1B}[31m💻"], [0x1F469, 0x200D, 0x1F4BB], 2),
    ] as [([String], [UInt32], Int)])
    func zeroWidthJoinerJoinsWithinOneWriteUnderTmux(_ writes: [String], _ text: [UInt32], _ column: Int) {
        var t = VT(columns: 10, rows: 2, margin: .tmux)
        for w in writes { t.feed(w) }
        #expect(scalars(t.text()) == text)
        #expect(t.cursorColumn == column)
    }



    @Test(arguments: [80, 79, 10, 7, 2])
    func splitFeedsEqualOneFeed(_ columns: Int) {
        for margin in VirtualTerminal.MarginConvention.allCases {
            var whole = VT(columns: columns, rows: 5, margin: margin)
            whole.feed(corpus)
            let expected = whole.snapshot()

            var bytewise = VT(columns: columns, rows: 5, margin: margin)
            for byte in corpus { bytewise.feed(CollectionOfOne(byte)) }
            #expect(bytewise.diff(expected) == nil, "byte by byte, \(margin)")
            #expect(bytewise.title == whole.title)

            var rng = SplitMix64(seed: UInt64(columns))
            for _ in 0..<20 {
                var chunked = VT(columns: columns, rows: 5, margin: margin)
                var start = 0
                while start < corpus.count {
                    let end = min(corpus.count, start + Int.random(in: 0...9, using: &rng))
                    chunked.feed(corpus[start..<end])
                    start = end
                }
                #expect(chunked.diff(expected) == nil, "random chunks, \(margin)")
            }
        }
    }

    /// Random bytes biased towards escape syntax: no crash, no hang, invariants hold, splits agree.
    @Test(arguments: [(80, 24), (7, 3), (2, 1), (1, 1)])
    func fuzzedInputKeepsInvariants(columns: Int, rows: Int) {
        let size = (columns, rows)
        let alphabet: [UInt8] = Array("\u{1B}[];:?0123456789;;mHJKDCABGdrhl@PXLMSTbsu78cEM#\\\u{7}\u{8}\t\r\n\u{18}ab".utf8)
            + [0xE4, 0xB8, 0xAD, 0xCC, 0x81, 0xFF, 0x80]
        var rng = SplitMix64(seed: UInt64(size.0 * 1000 + size.1))
        for _ in 0..<20 {
            let bytes = (0..<4000).map { _ in
                Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
            }
            var whole = VT(columns: size.0, rows: size.1, margin: Bool.random(using: &rng) ? .xterm : .tmux)
            whole.feed(bytes)
            #expect((0..<whole.columns).contains(whole.cursorColumn))
            #expect((whole.scrollbackCount..<whole.lineCount).contains(whole.cursorRow))
            for row in 0..<whole.lineCount {
                for column in 0..<whole.columns where whole.cell(row: row, column: column).text.isEmpty {
                    #expect(column > 0 && !whole.cell(row: row, column: column - 1).text.isEmpty)
                }
            }
            var split = VT(columns: size.0, rows: size.1, margin: whole.margin)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...64, using: &rng))
                split.feed(bytes[start..<end])
                start = end
            }
            #expect(split.diff(whole.snapshot()) == nil)
        }
    }

    @Test func hugeParametersAreClamped() {
        var t = VT(columns: 10, rows: 4)
        for final in "ABCDEFGHIJKLMPSTXZ@`abdefgr" {
            t.feed("x\u{1B}[99999999999;99999999999\(final)y")
        }
        t.feed("\u{1B}[" + String(repeating: "1;", count: 10_000) + "m")
        t.feed("\u{1B}[999999999999999999999999999999999999999999;99999999999999999999999999H!")
        #expect(t.cell(row: t.scrollbackCount + 3, column: 9).text == "!")
    }

    // MARK: - Scrolling, screens, cursor state

    @Test func scrollingIntoScrollback() {
        let kept = terminal("1\r\n2\r\n3\r\n4\r\n5", rows: 3)
        #expect(kept.text() == "1\n2\n3\n4\n5")
        #expect(kept.scrollbackCount == 2 && kept.cursorRow == 4 && kept.screenRow == 2)

        let dropped = terminal("1\r\n2\r\n3\r\n4\r\n5", rows: 3, scrollback: false)
        #expect(dropped.text() == "3\n4\n5")
        #expect(dropped.cursorRow == 2)

        let wrapped = terminal("abcdefghi", columns: 3, rows: 2)
        #expect(wrapped.text() == "abc\ndef\nghi")
        #expect(wrapped.snapshot().softWrapped == [true, true, false])

        var cleared = kept
        cleared.feed("\u{1B}[3J")
        #expect(cleared.text() == "3\n4\n5" && cleared.cursorRow == 2)
    }

    @Test func scrollRegionAndIndexes() {
        let region = terminal("\u{1B}[2;3r1\r\n2\r\n3\r\n4", columns: 5, rows: 4)
        #expect(region.text() == "1\n3\n4")
        #expect(region.scrollbackCount == 0)

        #expect(terminal("a\r\nb\u{1B}[H\u{1B}Mc").text() == "c\na\nb")  // RI at the top scrolls down
        #expect(terminal("ab\u{1B}Dc").text() == "ab\n  c")                // IND
        #expect(terminal("ab\u{1B}Ec").text() == "ab\nc")                  // NEL
        #expect(terminal("\u{1B}[2;3r\u{1B}[?6h\u{1B}[5;1HX", rows: 4).text() == "\n\nX")  // origin mode
    }

    @Test func alternateScreen() {
        var t = terminal("main\u{1B}[?1049h", rows: 3)
        #expect(t.isAlternateScreen && t.text() == "")
        #expect(t.cursorRow == 0 && t.cursorColumn == 4)
        t.feed("\u{1B}[31malt\r\n\n\n\n\n")
        #expect(t.scrollbackCount == 0)
        t.feed("\u{1B}[?1049l")
        #expect(!t.isAlternateScreen && t.text() == "main")
        #expect(t.cursorRow == 0 && t.cursorColumn == 4 && t.style == .init())

        var kept = terminal("main\u{1B}[?47h\u{1B}[Halt\u{1B}[?47l")
        #expect(kept.text() == "main")
        kept.feed("\u{1B}[?47h")
        #expect(kept.text() == "alt")  // ?47 does not clear
        kept.feed("\u{1B}[?47l\u{1B}[?1047h\u{1B}[Hx\u{1B}[?1047l\u{1B}[?1047h")
        #expect(kept.text() == "")      // ?1047 clears on leaving
    }

    @Test func saveAndRestoreCursor() {
        let decsc = terminal("ab\u{1B}7cd\u{1B}[31m\u{1B}8X")
        #expect(decsc.text() == "abXd" && decsc.style == .init())

        let scosc = terminal("\u{1B}[1mab\u{1B}[scd\u{1B}[m\u{1B}[uX")
        #expect(scosc.text() == "abXd" && scosc.style == .init(bold: true))

        let wrap = terminal("abcde\u{1B}7\rX\u{1B}8Y", columns: 5)  // the wrap flag is restored
        #expect(wrap.text() == "Xbcde\nY")

        let unsaved = terminal("abc\u{1B}8X")
        #expect(unsaved.text() == "Xbc" && unsaved.cursorColumn == 1)
    }

    struct EditCase: Sendable, CustomTestStringConvertible {
        var sequence: String
        var text: String
        var testDescription: String { sequence.debugDescription }
    }

    /// Screen "abcde / fghij / klmno", cursor on "h" (row 1, column 2), no scrollback.
    @Test(arguments: [
        EditCase(sequence: "\u{1B}[K", text: "abcde\nfg\nklmno"),
        EditCase(sequence: "\u{1B}[0K", text: "abcde\nfg\nklmno"),
        EditCase(sequence: "\u{1B}[1K", text: "abcde\n   ij\nklmno"),
        EditCase(sequence: "\u{1B}[2K", text: "abcde\n\nklmno"),
        EditCase(sequence: "\u{1B}[J", text: "abcde\nfg"),
        EditCase(sequence: "\u{1B}[1J", text: "\n   ij\nklmno"),
        EditCase(sequence: "\u{1B}[2J", text: ""),
        EditCase(sequence: "\u{1B}[2X", text: "abcde\nfg  j\nklmno"),
        EditCase(sequence: "\u{1B}[P", text: "abcde\nfgij\nklmno"),
        EditCase(sequence: "\u{1B}[9P", text: "abcde\nfg\nklmno"),
        EditCase(sequence: "\u{1B}[2@", text: "abcde\nfg  h\nklmno"),
        EditCase(sequence: "\u{1B}[L", text: "abcde\n\nfghij"),
        EditCase(sequence: "\u{1B}[M", text: "abcde\nklmno"),
        EditCase(sequence: "\u{1B}[S", text: "fghij\nklmno"),
        EditCase(sequence: "\u{1B}[T", text: "\nabcde\nfghij"),
        EditCase(sequence: "\u{1B}[AX", text: "abXde\nfghij\nklmno"),
        EditCase(sequence: "\u{1B}[BX", text: "abcde\nfghij\nklXno"),
        EditCase(sequence: "\u{1B}[CX", text: "abcde\nfghXj\nklmno"),
        EditCase(sequence: "\u{1B}[EX", text: "abcde\nfghij\nXlmno"),
        EditCase(sequence: "\u{1B}[FX", text: "Xbcde\nfghij\nklmno"),
        EditCase(sequence: "\u{1B}[3;5HX", text: "abcde\nfghij\nklmnX"),
        EditCase(sequence: "\u{1B}[;2fX", text: "aXcde\nfghij\nklmno"),
        EditCase(sequence: "\u{1B}[1dX", text: "abXde\nfghij\nklmno"),
        EditCase(sequence: "\u{1B}[5`X", text: "abcde\nfghiX\nklmno"),
    ])
    func eraseEditAndMove(_ c: EditCase) {
        let t = terminal("abcde\r\nfghij\r\nklmno\u{1B}[2;3H" + c.sequence, columns: 5, rows: 3, scrollback: false)
        #expect(t.text() == c.text)
    }

    @Test func eraseClearsTheSoftWrapFlag() {
        var t = terminal("abcdefg", columns: 5)
        #expect(t.softWrapped[0])
        t.feed("\u{1B}[A\u{1B}[K")
        #expect(!t.softWrapped[0])
    }

    @Test func cursorVisibilityAndResets() {
        var t = terminal("\u{1B}[?25l\u{1B}[?2026h")
        #expect(!t.cursorVisible && !t.snapshot().cursorVisible)
        t.feed("\u{1B}[?25h\u{1B}[?2026l")
        #expect(t.cursorVisible)

        t.feed("\u{1B}[31mab\u{1B}]8;;u\u{1B}\\\u{1B}[?25l\u{1B}c")
        #expect(t.text() == "" && t.style == .init() && t.link == nil && t.cursorVisible)
        #expect(t.cursorRow == 0 && t.cursorColumn == 0)

        t.feed("\u{1B}[1;31m\u{1B}[?25l\u{1B}[!p")  // DECSTR
        #expect(t.style == .init() && t.cursorVisible)
    }

    // MARK: - Snapshots

    @Test func snapshotDiffNamesTheFirstDifference() {
        let a = terminal("hello\r\nworld")
        #expect(a.diff(a.snapshot()) == nil)

        let b = terminal("hello\r\nw\u{1B}[1mo\u{1B}[mrld")
        let message = a.diff(b.snapshot())
        #expect(message?.contains("line 1 column 1") == true)
        #expect(message?.contains("bold") == true)

        let c = terminal("hello\r\nworld\u{1B}[D")
        #expect(a.diff(c.snapshot())?.contains("cursor") == true)

        let d = terminal("hello\r\nworld\u{1B}[D\u{1B}[C")
        #expect(a.snapshot() == d.snapshot())
    }

    @Test func settledScreenOfCatMatchesStepwiseRepaint() {
        // The property typewrite's tests rely on: repainting cells in place with other styles and then
        // in the final style leaves the same snapshot as writing them once.
        let cat = terminal("Hi there", columns: 20)
        let repainted = terminal("\u{1B}[38;5;240mH\u{1B}[38;5;250mi\u{1B}[2D\u{1B}[38;5;245mHi\u{1B}[2D"
                                 + "\u{1B}[39mHi there", columns: 20)
        #expect(repainted.diff(cat.snapshot()) == nil)
    }

    // MARK: - Performance

    @Test func feedingSeveralMebibytes() {
        var line: [UInt8] = []
        for i in 0..<100 {
            line += Array("\u{1B}[38;2;\(i);\(200 - i);90mword\(i) \u{1B}[39m中文 é ".utf8)
        }
        line += [0x0D, 0x0A]
        var input: [UInt8] = []
        #if DEBUG
        let target = 512 * 1024
        #else
        let target = 4 * 1024 * 1024
        #endif
        while input.count < target { input += line }
        var t = VT(columns: 80, rows: 24)
        let clock = ContinuousClock()
        let elapsed = clock.measure { t.feed(input) }
        #expect(t.scrollbackCount > 0)
        #if !DEBUG
        #expect(elapsed < .seconds(1), "\(input.count) bytes took \(elapsed)")
        #else
        _ = elapsed
        #endif
    }
}
