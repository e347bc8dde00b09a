/// The markdown side of the fade renderer: it feeds the answer's text (the input with each escape
/// sequence reduced to its ESC, a CSI to its `ESC [`) to a `MarkdownHighlighter` as it arrives,
/// keeps the look of every byte not yet written, and remembers where each cluster it wrote on the
/// screen is, so that a restyle (later text proved a guess wrong) can repaint it in place — never
/// a row that scrolled off.
struct MarkdownLayer: Sendable {
    private var highlighter = MarkdownHighlighter()
    /// Markdown offset (counting every document) where the current document starts.
    /// Where the current document's bytes were fed: from document offset `document` on, byte
    /// `document + k` is markdown byte `markdown + k` (a document that continues a snapshot's
    /// kept text maps that text to where it was fed before, the rest to where it is fed now).
    private var pieces: [(document: Int, markdown: Int)] = [(0, 0)]
    /// Whether the current document's offsets are those of the text the host shows (no break
    /// at `openTextLimit` since it started), so a snapshot's kept text can be found in it.
    private var documentIsWhole = true
    /// Bytes fed so far, counting every document.
    private var fedCount = 0
    /// Input (store) offset up to which the input has been fed.
    private(set) var fedEnd = 0
    /// Input bytes that are not text of the document (moves a snapshot wrote before its tail).
    private var notText: Range<Int> = 0..<0
    /// Where each contiguous fed stretch starts: markdown offset and input offset.
    private var segments: [(markdown: Int, input: Int)] = []
    /// Storage `inputRanges` reuses.
    private var rangeScratch: [Range<Int>] = []
    /// The look of every input byte from `looksBase` to `fedEnd` (0 = plain, and escape sequences, whose first bytes are fed but never drawn).
    private var looks: [UInt8] = []
    private var looksBase = 0
    /// Looks named by number: SGR parameters.
    private(set) var lookParameters: [String] = [""]
    private var lookIDs: [MarkdownStyle: UInt8] = [.plain: 0]
    /// The look of a style by `MarkdownStyle.bits`, in a small table in front of `lookIDs`: code
    /// changes style at every token, among a few styles.
    private var recentLookBits = [UInt64](repeating: .max, count: 64)
    private var recentLookIDs = [UInt8](repeating: 0, count: 64)
    private var parameterIDs: [String: UInt8] = ["": 0]
    let colors: Bool

    /// Whether links become OSC 8 hyperlinks.
    let linksOn: Bool
    /// The link of every input byte from `looksBase` to `fedEnd` (0: none), as `looks`.
    private var linkOf: [Int32] = []
    /// Hyperlinks by number: the OSC 8 sequence that opens each, and the input offset past its
    /// last byte (to forget it once its bytes are gone). Numbers are never reused.
    private var linkTargets: [Int32: (open: [UInt8], end: Int)] = [:]
    private var nextLink: Int32 = 1
    /// The current document's links: number by the highlighter's id.
    private var documentLinks: [Int: Int32] = [:]
    /// What makes each link's `id=` unique beyond this renderer (`FadeConfiguration.hyperlinkIDPrefix`).
    let linkIDPrefix: String

    /// Written clusters whose place on the screen is known, oldest first.
    private(set) var painted: [Painted] = []
    private var paintedHead = 0
    private var paintedBytes: [UInt8] = []
    /// Whether some painted cluster's look changed since it was drawn.
    private(set) var hasRestyles = false
    /// Input offset below which every byte has been written (what is below it and not painted
    /// can no longer be repainted).
    var writtenEnd = 0

    /// Counters for the benchmark: clusters repainted in a new look, and restyled bytes that were
    /// written but could not be repainted (off the screen, or where the place was not certain).
    var restyledCells = 0
    var restyledOffScreen = 0

    struct Painted: Sendable {
        var start: Int          // input offset of the cluster's first byte
        var row: Int            // TerminalModel.row when drawn
        var column: Int
        var width: Int
        var bytes: Range<Int>   // in paintedBytes (absolute: minus paintedBytesBase)
        var penID: Int          // the renderer's number of the input's pen it was drawn over
        var drawn: UInt8
        var wanted: UInt8
        var drawnLink: Int32 = 0
        var wantedLink: Int32 = 0
    }
    private var paintedBytesBase = 0

    init(colors: Bool, openTextLimit: Int = MemoryBudget.standard.openMarkdownText, links: Bool = false,
         linkIDPrefix: String = "tw") {
        self.colors = colors
        self.openTextLimit = openTextLimit
        self.linksOn = links
        self.linkIDPrefix = linkIDPrefix
    }

    // MARK: Feeding

    /// Starts at input offset `offset` (what came before was not markdown).
    mutating func skip(to offset: Int) {
        fedEnd = offset
        looksBase = offset
        writtenEnd = offset
    }

    /// Feeds the input bytes `store[fedEnd..<end]`, each escape sequence in `sequences`
    /// (increasing, within that range) as its ESC alone, or as `ESC [` for a CSI.
    ///
    /// The terminal shows no cell for a sequence, but a CommonMark + GFM parser reading the input
    /// finds its bytes there, and what is linked must be what it links. Inside a link destination
    /// or a bare URL the ESC is a control character, and what holds it is no safe link
    /// (`MarkdownLink.destination`): `[x](https://a.example/ESC[31mred)` and
    /// `https://a.example/ESC[31mred` link nothing. A CSI's `[` opens a bracket, and cmark-gfm links
    /// no bare URL while one is open (`ESC[1mSee ESC[0m https://a.example/` links nothing on the raw
    /// bytes). The rest (parameters, an OSC's title) is not fed: it is no markdown and shows nothing.
    /// These bytes' markdown offsets map to the sequence's first bytes, which are never drawn.
    mutating func feed(_ store: ByteStore, to end: Int, sequences: [Range<Int>]) {
        guard end > fedEnd else { return }
        looks.append(contentsOf: repeatElement(0, count: end - fedEnd))
        if linksOn { linkOf.append(contentsOf: repeatElement(0, count: end - fedEnd)) }
        var at = fedEnd
        // What is skipped: each sequence but its ESC (and a CSI's `[`), and the moves a snapshot
        // wrote (not text).
        var skip = sequences.map { range -> Range<Int> in
            guard range.count > 0, store[range.lowerBound] == 0x1B else { return range }
            let kept = range.count > 2 && store[range.lowerBound + 1] == 0x5B ? 2 : 1
            return (range.lowerBound + kept)..<range.upperBound
        }
        let lower = max(fedEnd, notText.lowerBound), upper = min(end, notText.upperBound)
        if lower < upper {
            // The moves are sequences and a CR: none of their bytes is fed, not even an ESC.
            skip.append(lower..<upper)
            skip.sort { $0.lowerBound < $1.lowerBound }
        }
        for range in skip + [end..<end] {
            if range.lowerBound > at { feedStretch(store, at..<range.lowerBound) }
            at = max(at, range.upperBound)
        }
        fedEnd = end
    }

    /// Longest open text (a paragraph, a line) the highlighter holds, in bytes
    /// (`MemoryBudget.openMarkdownText`, 64 KiB by default): where an open paragraph reaches it, a
    /// new document starts, so memory stays bounded on a flood of lines with no blank line between
    /// them. Far more than a screen shows (300 × 100 cells), so a restyle it gives up could only
    /// have reached rows that scrolled off long ago.
    let openTextLimit: Int

    private mutating func feedStretch(_ store: ByteStore, _ range: Range<Int>) {
        if let last = segments.last, last.input + (fedCount - last.markdown) == range.lowerBound {
            // continues the last stretch
        } else {
            segments.append((fedCount, range.lowerBound))
        }
        var at = range.lowerBound
        while at < range.upperBound {
            // Pieces end where the open text reaches the limit: the same place for any splitting.
            let end = min(range.upperBound, at + max(1, openTextLimit - highlighter.openByteCount))
            fedCount += end - at
            apply(highlighter.feed(store[at..<end]))
            at = end
            if highlighter.openByteCount >= openTextLimit {
                startDocument()
                documentIsWhole = false
            }
        }
    }

    /// The input from here on is a new document (reasoning after the answer, or the answer after
    /// its reasoning): what is open in the one before ends here.
    mutating func startDocument() {
        apply(highlighter.finish())
        highlighter = MarkdownHighlighter()
        pieces = [(0, fedCount)]
        documentIsWhole = true
        documentLinks.removeAll()
    }

    /// A new document whose first bytes, `context`, were shown before (and stay as they are):
    /// the text that follows is read as continuing them.
    mutating func startDocument(after context: some Collection<UInt8>, notText: Range<Int>) {
        self.notText = notText
        highlighter = MarkdownHighlighter()
        let kept = context.count
        // The kept text is the start of the document before (the same snapshot text), where
        // it was drawn; when that is not known, its new styles are not applied.
        var mapped = documentIsWhole ? pieces.filter { $0.document < kept } : []
        if mapped.isEmpty { mapped = [(0, -1)] }  // -1: maps to nothing fed
        pieces = mapped + [(kept, fedCount)]
        documentIsWhole = true
        documentLinks.removeAll()
        // Its styles as the new document reads it are restyles of what is on the screen.
        let update = highlighter.feed(context)
        apply(MarkdownUpdate(restyles: update.runs + update.restyles, links: update.links))
    }

    /// End of input: every guess still open is decided.
    mutating func finish() {
        apply(highlighter.finish())
    }

    private mutating func apply(_ update: MarkdownUpdate) {
        for run in update.runs { set(run, restyle: false) }
        for run in update.restyles { set(run, restyle: true) }
        if linksOn { for link in update.links { set(link) } }
    }

    private mutating func set(_ run: MarkdownStyleRun, restyle: Bool) {
        let look = lookID(run.style)
        for input in inputRanges(ofDocument: run.range) { setLook(look, input, restyle: restyle) }
    }

    /// The input ranges the document's bytes `range` were fed from, in order. (A list, not a
    /// closure over `self`: a closure that changed `self` while this read it made Swift copy the
    /// layer, and every look written after that copied the whole table again. The list's storage
    /// is kept for the next call.)
    private mutating func inputRanges(ofDocument range: Range<Int>) -> [Range<Int>] {
        var result = rangeScratch
        rangeScratch = []
        result.removeAll(keepingCapacity: true)
        defer { rangeScratch = result }
        // Mostly the range is in the newest piece and the newest stretch fed: one range.
        if let piece = pieces.last, let segment = segments.last, piece.markdown >= 0, range.lowerBound >= piece.document {
            let m = piece.markdown + range.lowerBound - piece.document
            let mEnd = piece.markdown + range.upperBound - piece.document
            if m >= segment.markdown && mEnd <= fedCount {
                if m < mEnd { result.append((segment.input + m - segment.markdown)..<(segment.input + mEnd - segment.markdown)) }
                return result
            }
        }
        // The last piece starting at or before the range (pieces are in document order).
        var low = 0, high = pieces.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if pieces[mid].document <= range.lowerBound { low = mid } else { high = mid - 1 }
        }
        guard let first = segments.first else { return result }
        for i in low..<pieces.count {
            let piece = pieces[i]
            if piece.document >= range.upperBound { break }
            let pieceEnd = i + 1 < pieces.count ? pieces[i + 1].document : Int.max
            let low = max(range.lowerBound, piece.document), high = min(range.upperBound, pieceEnd)
            guard low < high, piece.markdown >= 0 else { continue }
            // Markdown offsets, then the stretches they were fed from.
            let markdown = (piece.markdown + low - piece.document)..<(piece.markdown + high - piece.document)
            var m = max(markdown.lowerBound, first.markdown)  // older stretches are forgotten
            var k = segmentIndex(containing: m)
            while m < markdown.upperBound, k < segments.count {
                let segmentEnd = k + 1 < segments.count ? segments[k + 1].markdown : fedCount
                let upper = min(markdown.upperBound, segmentEnd)
                let input = segments[k].input + (m - segments[k].markdown)
                result.append(input..<(input + upper - m))
                m = upper
                k += 1
            }
        }
        return result
    }

    // MARK: Links

    /// A link report (`MarkdownLink`): the bytes it covered before lose it, those it covers now
    /// take it when its destination is known and safe — repainted in place where already drawn.
    private mutating func set(_ link: MarkdownLink) {
        let old = documentLinks[link.id] ?? 0
        if old != 0, let replacing = link.replacing {
            for input in inputRanges(ofDocument: replacing) { setLink(0, input, only: old) }
        }
        guard !link.isRemoved, let destination = link.destination else {
            documentLinks[link.id] = nil
            return
        }
        let number: Int32
        if old != 0, let target = linkTargets[old], target.open == openSequence(old, destination) {
            number = old
        } else {
            number = nextLink
            nextLink += 1
        }
        documentLinks[link.id] = number
        var end = linkTargets[number]?.end ?? 0
        for range in link.ranges {
            for input in inputRanges(ofDocument: range) {
                setLink(number, input, only: nil)
                end = max(end, input.upperBound)
            }
        }
        linkTargets[number] = (openSequence(number, destination), end)
    }

    /// `OSC 8 ; id=… ; URL ST`: one id per link, so a link split across rows is one link.
    private func openSequence(_ number: Int32, _ destination: String) -> [UInt8] {
        Array("\u{1B}]8;id=\(linkIDPrefix)-\(number);\(destination)\u{1B}\\".utf8)
    }

    /// Gives input bytes `range` link `number` (0: none); with `only`, just those that had it.
    private mutating func setLink(_ number: Int32, _ range: Range<Int>, only: Int32?) {
        let pending = max(range.lowerBound, writtenEnd, looksBase)..<min(max(range.upperBound, writtenEnd, looksBase), looksBase + linkOf.count)
        for i in pending where only == nil || linkOf[i - looksBase] == only { linkOf[i - looksBase] = number }
        guard range.lowerBound < writtenEnd else { return }
        // Written already: repaint where the cluster is known to be.
        var i = firstPainted(atOrAfter: range.lowerBound)
        while i < painted.count, painted[i].start < min(range.upperBound, writtenEnd) {
            if only == nil || painted[i].wantedLink == only {
                painted[i].wantedLink = number
                if painted[i].drawnLink != number { hasRestyles = true }
            }
            i += 1
        }
    }

    /// The link number of the input byte at `offset` (0 for none).
    func link(at offset: Int) -> Int32 {
        linksOn && offset >= looksBase && offset < fedEnd ? linkOf[offset - looksBase] : 0
    }

    /// Link `number` (nil for 0, or one forgotten).
    func hyperlink(_ number: Int32) -> Hyperlink? {
        guard number != 0, let target = linkTargets[number] else { return nil }
        return Hyperlink(number: number, open: target.open)
    }

    private func segmentIndex(containing m: Int) -> Int {
        var low = 0, high = segments.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if segments[mid].markdown <= m { low = mid } else { high = mid - 1 }
        }
        return max(0, low)
    }

    private mutating func setLook(_ look: UInt8, _ range: Range<Int>, restyle: Bool) {
        let pending = max(range.lowerBound, writtenEnd)..<max(range.upperBound, writtenEnd)
        for i in pending where i >= looksBase { looks[i - looksBase] = look }
        guard restyle, range.lowerBound < writtenEnd else { return }
        // Written already: repaint where the cluster is known to be.
        let written = range.lowerBound..<min(range.upperBound, writtenEnd)
        var i = firstPainted(atOrAfter: written.lowerBound)
        var covered = 0
        while i < painted.count, painted[i].start < written.upperBound {
            covered += 1
            if painted[i].wanted != look || painted[i].drawn != look {
                painted[i].wanted = look
                if painted[i].drawn != look { hasRestyles = true }
            }
            i += 1
        }
        if covered == 0 { restyledOffScreen += written.count }
    }

    private func firstPainted(atOrAfter offset: Int) -> Int {
        var low = paintedHead, high = painted.count
        while low < high {
            let mid = (low + high) / 2
            if painted[mid].start < offset { low = mid + 1 } else { high = mid }
        }
        return low
    }

    private mutating func lookID(_ style: MarkdownStyle) -> UInt8 {
        let bits = style.bits
        let slot = Int(truncatingIfNeeded: (bits &* 0x9E37_79B9_7F4A_7C15) >> 58)
        if recentLookBits[slot] == bits { return recentLookIDs[slot] }
        let id = lookIDFromTable(style)
        recentLookBits[slot] = bits
        recentLookIDs[slot] = id
        return id
    }

    private mutating func lookIDFromTable(_ style: MarkdownStyle) -> UInt8 {
        if let id = lookIDs[style] { return id }
        let parameters = MarkdownAppearance.parameters(for: style, colors: colors)
        let id: UInt8
        if let known = parameterIDs[parameters] {
            id = known
        } else if lookParameters.count < 255 {
            id = UInt8(lookParameters.count)
            lookParameters.append(parameters)
            parameterIDs[parameters] = id
        } else {
            id = 0
        }
        lookIDs[style] = id
        return id
    }

    /// The look of the input byte at `offset` (0 for bytes never fed).
    func look(at offset: Int) -> UInt8 {
        offset >= looksBase && offset < fedEnd ? looks[offset - looksBase] : 0
    }

    /// Forgets the looks of bytes before `offset` (written and painted, or gone).
    mutating func discardLooks(before offset: Int) {
        let drop = min(offset, fedEnd) - looksBase
        guard drop > 4096 && drop * 2 > looks.count else { return }
        looks.removeFirst(drop)
        if linksOn { linkOf.removeFirst(drop) }
        looksBase += drop
        if !linkTargets.isEmpty {
            // Links whose bytes are all gone and not on the screen are no longer needed.
            let oldestPainted = painted.count > paintedHead ? painted[paintedHead].start : Int.max
            let known = Set(documentLinks.values)
            linkTargets = linkTargets.filter { $0.value.end > min(looksBase, oldestPainted) || known.contains($0.key) }
        }
        // Segments wholly before the looks kept are no longer needed.
        if segments.count > 64 {
            var k = 0
            while k + 1 < segments.count && segments[k + 1].input <= looksBase && segments[k + 1].input <= writtenEnd { k += 1 }
            if k > 0 { segments.removeFirst(k) }
        }
    }

    // MARK: Painted clusters

    /// A cluster was drawn at a known place in `look`, in `link`.
    mutating func note(start: Int, bytes: ArraySlice<UInt8>, row: Int, column: Int, width: Int,
                       penID: Int, look: UInt8, link: Int32 = 0) {
        let b = paintedBytesBase + paintedBytes.count
        paintedBytes.append(contentsOf: bytes)
        painted.append(Painted(start: start, row: row, column: column, width: width,
                               bytes: b..<(b + bytes.count), penID: penID, drawn: look, wanted: look,
                               drawnLink: link, wantedLink: link))
    }

    /// Clusters drawn on rows above `row` − `keep` have scrolled off (or may have): forget them.
    mutating func forgetRows(before lowest: Int) {
        while paintedHead < painted.count && painted[paintedHead].row < lowest { paintedHead += 1 }
        compactPainted()
    }

    /// Forgets the clusters drawn on `row` and below (the cursor returned over them: CR, BS).
    mutating func forgetRow(_ row: Int) {
        while painted.count > paintedHead, painted[painted.count - 1].row >= row { painted.removeLast() }
        compactPainted()
    }

    /// Nothing drawn so far can be found again (the cursor moved in a way not followed).
    mutating func forgetPainted() {
        painted.removeAll(keepingCapacity: true)
        paintedHead = 0
        paintedBytesBase += paintedBytes.count
        paintedBytes.removeAll(keepingCapacity: true)
        hasRestyles = false
    }

    private mutating func compactPainted() {
        if paintedHead == painted.count {
            forgetPainted()
            return
        }
        guard paintedHead >= 1024 && paintedHead * 2 >= painted.count else { return }
        painted.removeFirst(paintedHead)
        paintedHead = 0
        let first = painted[0].bytes.lowerBound - paintedBytesBase
        if first > 0 {
            paintedBytes.removeFirst(first)
            paintedBytesBase += first
        }
    }

    /// The cluster drawn last, if its place is known.
    var lastPainted: Painted? { painted.count > paintedHead ? painted[painted.count - 1] : nil }

    /// Forgets the cluster drawn last if it ends at `offset` (scalars joined it there).
    mutating func forgetLastPainted(endingAt offset: Int) {
        guard let last = lastPainted, last.start + last.bytes.count == offset else { return }
        painted.removeLast()
        compactPainted()
    }

    /// The painted clusters whose look changed, with their indices; marks them drawn.
    mutating func takeRestyles() -> [Painted] {
        guard hasRestyles else { return [] }
        hasRestyles = false
        var out: [Painted] = []
        for i in paintedHead..<painted.count where painted[i].drawn != painted[i].wanted || painted[i].drawnLink != painted[i].wantedLink {
            out.append(painted[i])
            painted[i].drawn = painted[i].wanted
            painted[i].drawnLink = painted[i].wantedLink
        }
        return out
    }

    /// The bytes of a painted cluster.
    func bytes(of cluster: Painted) -> ArraySlice<UInt8> {
        paintedBytes[(cluster.bytes.lowerBound - paintedBytesBase)..<(cluster.bytes.upperBound - paintedBytesBase)]
    }
}
