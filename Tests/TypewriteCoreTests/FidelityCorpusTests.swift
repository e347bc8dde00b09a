// The fidelity corpus (issue 3, done-when 1): fixed inputs with fixed chunking, each run through
// FadeRenderer on a fake clock at the widths it names, under both margin conventions (.xterm and
// .tmux), asserting that the settled screen equals cat's: characters, attributes, hyperlinks, soft
// wraps, cursor position and pending wrap, cursor visibility, pen, title, alternate screen, autowrap.
// Cases that must animate also assert that some frame shows a fade colour typewrite chose, so the
// corpus cannot pass by never fading; cases that must not animate assert the opposite.
//
// VT (0x0B) and FF (0x0C) keep the column through a pty (ONLCR maps only NL), in FadeRenderer's
// model and in the VirtualTerminal's (`newlineIsCRLF`); `pyteOnly` cases go to pyte in
// Scripts/check/fidelity.sh.
//
// TYPEWRITE_FIDELITY_DUMP=DIR writes every case's bytes to DIR/corpus-NN-wWIDTH.bin, for the pyte
// cross-check in Scripts/check/fidelity.sh.

import Foundation
import Testing
@testable import TypewriteCore
import TerminalJudge
@testable import TypewriteCLI

struct FidelityCase: Sendable, CustomTestStringConvertible {
    enum Chunking: Sendable {
        /// Split at these byte offsets.
        case cuts([Int])
        /// A chunk every `n` bytes.
        case stride(Int)
        /// Every byte its own read.
        case everyByte
        /// One run per byte position p, the input split in two at p; plus the whole input in one read.
        case everySingleCut
    }
    enum FadeExpectation: Sendable { case required, forbidden, unchecked }

    var name: String
    var bytes: [UInt8]
    var chunking: Chunking
    var widths: [Int]
    var delays: [Seconds] = [0.05]
    var fade: FadeExpectation = .unchecked
    var depth: ColorDepth = .trueColor
    var cps: Double = 80
    var fadeWidth: Double = 10
    /// Why pyte cannot judge this case (docs/terminals.md#pyte-as-a-model-terminal), if so:
    /// Scripts/check/fidelity.sh then counts a pyte mismatch as a known limit, not a failure.
    var pyteLimit: String? = nil

    var testDescription: String { name }

    /// The chunkings this case runs.
    func variants() -> [[RenderHarness.Chunk]] {
        switch chunking {
        case .cuts(let cuts): return [Fidelity.chunks(bytes, cuts: cuts, delays: delays)]
        case .stride(let n): return [Fidelity.chunks(bytes, cuts: Array(Swift.stride(from: n, to: bytes.count, by: n)), delays: delays)]
        case .everyByte: return [Fidelity.chunks(bytes, cuts: Array(1..<max(1, bytes.count)), delays: delays)]
        case .everySingleCut:
            return [Fidelity.chunks(bytes, cuts: [], delays: delays)]
                + (1..<max(1, bytes.count)).map { Fidelity.chunks(bytes, cuts: [$0], delays: delays) }
        }
    }
}

/// Builds the byte strings of the corpus.
private enum B {
    static let e = "\u{1B}"
    static func s(_ string: String) -> [UInt8] { Array(string.utf8) }
    static func r(_ count: Int, _ string: String) -> String { String(repeating: string, count: count) }
    static let prose = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs. "
    static let mixed = "naïve café — “quoted” ’tis … Ωμέγα Жизнь ─│┌┐ 中文 Ａ 😀 ß\n"
}

enum FidelityCorpus {
    static let e = B.e

    static let cases: [FidelityCase] = [
        // MARK: Plain text and wrapping
        FidelityCase(name: "ASCII prose wrapping at 80, 79 and 40 columns",
                     bytes: B.s(B.r(4, B.prose) + "\n" + B.prose + "\n"), chunking: .stride(7), widths: [80, 79, 40], fade: .required),
        FidelityCase(name: "ASCII prose in one read",
                     bytes: B.s(B.r(3, B.prose) + "\n"), chunking: .cuts([]), widths: [80, 20], fade: .required),
        FidelityCase(name: "prose with stalls longer than 1.5 s mid-line",
                     bytes: B.s(B.r(2, B.prose) + "\n"), chunking: .cuts([13, 40, 41, 97, 150]), widths: [80, 40],
                     delays: [0.05, 2.0, 0, 1.7], fade: .required),
        FidelityCase(name: "line of exactly 80 columns at 80, then more",
                     bytes: B.s(B.r(80, "x") + "\nnext line fades in\n"), chunking: .stride(9), widths: [80], fade: .required),
        FidelityCase(name: "line of exactly 79 columns at 79, then more",
                     bytes: B.s(B.r(79, "x") + "\nnext line fades in\n"), chunking: .stride(9), widths: [79], fade: .required),
        FidelityCase(name: "line of width + 1 at 80 and 79",
                     bytes: B.s(B.r(81, "y") + "\n" + B.r(80, "z") + "\nend\n"), chunking: .stride(11), widths: [80, 79]),
        FidelityCase(name: "exactly the width, no newline: pending wrap at the end",
                     bytes: B.s("fading start " + B.r(27, "w")), chunking: .stride(5), widths: [40], fade: .required),
        FidelityCase(name: "exactly the width, then a CR rewrite",
                     bytes: B.s(B.r(40, "z") + "\rABC fades over old text\n"), chunking: .stride(6), widths: [40]),
        FidelityCase(name: "no trailing newline",
                     bytes: B.s("the last line has no newline at all"), chunking: .stride(4), widths: [80, 20], fade: .required),
        FidelityCase(name: "CRLF line ends",
                     bytes: B.s("line one\r\nline two is longer\r\n\r\nline four\r\n"), chunking: .everySingleCut, widths: [80, 20]),

        // MARK: UTF-8 and grapheme clusters split across reads
        FidelityCase(name: "UTF-8 split at every byte position",
                     bytes: B.s(B.mixed), chunking: .everySingleCut, widths: [80, 40], fade: .required),
        FidelityCase(name: "UTF-8 with every byte its own read",
                     bytes: B.s(B.mixed + B.mixed), chunking: .everyByte, widths: [80, 20], delays: [0.01, 0]),
        FidelityCase(name: "ZWJ families split at every byte",
                     bytes: B.s("family: 👨‍👩‍👧‍👦 and coder 👩‍💻 and 🏳️‍🌈 done\n"), chunking: .everySingleCut, widths: [80, 79]),
        FidelityCase(name: "ZWJ ending a cluster (Sinhala, before CJK and ASCII) split at every byte",
                     bytes: B.s("ශ්\u{200D}රී ලංකා a\u{200D}中 x\u{200D}y 中\u{200D}😀 end\n"), chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "flags and a lone regional indicator split at every byte",
                     bytes: B.s("flags 🇺🇸🇩🇪 lone 🇺 then 🇯🇵 end\n"), chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "skin tones split at every byte",
                     bytes: B.s("thumbs 👍🏽 wave 👋🏿 ok\n"), chunking: .everySingleCut, widths: [80]),
        FidelityCase(name: "keycaps split at every byte",
                     bytes: B.s("keys 1️⃣ 2️⃣ #️⃣ *️⃣ done\n"), chunking: .everySingleCut, widths: [80]),
        FidelityCase(name: "VS15 and VS16 split at every byte",
                     bytes: B.s("heart ❤ ❤️ watch ⌚︎ ⌚️ smile ☺︎ ☺️ end\n"), chunking: .everySingleCut, widths: [80, 40]),
        FidelityCase(name: "combining marks split at every byte",
                     bytes: B.s("cafe\u{301} a\u{308}\u{323} x\u{336}y n\u{303} \u{301}lone e\u{301}\u{301}\u{301}\n"),
                     chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "Hangul jamo split at every byte",
                     bytes: B.s("jamo \u{1100}\u{1161}\u{11A8} 한국어 \u{1112}\u{1161}\u{11AB}\u{1100}\u{1173}\u{11AF} end\n"),
                     chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "Devanagari and Thai split at every byte",
                     bytes: B.s("क्षि नमस्ते हिन्दी สวัสดี ครับ\n"), chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "soft hyphen, zero-width space, private use, unassigned, new emoji",
                     bytes: B.s("a\u{AD}b a\u{200B}b \u{E000} \u{378} 🫨 x\u{FE0F} after them text fades\n"),
                     chunking: .everySingleCut, widths: [80, 20]),

        // MARK: Wide characters at the margin
        FidelityCase(name: "wide character at column width−1 of 80",
                     bytes: B.s(B.r(79, "a") + "中文字 next\n"), chunking: .stride(10), widths: [80], fade: .required, pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),
        FidelityCase(name: "wide character at column width−1 of 79",
                     bytes: B.s(B.r(78, "a") + "中文字 next\n"), chunking: .stride(10), widths: [79], fade: .required, pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),
        FidelityCase(name: "wide character exactly filling the last two columns of 80",
                     bytes: B.s(B.r(78, "a") + "中next line\n"), chunking: .stride(10), widths: [80]),
        FidelityCase(name: "CJK lines wrapping at 80, 79 and 40",
                     bytes: B.s(B.r(50, "中文") + "\n" + B.r(3, "漢字かなカナ한글") + "\n"), chunking: .stride(5), widths: [80, 79, 40], pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),
        FidelityCase(name: "wide character at the margin split mid-UTF-8",
                     bytes: B.s(B.r(79, "a") + "中文\n" + B.r(78, "b") + "字x\n"), chunking: .cuts([80, 81, 163, 164]), widths: [80, 79], pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),
        FidelityCase(name: "CHA then wide characters up to the margin",
                     bytes: B.s("\(e)[75G中文字\r\n\(e)[76G中文字\r\n\(e)[79G中\r\n"), chunking: .stride(4), widths: [80], pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),
        FidelityCase(name: "emoji of certain width mid-line",
                     bytes: B.s("hello 😀 world 🎉🚀 ✨ done, and more text after the emoji " + B.r(2, "😀x") + "\n"),
                     chunking: .stride(3), widths: [80, 30], fade: .required, pyteLimit: "pyte draws a wide glyph that does not fit in the last column past the margin instead of wrapping"),

        // MARK: Tabs
        FidelityCase(name: "tabs",
                     bytes: B.s("a\tb\tc\n\tindented line fades\n1234567\t8\n12345678\t9\n"), chunking: .stride(4), widths: [80, 20], fade: .required),
        FidelityCase(name: "tabs over existing text",
                     bytes: B.s("abcdefghijklmnopqrstuvwxyz\r\tX\tY\tZ fading after tabs\n"), chunking: .stride(3), widths: [80, 20]),
        FidelityCase(name: "tabs at the right margin",
                     bytes: B.s(B.r(75, "x") + "\t\tAB\n" + B.r(39, "y") + "\tC\n"), chunking: .stride(8), widths: [80, 40]),

        // MARK: Carriage returns and backspaces
        FidelityCase(name: "CR progress rewrites",
                     bytes: B.s((1...9).map { "\rprogress \($0 * 10)% [\(B.r($0, "#"))\(B.r(10 - $0, "."))]" }.joined() + "\n"),
                     chunking: .stride(25), widths: [80, 20], delays: [0.3]),
        FidelityCase(name: "shorter CR rewrites",
                     bytes: B.s("\rdownloading file number one of many\rshort\rmedium length text\r\n"),
                     chunking: .cuts([36, 42, 61]), widths: [80, 20], delays: [0.4]),
        FidelityCase(name: "CR rewrites with EL",
                     bytes: B.s("\r  1% eta 10s\(e)[K\r 50% eta 5s\(e)[K\r100%\(e)[K\n"), chunking: .cuts([13, 26]), widths: [80], delays: [0.5]),
        FidelityCase(name: "backspace spinner",
                     bytes: B.s("working |\u{8}/\u{8}-\u{8}\\\u{8}|\u{8}done\n"), chunking: .everyByte, widths: [80], delays: [0.1]),
        FidelityCase(name: "overstrike",
                     bytes: B.s("a\u{8}b _\u{8}x b\u{8}bo\u{8}ol\u{8}ld\n abc\u{8}\u{8}\u{8}xyz then fading text\n"), chunking: .stride(3), widths: [80]),
        FidelityCase(name: "backspace at pending wrap and at column 0",
                     bytes: B.s(B.r(40, "x") + "\u{8}\u{8}Y\r\n" + B.r(41, "x") + "\u{8}\u{8}\u{8}Z\n"),
                     chunking: .stride(7), widths: [40]),

        // MARK: Colour
        FidelityCase(name: "gcc diagnostics",
                     bytes: B.s("\(e)[01m\(e)[Ksrc/main.c:\(e)[m\(e)[K In function ‘\(e)[01m\(e)[Kmain\(e)[m\(e)[K’:\n"
                        + "\(e)[01m\(e)[Ksrc/main.c:12:5:\(e)[m\(e)[K \(e)[01;35m\(e)[Kwarning: \(e)[m\(e)[Kunused variable ‘\(e)[01m\(e)[Kx\(e)[m\(e)[K’ "
                        + "[\(e)[01;35m\(e)[K\(e)]8;;https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html\(e)\\-Wunused-variable\(e)]8;;\(e)\\\(e)[m\(e)[K]\n"
                        + "   12 |     int \(e)[01;35m\(e)[Kx\(e)[m\(e)[K;\n      |         \(e)[01;35m\(e)[K^\(e)[m\(e)[K\n"
                        + "\(e)[01m\(e)[Ksrc/main.c:14:3:\(e)[m\(e)[K \(e)[01;31m\(e)[Kerror: \(e)[m\(e)[Kexpected ‘\(e)[01m\(e)[K;\(e)[m\(e)[K’ before ‘\(e)[01m\(e)[K}\(e)[m\(e)[K’ token\n"),
                     chunking: .stride(17), widths: [80, 79, 40], fade: .required),
        FidelityCase(name: "clang diagnostics",
                     bytes: B.s("\(e)[1msrc/a.c:3:10: \(e)[0m\(e)[0;1;31merror: \(e)[0m\(e)[1muse of undeclared identifier 'y'\(e)[0m\n"
                        + "    3 |   return y;\n      |          \(e)[0;1;32m^\n\(e)[0m1 error generated.\n"),
                     chunking: .stride(11), widths: [80, 40], fade: .required),
        FidelityCase(name: "ls --color",
                     bytes: B.s("\(e)[0m\(e)[01;34mbin\(e)[0m  \(e)[01;32mbuild.sh\(e)[0m  \(e)[01;36mlink\(e)[0m  \(e)[40;31;01mbroken\(e)[0m  "
                        + "\(e)[30;42mother-writable\(e)[0m  \(e)[38;5;208marchive.tar\(e)[0m  README.md\n"),
                     chunking: .stride(9), widths: [80, 40], fade: .required),
        FidelityCase(name: "grep --color",
                     bytes: B.s("\(e)[35m\(e)[Kfile.txt\(e)[m\(e)[K\(e)[36m\(e)[K:\(e)[m\(e)[K\(e)[32m\(e)[K12\(e)[m\(e)[K\(e)[36m\(e)[K:\(e)[m\(e)[K"
                        + "line with \(e)[01;31m\(e)[Kmatch\(e)[m\(e)[K in it and more text\n"),
                     chunking: .stride(13), widths: [80, 30], fade: .required),
        FidelityCase(name: "256 colours",
                     bytes: B.s("\(e)[38;5;208morange text\(e)[0m \(e)[38;5;27mblue\(e)[48;5;236m on grey\(e)[0m \(e)[38;5;244mgrey ramp\(e)[m "
                        + "\(e)[38;5;3mlow index\(e)[38;5;15m bright white\(e)[39m default\n"),
                     chunking: .stride(10), widths: [80, 40], fade: .required),
        FidelityCase(name: "24-bit colour and colon forms",
                     bytes: B.s("\(e)[38;2;255;100;0mtrue orange\(e)[0m \(e)[38:2::10:200:30mcolon green\(e)[m \(e)[38:2:200:10:30mno colour space\(e)[m "
                        + "\(e)[38:5:208mcolon 256\(e)[m \(e)[48:2::30:30:30;38;2;250;250;250mon dark\(e)[m \(e)[4:3;58:2::255:0:0mcurly\(e)[4:0;59m end\n"),
                     chunking: .stride(12), widths: [80, 40], fade: .required),
        FidelityCase(name: "bold with colour and every reset form",
                     bytes: B.s("\(e)[1;32mok\(e)[m \(e)[1;33mwarn\(e)[0m \(e)[31;42mboth\(e)[39;49m plain \(e)[1mbold\(e)[22m \(e)[3;4mitalic under\(e)[23;24m "
                        + "\(e)[91mbright\(e)[39m \(e)[1;38;5;196mbold 256\(e)[0m \(e)[;31mempty first\(e)[0;m tail\n"),
                     chunking: .stride(6), widths: [80, 40], fade: .required),
        FidelityCase(name: "reverse video, faint and conceal among normal text",
                     bytes: B.s("\(e)[7mreverse\(e)[27m normal \(e)[2mfaint\(e)[22m normal \(e)[8mhidden\(e)[28m normal \(e)[2;31mfaint red\(e)[0m end of line\n"),
                     chunking: .stride(5), widths: [80, 20], fade: .required),
        FidelityCase(name: "reverse video alone never fades",
                     bytes: B.s("\(e)[7mreverse video text that must not fade in\(e)[0m"), chunking: .stride(5), widths: [80], fade: .forbidden),
        FidelityCase(name: "faint alone never fades",
                     bytes: B.s("\(e)[2mfaint text that must not fade in at all\(e)[0m"), chunking: .stride(5), widths: [80], fade: .forbidden),
        FidelityCase(name: "escape sequences split at every byte",
                     bytes: B.s("\(e)[1;31mred\(e)[0m \(e)]8;;http://x\(e)\\L\(e)]8;;\(e)\\ \(e)[38:2::1:2:3mc\(e)[m\(e)]0;t\u{7}\(e)[2Kok\n"),
                     chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "malformed SGR colour forms keep the colour the terminal keeps",
                     bytes: B.s("\(e)[31mred \(e)[38;5mstill red\(e)[0m \(e)[32mgreen \(e)[38;2;1mstill green\(e)[0m \(e)[33m\(e)[38;5;300myellow\(e)[0m "
                        + "\(e)[34m\(e)[38mblue\(e)[0m \(e)[35m\(e)[38:5mmagenta\(e)[0m \(e)[36m\(e)[48;5mcyan\(e)[0m\n"),
                     chunking: .stride(7), widths: [80]),
        FidelityCase(name: "DECSTR soft reset clears the input's colour",
                     bytes: B.s("\(e)[31mred \(e)[!pafter a soft reset this text is default\r\nand the next line fades in the default colour\n"), chunking: .stride(6), widths: [80]),

        // MARK: Hyperlinks and titles
        FidelityCase(name: "OSC 8 link terminated by BEL",
                     bytes: B.s("see \(e)]8;;https://example.com\u{7}the link text\(e)]8;;\u{7} after the link\n"), chunking: .stride(5), widths: [80, 20], fade: .required),
        FidelityCase(name: "OSC 8 link terminated by ST, with id, wrapping",
                     bytes: B.s("go \(e)]8;id=7;https://example.org/a/long/path\(e)\\" + B.r(3, "linked words ") + "\(e)]8;;\(e)\\ done\n"),
                     chunking: .stride(8), widths: [80, 20]),
        FidelityCase(name: "window titles (OSC 0 and 2)",
                     bytes: B.s("\(e)]0;my title\u{7}text after the title \(e)]2;second title\(e)\\more text\n"), chunking: .stride(6), widths: [80]),

        // MARK: Cursor movement
        FidelityCase(name: "docker-style multi-line redraw",
                     bytes: B.s("#1 [internal] load build definition\n#2 [1/3] FROM alpine\n#3 [2/3] RUN make\n"
                        + "\(e)[3A\(e)[2K\r#1 DONE 0.1s\(e)[K\n\(e)[1B\(e)[2K#3 [2/3] RUN make 1.2s\(e)[K\n"
                        + "\(e)[2A\(e)[1Gupdated line two\(e)[K\(e)[2B\r\n"),
                     chunking: .cuts([75, 150]), widths: [80, 20], delays: [0.3]),
        FidelityCase(name: "npm-style save and restore cursor",
                     bytes: B.s("one\ntwo\nthree\n\(e)7\(e)[2A\(e)[1G⸨####⸩ ⠋ idealTree\(e)[K\(e)8tail text fades\n"),
                     chunking: .stride(9), widths: [80]),
        FidelityCase(name: "save and restore cursor restores the input's colours",
                     bytes: B.s("\(e)[31mred \(e)7\(e)[32mgreen\(e)8 text after the restore is red again\r\nand the next line fades in red too\n"),
                     chunking: .stride(7), widths: [80]),
        FidelityCase(name: "insert and delete lines: xterm moves to column 1, tmux stays",
                     bytes: B.s("first line\nsecond line\n\(e)[Aabc\(e)[L" + B.prose + "\n\(e)[M" + B.prose + "\n"),
                     chunking: .stride(9), widths: [40]),
        FidelityCase(name: "escape sequence with an embedded CR",
                     bytes: B.s("0123456789\(e)\r=" + B.prose + "\n"), chunking: .stride(9), widths: [40]),
        FidelityCase(name: "single shift followed by an escape sequence",
                     bytes: B.s("\(e)N\(e)[31mred text after a single shift\r\nnext line fades " + B.prose + "\n"),
                     chunking: .stride(9), widths: [80]),
        FidelityCase(name: "cursor hidden while streaming",
                     bytes: B.s("\(e)[?25lhidden cursor, text fades " + B.prose + "\(e)[?25h\n"), chunking: .stride(9), widths: [80], fade: .required),
        FidelityCase(name: "scroll region",
                     bytes: B.s("l1\nl2\nl3\n\(e)[2;4r\(e)[4;1Hin the region " + B.prose + "\n\n\n\(e)[r\(e)[24;1Hdone\n"),
                     chunking: .stride(11), widths: [80, 40], fade: .required),
        FidelityCase(name: "clear screen and home",
                     bytes: B.s("junk\n\(e)[2J\(e)[Hcleared, then text " + B.prose + "\n"), chunking: .stride(11), widths: [80], fade: .required),
        FidelityCase(name: "repeat last character (REP)",
                     bytes: B.s("a\(e)[5b then \(e)[3b text\n"), chunking: .stride(3), widths: [80]),

        // MARK: Hostile bytes
        FidelityCase(name: "invalid UTF-8",
                     bytes: [0xFF, 0xFE] + B.s("a") + [0xC3] + B.s("b") + [0xE2, 0x82] + B.s("c") + [0xED, 0xA0, 0x80] + B.s("d")
                        + [0xF4, 0x90, 0x80, 0x80] + B.s("e") + [0xC0, 0xAF] + B.s("f") + [0xF0, 0x9F, 0x98] + B.s(" g") + [0xE4, 0xB8]
                        + B.s("中\n" + B.prose + "\n"),
                     chunking: .everySingleCut, widths: [80, 40]),
        FidelityCase(name: "NUL, C0 controls, DEL and binary bytes",
                     bytes: [0x00, 0x01, 0x02, 0x07, 0x7F, 0x1C, 0x1F] + B.s("text") + [0x80, 0x9B, 0x9C, 0x90] + B.s(" more ")
                        + [0x00, 0x00] + B.s("nul") + [0x07] + B.s("bel\n") + B.s(B.prose) + [0x00] + B.s("\n"),
                     chunking: .stride(5), widths: [80], pyteLimit: "pyte drops printable text after a C0 control it does not know (0x01, 0x02, 0x1C, 0x1F) up to the next ESC"),
        FidelityCase(name: "C1 controls written in UTF-8",
                     bytes: B.s("x\u{9B}31m y\u{85}z\u{90}dcs\u{9C} after \n" + B.prose + "\n"), chunking: .stride(6), widths: [80], pyteLimit: "pyte drops printable text after a C1 control up to the next ESC"),
        FidelityCase(name: "unterminated sequences and UTF-8 at end of input",
                     bytes: B.s("text then an open link \(e)]8;;http://x") + [0x0A] + B.s("abc") + [0xE2, 0x82],
                     chunking: .stride(7), widths: [80]),
        FidelityCase(name: "unterminated CSI at end of input",
                     bytes: B.s("fading text then \(e)[3"), chunking: .stride(7), widths: [80]),
        FidelityCase(name: "a cut UTF-8 character at end of input right after fading text",
                     bytes: B.s("x") + [0xCD], chunking: .cuts([]), widths: [80]),
        FidelityCase(name: "SGR with an embedded CR still sets the pen",
                     bytes: B.s("abc\(e)[31;\r1mred bold text\r\nthe next line fades in red bold too " + B.prose + "\n"), chunking: .stride(9), widths: [80]),
        FidelityCase(name: "runaway OSC longer than the holding cap",
                     bytes: B.s("before \(e)]0;" + B.r(70_000, "x") + "\u{7} after the runaway\r\n" + B.prose + "\n"),
                     chunking: .stride(4096), widths: [80]),

        // MARK: Modes
        FidelityCase(name: "alternate screen",
                     bytes: B.s("main text\n\(e)[?1049h\(e)[H\(e)[2Jfull-screen text that should not fade\(e)[5;5Hmore\(e)[?1049lback on main, fades\n"),
                     chunking: .stride(9), widths: [80]),
        FidelityCase(name: "alternate screen with its own colours",
                     bytes: B.s("\(e)[31mred \(e)[?1049h\(e)[32mgreen on alt\(e)[?1049l\rafter leaving, red again " + B.prose + "\n"),
                     chunking: .stride(9), widths: [80], pyteLimit: "pyte has no alternate screen: ?1049 neither switches nor saves and restores the pen"),
        FidelityCase(name: "autowrap off, then on again after CR LF",
                     bytes: B.s("\(e)[?7l" + B.r(100, "n") + "\r\n" + B.r(30, "w") + B.r(10, "中文") + "\(e)[?7h\r\nwrap on again " + B.prose + "\n"),
                     chunking: .stride(13), widths: [40]),
        FidelityCase(name: "autowrap off, then on again mid-line",
                     bytes: B.s("\(e)[?7l" + B.r(60, "m") + "\(e)[?7h" + B.prose + "\n"), chunking: .stride(13), widths: [40]),
        FidelityCase(name: "DEC line drawing",
                     bytes: B.s("\(e)(0lqqqqk\r\nx    x\r\nmqqqqj\(e)(B normal text fades again\n"), chunking: .stride(4), widths: [80]),
        FidelityCase(name: "SO and SI",
                     bytes: B.s("\(e))0\u{E}lqqk\u{F} plain \u{E}abc\u{F} back to ASCII text\n"), chunking: .stride(4), widths: [80]),
        FidelityCase(name: "ambiguous-width text is narrow and fades",
                     bytes: B.s("— ’ “quoted” … é ü ß Ωμέγα λόγος Жизнь прекрасна ─│┌┐└┘ ░▒▓ " + B.r(2, "—…") + "\n"),
                     chunking: .stride(5), widths: [80, 20], fade: .required),

        // MARK: Colour depths and pacing settings
        FidelityCase(name: "256-colour fade", bytes: B.s(B.r(2, B.prose) + "\(e)[33myellow " + B.prose + "\n"),
                     chunking: .stride(7), widths: [80, 40], fade: .required, depth: .palette256),
        FidelityCase(name: "16-colour fade", bytes: B.s(B.r(2, B.prose) + "\(e)[33myellow " + B.prose + "\n"),
                     chunking: .stride(7), widths: [80, 40], fade: .required, depth: .basic16),
        FidelityCase(name: "colour depth none writes no fade", bytes: B.s(B.r(2, B.prose) + "\n"),
                     chunking: .stride(7), widths: [80], fade: .forbidden, depth: .none),
        FidelityCase(name: "hard front (fade 0)", bytes: B.s(B.r(2, B.prose) + "\n"),
                     chunking: .stride(7), widths: [80], fade: .forbidden, fadeWidth: 0),
        FidelityCase(name: "more than 4096 distinct colours (lolcat)",
                     bytes: B.s((0..<5000).map { i in "\(e)[38;2;\(i % 256);\((i / 256) * 13 % 256);\(255 - i % 256)m\(i % 70 == 69 ? "\n" : "x")" }.joined() + "\(e)[0m\n"),
                     chunking: .stride(997), widths: [80]),
        FidelityCase(name: "saved pens: ESC CR 8, ?1048, CSI s and u with parameters, DECSTR before DECRC",
                     bytes: B.s("red \(e)[31m\(e)7\(e)[0mplain \(e)\r8words fade in after it\n"
                                + "\(e)[1;31m\(e)[?1048h\(e)[0mplain \(e)[?1048l\rwords fade in after it\n"
                                + "\(e)[0m\(e)[32m\(e)[1s\(e)[0mplain \(e)[5u\rwords fade in after it\(e)[0m\n"
                                + "\(e)[33m\(e)7\(e)[!p\(e)8\rwords fade in after it\(e)[0m\n"
                                + "\(e)[38;5;m\(e)\r8\n] and a reset \(e)[0mfades again\n"),
                     chunking: .stride(9), widths: [80, 40], fade: .required),
        FidelityCase(name: "fast typing, wide fade", bytes: B.s(B.r(3, B.prose) + "\n" + B.mixed),
                     chunking: .stride(31), widths: [80, 33], fade: .required, cps: 1000, fadeWidth: 40),
        // MARK: Where terminals disagree (write as it came, insert nothing)
        FidelityCase(name: "a ZWJ cluster before a raw byte, an SGR or a BEL, then a cluster, split at every byte",
                     bytes: B.s("words fade in ") + [0xF0, 0x9F, 0x91, 0xA8, 0xE2, 0x80, 0x8D, 0x8D, 0xF0, 0x9F, 0x91, 0xA9] + B.s(" and more words\n")
                        + [0xF0, 0x9F, 0x91, 0xA8, 0xE2, 0x80, 0x8D] + B.s("\(e)[31m") + [0xF0, 0x9F, 0x91, 0xA9] + B.s(" red words fade in\(e)[0m\n")
                        + B.s("x \u{4E2D}\u{200D}\u{7}\u{6587}\r\u{1F469}\u{200D}\(e)[1K\u{1F4BB} end\n"),
                     chunking: .everySingleCut, widths: [80, 20], pyteLimit: "pyte draws no ZWJ join and misplaces invalid UTF-8"),
        FidelityCase(name: "a cluster after a ZWJ and a line feed in the same read has no certain width (fuzz finding)",
                     bytes: B.s("xx👨\u{200D}\(e)[31\u{15}\u{0}m\n\u{1F568}xdaily swings of any habitat on Earth\n"
                                + "ab中\u{200D}\r\u{1F4BB}words fade in after it " + B.prose + "\n"),
                     chunking: .everySingleCut, widths: [10, 80], depth: .basic16),
        FidelityCase(name: "Sinhala cluster continued in a later read (\"in ශ්‍ර\" | \"ී lanka\")",
                     bytes: B.s("in ශ්\u{200D}ර" + "ී lanka" + "\n"), chunking: .cuts([15, 24]), widths: [80, 40], delays: [0.02]),
        FidelityCase(name: "Sinhala and other continued clusters split at every byte",
                     bytes: B.s("in ශ්\u{200D}රී lanka, ශ්\u{200D}රී, e\u{301}\u{302} and 中\u{200D}中\u{308} words fade\n"),
                     chunking: .everySingleCut, widths: [80, 20]),
        FidelityCase(name: "malformed colon and semicolon colours leave the pen as terminals leave it",
                     bytes: B.s("words fade \(e)[38:2::2002:::mc\n")
                        + B.s(["38:2::1::3", "38:2::1:2:3::", "38:2::1:2:3:", "38:5:", "38;5;", "38;5", "38;2;1;;3", "38;2;1;2", "38:2:1:2:3",
                               "38;2;300;1;1", "38:5:300", "1:2", "38:2::1:2:3", "4:7", "38;6;1", "38::2:1:2:3", "48:2::1:2", "58:5:1",
                               "38;2;300;0;1;31"]
                              .map { "\(e)[31m\(e)[\($0)mX\(e)[0m words fade in\r\n" }.joined()),
                     chunking: .stride(11), widths: [80]),
        FidelityCase(name: "the malformed colour of the report, unsplit and split at every byte",
                     bytes: B.s("\(e)[38:2::2002:::mc\n"), chunking: .everySingleCut, widths: [80]),
        FidelityCase(name: "C0 inside CSI and after ESC is executed and the sequence goes on",
                     bytes: B.s("\(e)[?7\u{0}l\r" + B.r(85, "P") + "\n" + "\(e)\u{0}[?7l\(e)[80Ged\n" + "\(e)[?7h\r\nwords fade "
                                + "ab\(e)[3\rD| \(e)[\u{8}2D| abcdef\(e)\r[3D| \(e)[\u{0}?7l" + B.r(90, "q") + "\(e)[?7h\r\n" + B.prose + "\n"),
                     chunking: .everySingleCut, widths: [80]),
        FidelityCase(name: "C0 inside CSI, the inputs of the report",
                     bytes: B.s("\(e)[?7\u{0}l\r" + B.r(85, "P") + "\n" + "\(e)\u{0}[?7l\(e)[80Ged\n"), chunking: .cuts([]), widths: [80]),
        FidelityCase(name: "VT and FF keep the column",
                     bytes: B.s("abc\u{0B}def fades\u{0C}ghi " + B.prose + "\n" + B.r(38, "v") + "\u{0B}w\u{0C}x\n"),
                     chunking: .stride(7), widths: [80, 40]),
        FidelityCase(name: "CAN and SUB: the column is unknown until CR or LF",
                     bytes: B.s("words fade in\u{18} and \u{1A} more words " + B.prose + "\r\nnext line fades\n"),
                     chunking: .stride(6), widths: [80], fade: .required),
        FidelityCase(name: "CHA while autowrap is off, then autowrap on before the next line (fuzz finding)",
                     bytes: B.s("\(e)[?7l\(e)[40Ged\n\(e)[?7hsmall pool can warm by ten degrees or more in a few hours\n"
                                + "\(e)\u{0}[?7l\(e)[80Ged\n\(e)[?7h" + B.prose + "\r\n\(e)[?7l\(e)[2;5H" + B.r(50, "w") + "\(e)[?7h\n" + B.prose + "\n"),
                     chunking: .stride(5), widths: [40, 80]),
        FidelityCase(name: "DEL: the column is unknown until CR or LF",
                     bytes: B.s("words fade in\u{7F} then more words after DEL" + B.r(40, "x") + "\r\nthe next line fades in again \u{7F}\u{7F}x\n"),
                     chunking: .stride(5), widths: [80, 40], fade: .required),
        FidelityCase(name: "IL above the scroll region leaves the cursor where it was (fuzz finding, minimised)",
                     bytes: [0x00, 0x75] + B.s("\(e)[3\nrd\(e)[LI"), chunking: .cuts([2, 6, 8]), widths: [2, 10],
                     delays: [0.02, 0.02, 0.001, 0.001], depth: .basic16, cps: 20, fadeWidth: 40),
        FidelityCase(name: "IL inside the scroll region mid-line, then text that wraps",
                     bytes: B.s("words \(e)[5;9r\(e)[6Habcdefghijklmnopqrst\(e)[Lfades in after the insert line and wraps at the margin of the screen\r\n"),
                     chunking: .cuts([40]), widths: [40], delays: [0.02]),
        FidelityCase(name: "IL and DL: the column is known after them only at column 0",
                     bytes: B.s("u\n\(e)[3rrd\(e)[LI fades\(e)[Mx\r\n\(e)[rabc\(e)[Lxyz\(e)[Mdef more words\r\n"
                                + "\(e)[5;9r\(e)[6Habc\(e)[L\(e)[2Lfg\(e)[Mhij\r\n" + B.r(9, "w") + "\(e)[Lk\r\(e)[Lline fades in after IL\r\n"
                                + "\(e)[r" + B.prose + "\n"),
                     chunking: .stride(5), widths: [2, 10, 80], fade: .required),
        FidelityCase(name: "a byte of 0x80 or more inside CSI, then RIS: text fades again",
                     bytes: B.s("words fade in \(e)[31") + [0xCB] + B.s("mX more words\r\n\(e)c" + B.prose + "\n"),
                     chunking: .stride(7), widths: [80], fade: .required),
        FidelityCase(name: "a byte of 0x80 or more inside CSI, split at every byte",
                     bytes: B.s("ab \(e)[3") + [0xCB] + B.s("1mX\r\nc \(e)[?7") + [0xC3, 0xAC] + B.s("\u{0}l" + B.r(12, "q") + "\r\n\(e)cfades\n"),
                     chunking: .everySingleCut, widths: [10]),
        FidelityCase(name: "24-bit input pens in 256 colours: written as they came, not faded",
                     bytes: B.s("plain words fade \(e)[38;2;255;100;0morange words\(e)[0m plain again \(e)[48;2;10;20;30mon dark\(e)[1m bold\(e)[0m "
                                + "\(e)[38:2::1:200:3mcolon green\(e)[m \(e)[58:2::255:0:0;4munderline colour\(e)[0m \(e)[38;5;208m256 fades\(e)[0m\n"
                                + B.prose + "\(e)[38;2;1;2;3m" + B.prose + "\(e)[38;2;200;0;0m" + B.prose + "\(e)[0m\n"),
                     chunking: .stride(9), widths: [80, 40], fade: .required, depth: .palette256),
        FidelityCase(name: "24-bit input pens in 16 colours",
                     bytes: B.s("plain words fade \(e)[38;2;255;100;0morange words\(e)[0m plain again \(e)[48;2;10;20;30mon dark\(e)[0m end\n"),
                     chunking: .stride(9), widths: [80], fade: .required, depth: .basic16),
        // MARK: Where real emulators read the same bytes differently (xcheck.py, docs/emulators.md)
        FidelityCase(name: "colon-form underline style (xterm draws no text after CSI 4:3 m)",
                     bytes: B.s("curly \(e)[4:3mcurly\(e)[4:0m end\nstill unknown here\n\(e)[0mknown again " + B.prose + "\n"),
                     chunking: .stride(5), widths: [80, 40]),
        FidelityCase(name: "C1 control written in UTF-8 (kitty acts on U+009B as CSI)",
                     bytes: B.s("x\u{9B}31m y\nThe quick brown fox jumps over the lazy dog\n\(e)[0mreset " + B.prose + "\n"),
                     chunking: .stride(4), widths: [80], pyteLimit: "pyte drops or acts on C1 controls"),
        FidelityCase(name: "SGR with an embedded CR after a repaint (kitty skips it inside a synchronized update)",
                     bytes: B.s("abc" + B.prose + "\r\nabc \(e)[31;\r1mred bold text\(e)[0m\r\n"),
                     chunking: .cuts([3, 40, 90, 94]), widths: [80]),
        FidelityCase(name: "underline colour (xterm has none: it draws no text after CSI 58:2::255:0:0 m)",
                     bytes: B.s("plain \(e)[58:2::255:0:0;4munderline colour\(e)[24m after\n" + B.prose + "\n\(e)[0mreset " + B.prose + "\n"),
                     chunking: .stride(6), widths: [80]),
        FidelityCase(name: "a C0 control other than a format effector inside CSI (kitty ends the sequence there)",
                     bytes: B.s("xx \(e)[31\u{15}\u{0}m words\n" + B.prose + "\n\(e)[0mreset " + B.prose + "\n"),
                     chunking: .stride(6), widths: [80, 10]),
    ] + highBytesInSequences

    /// A byte of 0x80 or more inside ESC or CSI, where tmux and xterm part ways: each sequence is
    /// followed by lines that would fade (and wrap at 10 columns) if typewrite trusted the column or
    /// the pen after it.
    static let highBytesInSequences: [FidelityCase] = [
        B.s("\(e)[31") + [0xCB] + B.s("m"), B.s("\(e)[?7") + [0xCB] + B.s("l"), B.s("\(e)") + [0xCB] + B.s("[31m"),
        B.s("\(e)[2;5") + [0xC3, 0x88], B.s("\(e)[3") + [0xE4, 0xB8, 0xAD] + B.s("1m"), B.s("\(e)[") + [0xC2, 0xA0] + B.s(";5H"),
        B.s("\(e)(") + [0xCB] + B.s("0"), B.s("\(e)[$") + [0x80, 0xFF] + B.s("1m"),
        B.s("\(e)[?10\u{0}$\u{0}") + [0xCB, 0xCB] + B.s("49l ba\r\n\(e)[L"),
    ].map { sequence in
        FidelityCase(name: "a byte of 0x80 or more inside ESC or CSI, written as it came: \(Fidelity.literal(sequence))",
                     bytes: B.s("words fade in ") + sequence + B.s("X more words\r\n" + B.prose + "\r\n" + B.r(45, "P") + "\r\n"),
                     chunking: .stride(7), widths: [80, 10])
    }

    /// Cases the VirtualTerminal cannot judge, checked only in pyte by Scripts/check/fidelity.sh (dumped as
    /// corpus-pyte-NN-wW.bin): insert mode (VirtualTerminal has no IRM).
    static let pyteOnly: [FidelityCase] = [
        FidelityCase(name: "insert mode (IRM) while text fades",
                     bytes: B.s("\(e)[4hline one\r\nline two fades while insert mode is on " + B.prose + "\r\n\(e)[4lafter\n"),
                     chunking: .stride(7), widths: [80]),
    ]

    static func dumpIfAsked() {
        guard let dir = Fidelity.environmentString("TYPEWRITE_FIDELITY_DUMP") else { return }
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (i, c) in cases.enumerated() {
            for w in c.widths {
                let path = "\(dir)/corpus-\(String(format: "%02d", i))-w\(w).bin"
                _ = FileManager.default.createFile(atPath: path, contents: Data(c.bytes))
                _ = FileManager.default.createFile(atPath: path + ".name", contents: Data(c.name.utf8))
                if let why = c.pyteLimit { _ = FileManager.default.createFile(atPath: path + ".limit", contents: Data(why.utf8)) }
            }
        }
        for (i, c) in pyteOnly.enumerated() {
            for w in c.widths {
                let path = "\(dir)/corpus-pyte-\(String(format: "%02d", i))-w\(w).bin"
                _ = FileManager.default.createFile(atPath: path, contents: Data(c.bytes))
            }
        }
    }
}

@Suite("Fidelity corpus")
struct FidelityCorpusTests {
    @Test("the corpus has at least 40 cases with distinct names")
    func corpusSize() {
        #expect(FidelityCorpus.cases.count >= 40)
        #expect(Set(FidelityCorpus.cases.map(\.name)).count == FidelityCorpus.cases.count)
        FidelityCorpus.dumpIfAsked()
    }

    @Test("the settled screen equals cat's under both margin conventions", arguments: FidelityCorpus.cases)
    func settledScreenEqualsCat(_ c: FidelityCase) { Self.check(c) }

    static func check(_ c: FidelityCase) {
        for width in c.widths {
            let driver = FidelityDriver(columns: width, depth: c.depth, cps: c.cps, fade: c.fadeWidth)
            var fadedVariants = 0
            var failures = 0
            let variants = c.variants()
            for chunks in variants {
                let outcome = driver.run(chunks)
                #expect(outcome.finished, "\(c.name) at \(width): the renderer did not finish within 60 s of the last input")
                let input = chunks.flatMap(\.bytes)
                if Fidelity.showsFade(output: outcome.output, input: input, depth: c.depth) { fadedVariants += 1 }
                for margin in VirtualTerminal.MarginConvention.allCases {
                    let screens = Fidelity.screens(frames: outcome.frames.map(\.bytes), chunks: chunks, columns: width, margin: margin)
                    if screens.typewrite != screens.cat {
                        failures += 1
                        if failures <= 3 {
                            Issue.record("""
                                \(c.name): width \(width), \(margin) margin, depth \(c.depth), cps \(c.cps), fade \(c.fadeWidth)
                                chunks:
                                \(Fidelity.describe(chunks))
                                \(screens.explanation)
                                """)
                        }
                    }
                }
            }
            if failures > 3 {
                Issue.record("\(c.name): width \(width): \(failures) failing runs in all (of \(variants.count * 2))")
            }
            switch c.fade {
            case .required:
                #expect(fadedVariants > 0, "\(c.name) at \(width): no frame shows a fade colour of typewrite's own")
            case .forbidden:
                #expect(fadedVariants == 0, "\(c.name) at \(width): \(fadedVariants) runs show a fade colour")
            case .unchecked:
                break
            }
        }
    }

    @Test("after DEL nothing is repainted until CR or LF (urxvt draws DEL, xterm ignores it)")
    func nothingMovesBackAfterDEL() throws {
        let c = try #require(FidelityCorpus.cases.first { $0.name.hasPrefix("DEL:") })
        for width in c.widths {
            for chunks in c.variants() {
                let out = FidelityDriver(columns: width, depth: c.depth).run(chunks).output
                var afterDEL = false
                for (i, byte) in out.enumerated() {
                    if byte == 0x7F { afterDEL = true } else if byte == 0x0D || byte == 0x0A { afterDEL = false }
                    guard afterDEL, byte == 0x1B, i + 1 < out.count, out[i + 1] == 0x5B else { continue }
                    var j = i + 2
                    while j < out.count, (0x30...0x3F).contains(out[j]) { j += 1 }
                    if j < out.count, out[j] == 0x44 || out[j] == 0x47 {
                        Issue.record("width \(width): a cursor move back after DEL at output byte \(i)")
                    }
                }
            }
        }
    }

    @Test("after an SGR or a control terminals read differently, the bytes go out as they came until an SGR reset",
          arguments: [("colon-form underline style", "\u{1B}[4:3m"), ("C1 control written in UTF-8", "\u{9B}"),
                      ("underline colour", "\u{1B}[58:2::255:0:0;4m"), ("a C0 control other than", "\u{1B}[31\u{15}\u{0}m")])
    func writtenAsTheyCameUntilReset(prefix: String, triggerText: String) throws {
        let c = try #require(FidelityCorpus.cases.first { $0.name.hasPrefix(prefix) })
        let trigger = Array(triggerText.utf8)
        let reset = Array("\u{1B}[0m".utf8)
        let inStart = try #require(Self.find(trigger, in: c.bytes))
        let inEnd = try #require(Self.find(reset, in: c.bytes))
        for chunks in c.variants() {
            let out = FidelityDriver(columns: 80, depth: c.depth).run(chunks).output
            let outStart = try #require(Self.find(trigger, in: out))
            // Everything from the trigger to the reset is the input's own bytes, nothing inserted.
            #expect(Array(out[outStart..<(outStart + inEnd - inStart)]) == Array(c.bytes[inStart..<inEnd]))
        }
    }

    @Test("a sequence with a C0 control inside is never written inside a synchronized update")
    func embeddedControlOutsideSynchronizedUpdate() throws {
        let c = try #require(FidelityCorpus.cases.first { $0.name.hasPrefix("SGR with an embedded CR after a repaint") })
        let sequence = Array("\u{1B}[31;\r1m".utf8)
        let begin = Array("\u{1B}[?2026h".utf8), end = Array("\u{1B}[?2026l".utf8)
        let out = FidelityDriver(columns: 80, depth: c.depth).run(c.variants()[0]).output
        let at = try #require(Self.find(sequence, in: out))
        let lastBegin = Self.findLast(begin, in: Array(out[..<at]))
        let lastEnd = Self.findLast(end, in: Array(out[..<at]))
        #expect(lastBegin == nil || (lastEnd ?? -1) > lastBegin!)
        #expect(out.contains(begin[0]))  // the case does repaint
    }

    static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    static func findLast(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0...(haystack.count - needle.count)).last { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The SGR sequences in `bytes` that select a 24-bit colour, whole, in order.
    static func trueColorSGRs(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var i = 0
        while i + 1 < bytes.count {
            guard bytes[i] == 0x1B, bytes[i + 1] == 0x5B else { i += 1; continue }
            var j = i + 2
            while j < bytes.count, (0x30...0x3F).contains(bytes[j]) { j += 1 }
            if j < bytes.count, bytes[j] == 0x6D {
                let text = String(decoding: bytes[(i + 2)..<j], as: UTF8.self)
                if ["38;2;", "48;2;", "58;2;", "38:2:", "48:2:", "58:2:"].contains(where: text.contains) {
                    result.append(Array(bytes[i...j]))
                }
            }
            i = j
        }
        return result
    }

    @Test("24-bit input pens are written once each, as they came and in order, below 24-bit mode")
    func trueColorPensAsTheyCame() {
        for c in FidelityCorpus.cases where c.name.hasPrefix("24-bit input pens") {
            for width in c.widths {
                for chunks in c.variants() {
                    let input = chunks.flatMap(\.bytes)
                    let out = FidelityDriver(columns: width, depth: c.depth).run(chunks).output
                    #expect(Self.trueColorSGRs(out) == Self.trueColorSGRs(input), "\(c.name) at \(width)")
                }
            }
        }
    }

    @Test("the session schedules the renderer's frames unchanged: the same bytes at the same times as a bare frame loop")
    func sessionAddsNothing() {
        let text = B.s(B.r(2, B.prose) + "\n\u{1B}[31mred\u{1B}[0m 中文 e\u{301}\n")
        let chunks = Fidelity.chunks(text, cuts: [5, 50, 51, 120], delays: [0.05, 2.0, 0])
        let driver = FidelityDriver(columns: 40)
        // An independent loop straight over FadeRenderer: a frame every 1/60 s while animating,
        // the first at the arrival that starts it.
        var renderer = FadeRenderer(configuration: driver.configuration)
        var bare: [(time: Seconds, bytes: [UInt8])] = []
        var time: Seconds = 0, next: Seconds?
        func frames(until limit: Seconds) {
            while let due = next, due <= limit {
                var out: [UInt8] = []
                renderer.frame(at: due, into: &out)
                if !out.isEmpty { bare.append((due, out)) }
                next = renderer.isAnimating ? due + 1.0 / 60 : nil
            }
        }
        for chunk in chunks {
            frames(until: time + chunk.delay)
            time += chunk.delay
            renderer.receive(chunk.bytes, at: time)
            if next == nil && renderer.isAnimating { next = time }
        }
        renderer.endInput(at: time)
        if next == nil && renderer.isAnimating { next = time }
        frames(until: time + 60)
        let session = driver.run(chunks).frames
        #expect(!bare.isEmpty)
        #expect(session.map(\.time) == bare.map(\.time))
        #expect(session.map(\.bytes) == bare.map(\.bytes))
    }
}
