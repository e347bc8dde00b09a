import Testing
@testable import TypewriteCore
import TerminalJudge

@Suite("FadeRenderer")
struct FadeRendererTests {
    static let esc = "\u{1B}"

    @Test("prose settles to cat's screen under both margin conventions",
          arguments: VirtualTerminal.MarginConvention.allCases)
    func prose(margin: VirtualTerminal.MarginConvention) {
        let text = Array(String(repeating: "The quick brown fox jumps over the lazy dog. ", count: 8).utf8) + [0x0A]
        let harness = RenderHarness(columns: 80)
        let screens = harness.screens(RenderHarness.chunks(text, cuts: Array(stride(from: 3, to: text.count, by: 7))), margin: margin)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
    }

    @Test("the fade passes through at least 8 colours and ends in the default colour")
    func fadeColours() {
        let harness = RenderHarness(columns: 80)
        let out = String(decoding: harness.output(RenderHarness.chunks(Array("Hello there, this fades in softly.".utf8))), as: UTF8.self)
        var colours = Set<String>()
        var rest = out[...]
        while let r = rest.range(of: "\(Self.esc)[38;2;") {
            let end = rest[r.upperBound...].firstIndex(of: "m")!
            colours.insert(String(rest[r.upperBound..<end]))
            rest = rest[end...]
        }
        #expect(colours.count >= 8)
        // Every fade colour is followed, later, by the default foreground again: after the last
        // 24-bit colour written comes an SGR 39 or 0, and the settled screen is cat's.
        let lastFade = out.range(of: "\(Self.esc)[38;2;", options: .backwards)!
        let after = out[lastFade.upperBound...]
        #expect(after.contains("\(Self.esc)[39m") || after.contains("\(Self.esc)[0m"))
        let screens = harness.screens(RenderHarness.chunks(Array("Hello there, this fades in softly.".utf8)), margin: .xterm)
        #expect(screens.typewrite == screens.cat)
    }

    @Test("after a UTF-8 sequence cut short, the next non-ASCII character goes out as it came (tmux drops it)",
          arguments: ["\u{1B}[G", "\u{1B}[0;31m", ""])
    func cutSequenceThenCharacter(sequence: String) {
        // E2 82 is a lead byte and one of its two continuation bytes; tmux 3.3a drops the カ after
        // it (measured), xterm draws it: no fade and no SGR of typewrite's may come before it.
        let text = [0xE2, 0x82] + Array("\(sequence)カ and words after it\r\nfade again\n".utf8)
        let out = RenderHarness(columns: 80).output(RenderHarness.chunks(text, cuts: [2]))
        let expected = [0xE2, 0x82] + Array("\(sequence)カ".utf8)
        #expect(out.count >= expected.count && Array(out[..<expected.count]) == expected,
                "\(String(decoding: out.prefix(40), as: UTF8.self).debugDescription)")
        // ASCII ends the state: the rest fades as usual.
        #expect(String(decoding: out, as: UTF8.self).contains("\(Self.esc)[38;2;"))
    }

    @Test("colour depth none writes the input bytes and nothing else")
    func noEscapes() {
        let text = Array("plain paced text\nsecond line\n".utf8)
        let harness = RenderHarness(columns: 80, depth: .none)
        #expect(harness.output(RenderHarness.chunks(text, cuts: [5, 9, 20])) == text)
    }

    @Test("frames that repaint are wrapped in synchronized output, move back with BS, one per cell, and come back by writing")
    func framesShape() {
        let harness = RenderHarness(columns: 80)
        for frame in harness.frames(RenderHarness.chunks(Array("abcdefghijklmnopqrstuvwxyz".utf8))) {
            let s = String(decoding: frame.bytes, as: UTF8.self)
            if s.contains("\u{8}") {
                #expect(s.hasPrefix("\(Self.esc)[?2026h\u{8}") && s.hasSuffix("\(Self.esc)[?2026l"))
            }
            #expect(s.range(of: "\(Self.esc)\\[[0-9]*[CD]", options: .regularExpression) == nil)  // no CUB, no CUF
            #expect(!s.contains("\(Self.esc)7"))   // never DECSC
            #expect(!s.contains("\(Self.esc)[s"))  // never SCOSC
        }
    }

    @Test("the input's colours are kept and the terminal is left in the input's SGR state",
          arguments: VirtualTerminal.MarginConvention.allCases)
    func inputColours(margin: VirtualTerminal.MarginConvention) {
        let text = Array("\(Self.esc)[1;31merror:\(Self.esc)[0m bad \(Self.esc)[38;5;208mthing\(Self.esc)[38:2::10:200:30m rgb\n\(Self.esc)[4mopen".utf8)
        let harness = RenderHarness(columns: 40)
        for cut in stride(from: 1, to: text.count, by: 3) {
            let screens = harness.screens(RenderHarness.chunks(text, cuts: [cut]), margin: margin)
            #expect(screens.typewrite == screens.cat, "cut \(cut): \(screens.typewrite.diff(screens.cat) ?? "")")
        }
    }

    @Test("a progress bar rewritten with CR fades only the cells that changed")
    func progressRewrite() {
        var chunks: [RenderHarness.Chunk] = []
        for p in stride(from: 10, through: 90, by: 10) {
            chunks.append(.init(delay: 0.3, bytes: Array("\rprogress \(p)% [\(String(repeating: "#", count: p / 10))\(String(repeating: ".", count: 10 - p / 10))]".utf8)))
        }
        chunks.append(.init(delay: 0.3, bytes: [0x0A]))
        let harness = RenderHarness(columns: 80)
        let screens = harness.screens(chunks, margin: .xterm)
        #expect(screens.typewrite == screens.cat, "\(screens.typewrite.diff(screens.cat) ?? "")")
        // After the first update, "progress " never fades again: in the screen after every later
        // frame, its cells are in the default style.
        var terminal = VirtualTerminal(columns: 80, rows: 24, newlineIsCRLF: true)
        var laterFrames = 0
        for frame in harness.frames(chunks) {
            terminal.feed(frame.bytes)
            guard frame.time > 0.6 else { continue }
            laterFrames += 1
            let row = terminal.snapshot().lines.first ?? []  // the progress bar is the only row
            #expect(row.count >= 9 && row.prefix(9).allSatisfy { $0.style == VirtualTerminal.Style() }, "frame at \(frame.time)")
        }
        #expect(laterFrames > 10)
    }
}

@Suite("FadeRenderer saved cursors")
struct FadeRendererSavedCursorTests {
    @Test("DECRC after leaving the alternate screen: xterm and tmux restore different pens, so nothing is faded")
    func restoreAcrossScreens() {
        // tmux 3.3a keeps one DECSC slot for both screens (the text comes out green), xterm one
        // per screen (default colour): typewrite must not write a pen of its own after it.
        let text = Array("\u{1B}[?1049h\u{1B}[38;2;10;200;30m\u{1B}7\u{1B}[?1049l\u{1B}8\u{1B}[Hffkajgjigiagkmcjfcfiildng".utf8)
        let output = RenderHarness(columns: 80).output(RenderHarness.chunks(text))
        let tail = Array("\u{1B}8\u{1B}[Hffkajgjigiagkmcjfcfiildng".utf8)
        #expect(output.count >= tail.count && Array(output.suffix(tail.count)) == tail,
                "\(String(decoding: output, as: UTF8.self).debugDescription)")
    }
}

@Suite("FadeRenderer signals")
struct FadeRendererSignalTests {
    @Test("a flush on a signal settles everything and later text is paced from there")
    func flushThenContinue() {
        var renderer = FadeRenderer(configuration: FidelityDriver(columns: 80, cps: 100, maximumLag: .infinity).configuration)
        renderer.receive(Array(String(repeating: "word ", count: 400).utf8), at: 0)
        var out: [UInt8] = []
        renderer.frame(at: 0.5, into: &out)
        out.removeAll()
        renderer.interrupt(echo: KeyEcho(Array("^C".utf8), landed: true), into: &out)
        #expect(!renderer.isAnimating)
        #expect(String(decoding: out, as: UTF8.self).contains("\u{1B}[") == true)
        #expect(!String(decoding: out, as: UTF8.self).contains("D\u{1B}"))  // no CUB on this path
        renderer.receive(Array("MORE".utf8), at: 1)
        out.removeAll()
        renderer.frame(at: 1.2, into: &out)
        #expect(String(decoding: out, as: UTF8.self).contains("M"))  // shown within 0.2 s, not 18 s
    }
}

@Suite("FadeRenderer regressions")
struct FadeRendererRegressionTests {
    @Test("an SGR with an embedded control, after the store has discarded bytes, does not trap")
    func sgrWithControlAfterDiscard() {
        var renderer = FadeRenderer(configuration: FidelityDriver(columns: 80, depth: .none, cps: 1e8, maximumLag: 0.15).configuration)
        var out: [UInt8] = []
        // Enough text for the store to reclaim its front (64 KiB), then CSI 3 LF 1 m.
        renderer.receive(Array(repeating: 0x61, count: 200_000), at: 0)
        renderer.frame(at: 1, into: &out)
        renderer.receive(Array("x\u{1B}[3\n1my".utf8), at: 1)
        renderer.endInput(at: 1)
        renderer.frame(at: 3, into: &out)
        #expect(renderer.isFinished)
        #expect(out.suffix(8) == Array("x\u{1B}[3\n1my".utf8))
    }
}
