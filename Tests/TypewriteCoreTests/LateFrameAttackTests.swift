import Foundation
import Testing
@testable import TypewriteCore

/// More attacks on the late-frame repair (`FadeRenderer.mendLateFrames`, `mendLineEnd`), with the
/// harness of `LateFrameBreakTests`: texts with paragraph breaks, code with blank lines, CR LF,
/// lines that end exactly at a margin, backspaces and `CSI D` in the input, SGR across line
/// feeds, markdown; two and three resizes before the report; few rows; text in several chunks.
extension LateFrameBreakTests {
    /// Pieces a text is made of, each a line's worth or part of one.
    static func attackPiece(_ g: inout SplitMix64, margins: [Int], backspaces: Bool) -> String {
        func words(_ n: Int) -> String {
            (0..<n).map { _ in vocabulary.randomElement(using: &g)! }.joined(separator: " ")
        }
        /// A line of exactly `cells` cells (no trailing space).
        func exact(_ cells: Int) -> String {
            var line = words(cells / 4 + 1)
            if line.count > cells { line = String(line.prefix(cells)) }
            while line.count < cells { line += String("xyz".randomElement(using: &g)!) }
            if line.last == " " { line.removeLast(); line += "q" }
            return line
        }
        var kind = Int.random(in: 0..<14, using: &g)
        if !backspaces && (kind == 4 || kind == 5) { kind = 13 }
        switch kind {
        case 0: return words(Int.random(in: 1...12, using: &g)) + "\n\n"  // a paragraph break
        case 1: return "```\n" + words(3) + "\n\n" + "    " + words(2) + "\n\n\n" + words(1) + "\n```\n"  // code with blank lines
        case 2: return words(Int.random(in: 1...10, using: &g)) + "\r\n"
        case 3:
            // A line that ends exactly at a margin (or at two rows' end of one).
            let margin = margins.randomElement(using: &g)!
            return exact(margin * Int.random(in: 1...2, using: &g)) + (Bool.random(using: &g) ? "\n" : "\r\n")
        case 4: return words(Int.random(in: 1...4, using: &g)) + "\u{8}\u{8}" + words(1) + " "
        case 5: return words(Int.random(in: 1...4, using: &g)) + "\u{1B}[3D" + words(1) + " "
        case 6: return "\u{1B}[31m" + words(Int.random(in: 2...8, using: &g)) + "\n" + words(3) + "\u{1B}[0m "
        case 7: return "\u{1B}[1;38;5;208m" + words(Int.random(in: 2...20, using: &g)) + "\n\n" + words(2) + "\u{1B}[22;39m\n"
        case 8: return "**" + words(Int.random(in: 2...6, using: &g)) + "\n" + words(2) + "** "
        case 9: return "# " + words(Int.random(in: 1...5, using: &g)) + "\n"
        case 10: return "- " + words(Int.random(in: 2...14, using: &g)) + "\n- " + words(2) + "\n\n"
        case 11: return words(Int.random(in: 8...30, using: &g)) + "\n"
        default: return words(Int.random(in: 1...8, using: &g)) + " "
        }
    }

    static func attackCase(_ g: inout SplitMix64, backspaces: Bool) -> Case {
        let from = [80, 60, 40, 100, 30, 20, 132].randomElement(using: &g)!
        var widths: [Int] = []
        for _ in 0..<[1, 1, 2, 2, 3].randomElement(using: &g)! {
            widths.append(Int.random(in: 0..<5, using: &g) == 0 ? Int.random(in: 2...12, using: &g) : Int.random(in: 13...140, using: &g))
        }
        var text = ""
        for _ in 0..<Int.random(in: 3...14, using: &g) { text += attackPiece(&g, margins: [from] + widths, backspaces: backspaces) }
        text += "\n"
        while text.contains(" \n") { text = text.replacingOccurrences(of: " \n", with: "\n") }
        while text.contains(" \r\n") { text = text.replacingOccurrences(of: " \r\n", with: "\r\n") }
        let duration = Double(text.count) / 80 + 0.5
        var chunks: [(at: Seconds, text: String)] = []
        let characters = Array(text)
        var cuts = (0..<Int.random(in: 0...3, using: &g)).map { _ in Int.random(in: 1..<characters.count, using: &g) }
        cuts = Array(Set(cuts)).sorted()
        var start = 0, time = 0.0
        for cut in cuts + [characters.count] where cut > start {
            chunks.append((time, String(characters[start..<cut])))
            start = cut
            time += Double.random(in: 0.05...1.0, using: &g)
        }
        return Case(chunks: chunks, from: from, widths: widths, at: Double.random(in: 0.05...duration, using: &g),
                    inFlight: Int.random(in: 1...3, using: &g), markdown: Int.random(in: 0..<4, using: &g) == 0,
                    rows: [24, 24, 6, 3].randomElement(using: &g)!)
    }

    @Test("randomized attack (reports counts, asserts nothing): paragraphs, CR LF, exact margins, BS, SGR, markdown, several resizes")
    func randomizedAttack() {
        var g = SplitMix64(seed: 12)
        var counts: [String: Int] = [:]
        var shown: [String: Int] = [:]
        // The first cases of each kind, with their differences from cat's screen, only when asked
        // (LATE_FRAME_ATTACK_LIST): in a plain `swift test` they read like failures, and are none.
        let lists = ProcessInfo.processInfo.environment["LATE_FRAME_ATTACK_LIST"] != nil
        func note(_ kind: String, _ detail: @autoclosure () -> String) {
            counts[kind, default: 0] += 1
            if lists && shown[kind, default: 0] < 4 { print("[\(kind)] \(detail())"); shown[kind, default: 0] += 1 }
        }
        let total = Int(ProcessInfo.processInfo.environment["LATE_FRAME_ATTACK_CASES"] ?? "") ?? 150
        for index in 0..<total {
            // Every other case without BS or `CSI D` in the input (a line with them is not laid
            // out again: `RowRecord.movedBack`).
            let backspaces = index % 2 == 0
            let c = Self.attackCase(&g, backspaces: backspaces)
            let styles = !c.markdown
            var inTime = c
            inTime.inFlight = 0
            let named = Self.failures(inTime, styles: styles)
            var unnamed = inTime
            unnamed.kitty = false
            let unnamedFailures = Self.failures(unnamed, styles: styles)
            if !named.isEmpty && unnamedFailures.isEmpty { note("harm: kitty named, no frame late", named.joined(separator: "\n")) }
            if !unnamedFailures.isEmpty { counts["unnamed, no frame late, not cat", default: 0] += 1 }
            let late = Self.failures(c, styles: styles)
            if !late.isEmpty && named.isEmpty {
                note("late: not cat", late.joined(separator: "\n"))
                let narrow = c.widths.min()! < 13 ? "narrow" : "wide"
                counts["late: not cat, \(c.widths.count) resize(s), \(narrow)\(backspaces ? "" : ", no BS")", default: 0] += 1
                if lists { print("[late\(backspaces ? "" : " no BS")] \(c)") }
            }
            counts["cases", default: 0] += 1
            // tmux named: the text at once, one resize.
            if c.chunks.count == 1, let to = c.widths.first, !c.markdown {
                let (typewrite, cat, _) = ResizeTests.run(c.chunks[0].text, from: c.from, to: to, at: c.at, named: true)
                let fade = Self.fading(typewrite)
                if !fade.isEmpty { note("tmux: left fading", "\(c): \(fade)") }
                if typewrite.lines != cat.lines && fade.isEmpty { note("tmux: not cat", "\(c): \(typewrite.diff(cat) ?? "")") }
                if typewrite.lines != cat.lines {
                    // The same run where the environment names no terminal.
                    let (plain, plainCat, _) = ResizeTests.run(c.chunks[0].text, from: c.from, to: to, at: c.at)
                    if plain.lines == plainCat.lines { note("tmux: not cat where unnamed is", "\(c)") }
                }
                counts["tmux cases", default: 0] += 1
            }
        }
        print("late-frame attack: \(counts.sorted { $0.key < $1.key })")
    }
}

extension LateFrameBreakTests {
    /// Lines of exactly 40 and 80 cells, then 33: each ends at a margin of some width below.
    static let marginLines = String(repeating: "abcdefghij", count: 4) + "\n" + String(repeating: "klmnopqrst", count: 8) + "\n"
        + String(repeating: "x", count: 33) + "\nend\n"

    @Test("two resizes before the report: a line end is mended where at most three frames were late",
          arguments: [(80, 0.37), (80, 0.39), (40, 0.37)])
    func lineEndUnderTwoResizes(from: Int, time: Double) {
        // 80→33→47, the frame that settles the 40-cell line's last cells and ends it read after the
        // first reflow: at 33 columns its backspaces stopped at the first column of the line's
        // second row and drew `abcdefghij` there; the second reflow joined that into one row of
        // 43 cells (`…abcabcdefghij`, `abc` left fading). The line's frames were played up to four
        // late (the three before its line feed and its own), and four late would have drawn past
        // the 47th column, a story ending on another row, so nothing was mended. No more frames
        // than `framesKept` are late, its line feed's frame included.
        for late in 1...2 {
            Self.expectCat(Case(chunks: [(0, Self.marginLines)], from: from, widths: [33, 47], at: time, inFlight: late))
        }
    }

    @Test("two and three resizes before the report, nothing fading: the line ends are still mended",
          arguments: [(3, [33, 47], 1.07), (0, [33, 47], 0.47), (0, [33, 47], 1.07)])
    func lineEndUnderResizesNothingFading(text: Int, widths: [Int], time: Double) {
        // The late frame ends in its line feed (`…tide LF`, `klmnopqrst LF`): nothing fades, so
        // the first resize asks for the cursor only for the line end; the second dropped that
        // wait as a resize with nothing to find, and what the frame drew at 33 columns was left
        // as drawn (`sea peaceful sharpest one tide lode look day sw`).
        let texts = [
            "sea peaceful sharpest one tide look day swings sea\n\nride sea pools in of twice in daily look one tide\n\n\nof them tide the\n",
            "", "", Self.marginLines,
        ]
        for late in 1...3 {
            Self.expectCat(Case(chunks: [(0, texts[text])], from: text == 0 ? 40 : 80, widths: widths, at: time, inFlight: late))
        }
    }
}

extension LateFrameBreakTests {
    @Test("a late frame that ends a line drew past the line's end, and a later reflow gave the line a row more")
    func lineEndGainsARow() {
        // 80→25→140→40, the frame `BS×10 …s BS×9 klmnopqrst LF` read after the first reflow: at
        // 25 columns its backspaces stopped at a row's first column and drew four cells past the
        // 80-cell line's end; kitty keeps them in the line, so at 40 columns the line takes three
        // rows, not two, and every row below moves down (`klmnostklm` / `nopqrst`). The mend
        // trusts only stories that end on the line's last row (the rows below are counted so).
        // A known limit, so the screen still differs from cat's: checked without printing the
        // difference (it would read like a failure); once mended, this fails — make it expectCat.
        let differences = Self.failures(Case(chunks: [(0, Self.marginLines)], from: 80, widths: [25, 140, 40], at: 1.07, inFlight: 1))
        #expect(!differences.isEmpty, "a story that ends on another row than the line's last is mended now: use expectCat here")
    }
}
