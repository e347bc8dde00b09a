import Testing
@testable import TypewriteCore
import TerminalJudge
@testable import TypewriteCLI

/// `--timestamps` on a fake clock: arrival times are passed in, the wall clock is a fixed offset,
/// and the prefix is "[<whole seconds>]" so that no test depends on the time zone.
@Suite("Timestamps")
struct TimestampTests {
    static let esc = "\u{1B}"

    static func stage(dimmed: Bool = false) -> TimestampStage {
        TimestampStage(dimmed: dimmed, clock: .fixed(1000),
                       formatter: LocalTimeFormatter(format: "[%s]") { _, second in "[\(second)]" })
    }

    /// Feeds `(time, text)` reads through a stage, then ends the input; returns the output text.
    static func run(_ reads: [(Seconds, String)], dimmed: Bool = false) -> String {
        var stage = stage(dimmed: dimmed)
        var out: [UInt8] = []
        for (time, text) in reads { out += stage.process(Array(text.utf8), at: time) }
        out += stage.finish()
        return String(decoding: out, as: UTF8.self)
    }

    @Test("each line starts with the time its first byte arrived")
    func prefixPerLine() {
        let out = Self.run([(0, "a\nb"), (5, "c\nd\n"), (9, "e\n")])
        #expect(out == "[1000] a\n[1000] bc\n[1005] d\n[1009] e\n")
    }

    @Test("a line split across reads has one prefix, with the time of its first byte")
    func splitLine() {
        #expect(Self.run([(0, "ab"), (3, "c"), (4, "d\n")]) == "[1000] abcd\n")
        // The prefix waits for the line's first byte, not for the LF before it.
        #expect(Self.run([(0, "one\n"), (7, "two\n")]) == "[1000] one\n[1007] two\n")
    }

    @Test("a final LF leaves no empty stamped line; empty lines inside are stamped like ts")
    func finalNewline() {
        #expect(Self.run([(0, "a\n")]) == "[1000] a\n")
        #expect(Self.run([(0, "a\n\nb\n")]) == "[1000] a\n[1000] \n[1000] b\n")
        #expect(Self.run([(0, "")]) == "")
    }

    @Test("a line rewritten with CR keeps the time of its first byte")
    func carriageReturn() {
        let out = Self.run([(0, "10%"), (7, "\r20%"), (8, "\r30%"), (9, "\r\n"), (12, "next\n")])
        #expect(out == "[1000] 10%\r[1000] 20%\r[1000] 30%\r\n[1012] next\n")
        // CR LF line ends write nothing extra.
        #expect(Self.run([(0, "a\r\nb\r\n")]) == "[1000] a\r\n[1000] b\r\n")
    }

    @Test("output is the same however the input is split")
    func anySplit() {
        let text = "\(Self.esc)[1;31merror:\(Self.esc)[0m x\r\n\(Self.esc)]8;;http://e\(Self.esc)\\link\(Self.esc)]8;;\u{7}\nü中\r20%\n"
        for dimmed in [false, true] {
            let whole = Self.run([(0, text)], dimmed: dimmed)
            let bytes = Array(text.utf8)
            for cut in 1..<bytes.count {
                var stage = Self.stage(dimmed: dimmed)
                let out = stage.process(bytes[..<cut], at: 0) + stage.process(bytes[cut...], at: 0) + stage.finish()
                #expect(String(decoding: out, as: UTF8.self) == whole, "cut at \(cut)")
            }
        }
    }

    @Test("an LF inside an OSC string is not a line break; one inside CSI is")
    func escapeSequences() {
        let title = "\(Self.esc)]0;two\nlines\u{7}"
        #expect(Self.run([(0, "\(title)text\nmore\n")]) == "[1000] \(title)text\n[1000] more\n")
        let dcs = "\(Self.esc)Pq\n#\n\(Self.esc)\\"
        #expect(Self.run([(0, "x\(dcs)y\n")]) == "[1000] x\(dcs)y\n")
        // C0 controls inside CSI are executed by the terminal, so the LF starts a line.
        #expect(Self.run([(0, "a\(Self.esc)[1\n;2Hb\n")]) == "[1000] a\(Self.esc)[1\n;2H[1000] b\n")
    }

    @Test("plain: no escape sequence is added, and the line's own SGR comes after the prefix")
    func plainKeepsBytes() {
        let input = "\(Self.esc)[1;31merror:\(Self.esc)[0m bad\n\(Self.esc)[2Kcleared\n\(Self.esc)[0m"
        let out = Self.run([(0, input)])
        #expect(out == "[1000] \(Self.esc)[1;31merror:\(Self.esc)[0m bad\n\(Self.esc)[2K[1000] cleared\n\(Self.esc)[0m")
        #expect(out.replacingOccurrences(of: "[1000] ", with: "") == input)
    }

    @Test("dimmed: the prefix is faint and the input's SGR state carries on around it",
          arguments: VirtualTerminal.MarginConvention.allCases)
    func dimmedKeepsRendition(margin: VirtualTerminal.MarginConvention) {
        let input = "\(Self.esc)[1;31merror:\(Self.esc)[0m x\n\(Self.esc)[4;32mgreen\nstill green\(Self.esc)[0m\nplain\n"
        let out = Self.run([(0, input)], dimmed: true)
        var ours = VirtualTerminal(columns: 40, rows: 10, margin: margin, newlineIsCRLF: true)
        ours.feed(out)
        var cat = VirtualTerminal(columns: 40, rows: 10, margin: margin, newlineIsCRLF: true)
        cat.feed(input)
        #expect(ours.text() == cat.text().split(separator: "\n", omittingEmptySubsequences: false)
            .map { "[1000] " + $0 }.joined(separator: "\n"))
        let prefix = 7
        for row in 0..<4 {
            for column in 0..<prefix {
                let cell = ours.cell(row: row, column: column)
                #expect(cell.style.faint && cell.style.fg == .default && !cell.style.bold && cell.style.underline == 0,
                        "row \(row) column \(column): \(cell)")
            }
            // Every cell after the prefix looks exactly as cat leaves it.
            for column in 0..<30 {
                #expect(ours.cell(row: row, column: column + prefix) == cat.cell(row: row, column: column),
                        "row \(row) column \(column)")
            }
        }
        // The terminal ends in the input's state.
        #expect(ours.snapshot().style == cat.snapshot().style)
    }

    @Test("held sequences at the end of input pass through without a prefix")
    func finishFlushes() {
        #expect(Self.run([(0, "a\n\(Self.esc)[0m")]) == "[1000] a\n\(Self.esc)[0m")
        #expect(Self.run([(0, "a\(Self.esc)[3")]) == "[1000] a\(Self.esc)[3")
        #expect(Self.run([(0, "a\n\(Self.esc)]0;t\(Self.esc)")]) == "[1000] a\n\(Self.esc)]0;t\(Self.esc)")
    }

    @Test("FORMAT goes through strftime; ts's %.S adds microseconds; a space follows")
    func format() {
        // 2023-11-14 22:13:20 UTC: the year, minute and second are the same in every time zone.
        let epoch = 1_700_000_000.25
        #expect(LocalTimeFormatter(format: "%S").format(epoch: epoch) == Array("20 ".utf8))
        #expect(LocalTimeFormatter(format: "[%Y %S]").format(epoch: epoch) == Array("[2023 20] ".utf8))
        #expect(LocalTimeFormatter(format: "%.S\t").format(epoch: epoch) == Array("20.250000\t".utf8))
        #expect(LocalTimeFormatter(format: "%s").format(epoch: epoch) == Array("1700000000 ".utf8))
        #expect(LocalTimeFormatter(format: "%.s").format(epoch: epoch) == Array("1700000000.250000 ".utf8))
        #expect(LocalTimeFormatter(format: "100%% %S").format(epoch: epoch) == Array("100% 20 ".utf8))
        // The default format ends in its own space: nothing is added.
        let time = String(decoding: LocalTimeFormatter(format: Options.defaultTimestampFormat).format(epoch: epoch), as: UTF8.self)
        #expect(time.count == 9 && time.hasSuffix(":20 ") && !time.hasSuffix("  "))
    }

    @Test("the pipeline stamps decoded text at its arrival time and passes raw input untouched without it")
    func pipeline() {
        var plain = InputPipeline(format: .raw)
        #expect(plain.isPassthrough)
        var stamped = InputPipeline(format: .raw, timestamps: Self.stage())
        #expect(!stamped.isPassthrough)
        #expect(plain.process(Array("x\n".utf8), at: 3) == Array("x\n".utf8))
        #expect(stamped.process(Array("x\n".utf8), at: 3) + stamped.finish(at: 4) == Array("[1003] x\n".utf8))
        var sse = InputPipeline(format: .sse, timestamps: Self.stage())
        let wire = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\\nthere\"}}]}\n\n"
        let out = sse.process(Array(wire.utf8), at: 2) + sse.finish(at: 3)
        #expect(String(decoding: out, as: UTF8.self) == "[1002] hi\n[1002] there")
    }

    @Test("an LF inside a CSI sequence ends the line (the terminal runs it); one inside an OSC string does not")
    func controlsInsideSequences() {
        let esc = Self.esc
        // The sequence goes out whole, with nothing inserted; the next character starts a new line.
        #expect(Self.run([(0, "a\(esc)[3\n1mb\n")]) == "[1000] a\(esc)[3\n1m[1000] b\n")
        #expect(Self.run([(0, "a\(esc)]0;x\ny\u{7}b\n")]) == "[1000] a\(esc)]0;x\ny\u{7}b\n")
    }

    @Test("the pen replayed after a dim prefix is the model's: DECRC brings the saved colour back")
    func penAfterRestore() {
        let esc = Self.esc
        let out = Self.run([(0, "\(esc)[31m\(esc)7\(esc)[32m\(esc)8a\nb\n")], dimmed: true)
        #expect(out.hasSuffix("\n\(esc)[0;2m[1000] \(esc)[0m\(esc)[0;31mb\n"))
    }
}
