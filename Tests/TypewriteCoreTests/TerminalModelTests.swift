import Testing
@testable import TypewriteCore

/// The one terminal model that the renderer, the collapsed view and the timestamps follow.
@Suite("TerminalModel")
struct TerminalModelTests {
    /// Tokenizes `text` and feeds every token to a model `columns` wide that counts rows.
    static func follow(_ text: String, columns: Int = 10) -> TerminalModel {
        var store = ByteStore()
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        store.append(contentsOf: Array(text.utf8))
        tokenizer.finish(store, into: &queue)
        var model = TerminalModel(columns: columns, countsRows: true)
        while !queue.isEmpty { model.apply(queue.removeFirst(), store) }
        return model
    }

    @Test("autowrap: the last column leaves a pending wrap; the next cluster starts a new row")
    func pendingWrap() {
        var model = Self.follow("0123456789")
        #expect(model.column == 10 && model.pendingWrap && model.row == 0)
        model = Self.follow("0123456789x")
        #expect(model.column == 1 && !model.pendingWrap && model.row == 1)
        // A wide cluster that does not fit wraps early.
        model = Self.follow("012345678中")
        #expect(model.column == 2 && model.row == 1)
    }

    @Test("LF, CR and TAB move the cursor as ONLCR terminals do")
    func controls() {
        let model = Self.follow("ab\ncd\r\te")
        #expect(model.row == 1 && model.column == 9)
    }

    @Test("a cluster of uncertain width loses the column, not the row, while it cannot have wrapped")
    func uncertainWidth() {
        var model = Self.follow("ab\u{2764}\u{FE0F}cd", columns: 20)  // ❤️: one cell or two
        #expect(model.column == nil && model.row == 0)
        #expect(model.columnBounds == 5...6)
        model = Self.follow("ab\u{2764}\u{FE0F}cd\r\nx", columns: 20)
        #expect(model.column == 1 && model.row == 1)
        // Near the margin it may have wrapped: the row is lost too.
        model = Self.follow("abcdefgh\u{2764}\u{FE0F}cd", columns: 10)
        #expect(model.row == nil)
    }

    @Test("a C1 control loses the cursor; the pen only after one that opens a sequence or a string")
    func c1Controls() {
        // NEL, IND, RI, HTS, SS2, ST: some terminals move the cursor, none changes the pen.
        for c1 in ["\u{85}", "\u{84}", "\u{8D}", "\u{88}", "\u{8E}", "\u{9C}"] {
            var model = Self.follow("ab\(c1)cd")
            #expect(model.column == nil && model.row == nil && !model.penIsUnknown, "\(c1.unicodeScalars.first!.value)")
            model = Self.follow("ab\(c1)cd\r\nx")
            #expect(model.column == 1 && model.allowsRepaint)
        }
        // DCS, SOS, CSI, OSC, PM, APC: what follows may be their parameters to some terminals.
        for c1 in ["\u{90}", "\u{98}", "\u{9B}", "\u{9D}", "\u{9E}", "\u{9F}"] {
            var model = Self.follow("ab\(c1)31m\r\nx")
            #expect(model.penIsUnknown && !model.allowsRepaint, "\(c1.unicodeScalars.first!.value)")
            model = Self.follow("ab\(c1)31m\r\n\u{1B}[0mx")
            #expect(!model.penIsUnknown && model.allowsRepaint)
        }
        // A raw token holding more than one C1 control: the introducer among them counts.
        let model = Self.follow("ab\u{85}\u{9B}31m\r\nx")
        #expect(model.penIsUnknown)
    }

    @Test("BS moves back except at the margins, where terminals disagree")
    func backspace() {
        #expect(Self.follow("abc\u{8}").column == 2)
        #expect(Self.follow("\u{8}").column == nil)
        #expect(Self.follow("0123456789\u{8}").column == nil)
    }

    @Test("cursor movement the model does not follow loses the row; CR gets the column back")
    func lostRow() {
        var model = Self.follow("a\n\u{1B}[Ab")
        #expect(model.row == nil)
        model = Self.follow("a\u{1B}7b\u{1B}8")
        #expect(model.row == nil && model.column == nil)
        model = Self.follow("a\u{7F}\r")
        #expect(model.column == 0 && model.row == 0)
    }

    @Test("the pen follows SGR, DECSC/DECRC and RIS, and counts the times the terminal replaced it")
    func pen() {
        var model = Self.follow("\u{1B}[31mx")
        #expect(model.pen.foreground == .indexed(1) && model.penReplacements == 0)
        model = Self.follow("\u{1B}[31m\u{1B}7\u{1B}[32m\u{1B}8")
        #expect(model.pen.foreground == .indexed(1) && model.penReplacements == 1)
        model = Self.follow("\u{1B}[31m\u{1B}c")
        #expect(model.pen.isDefault && model.penReplacements == 1)
        // An SGR with an LF inside still sets the pen, and the LF moves the cursor.
        model = Self.follow("ab\u{1B}[3\n1m")
        #expect(model.pen.foreground == .indexed(1) && model.row == 1 && model.column == 0)
    }

    @Test("the collapsed view's row layout gives up on a recorded row of uncertain width")
    func layoutUncertainRow() {
        var store = ByteStore()
        var tokenizer = Tokenizer()
        var queue = TokenQueue()
        store.append(contentsOf: Array("one\ntwo \u{2764}\u{FE0F}\n".utf8))
        tokenizer.finish(store, into: &queue)
        var layout = RowLayout(columns: 20, recordedRow: 1)
        while !queue.isEmpty { layout.apply(queue.removeFirst(), store) }
        #expect(layout.lost)
        var certain = RowLayout(columns: 20, recordedRow: 0)
        store = ByteStore()
        tokenizer = Tokenizer()
        store.append(contentsOf: Array("one\ntwo \u{2764}\u{FE0F}\nthree".utf8))
        tokenizer.finish(store, into: &queue)
        while !queue.isEmpty { certain.apply(queue.removeFirst(), store) }
        #expect(!certain.lost && certain.row == 2)
    }
}
