/// An incremental markdown highlighter: feed it an answer's UTF-8 bytes as they arrive, in pieces
/// of any size (a piece may end inside a UTF-8 sequence or a line), and it says the role of every
/// byte (`MarkdownStyle`) as soon as the byte arrives, then restyles earlier bytes when later text
/// proves a guess wrong. The source text is never changed: styles are over its bytes.
///
/// Once `finish()` has been called the styles are those of CommonMark 0.31.2 with the GFM
/// extensions (tables, strikethrough, extended autolinks, task list items), whatever the pieces
/// were. Raw HTML (inline tags, comments and the like, and HTML blocks) is plain, and nothing in
/// it is a link; entities are read as text.
///
/// Cost: each line's block structure is examined once, when it ends; the open paragraph (the only
/// text a later line can restyle, through a setext underline or a table delimiter row) and the
/// line still arriving are parsed again on each feed while that costs at most
/// `eagerParagraphBytes`, and beyond that each time the input has grown by half that cost, so time
/// stays linear in the input and memory in the longest paragraph.
/// Between two parses the new bytes take the style the last parse gave the end of the text.
///
/// Links: each update also reports, in `links`, every link first found, changed or undone by it
/// (`MarkdownLink`: a small id, the bytes of its visible text, its destination once known and
/// safe), so that a terminal renderer can wrap the text in OSC 8 hyperlinks; `MarkdownLinkMap`
/// keeps them per byte. A reference link whose definition comes later is reported when the
/// definition's paragraph ends, however long ago its text was fed.
///
/// ```swift
/// var highlighter = MarkdownHighlighter()
/// for piece in pieces {
///     let update = highlighter.feed(piece)
///     for run in update.runs { paint(run.range, run.style) }      // new bytes
///     for run in update.restyles { repaint(run.range, run.style) } // earlier bytes
/// }
/// let last = highlighter.finish()
/// ```
public struct MarkdownHighlighter: Sendable {
    /// Paragraphs up to this many bytes are parsed again on every feed.
    public static let eagerParagraphBytes = 4096

    private var parser = MarkdownBlockParser()
    private var bytes: [UInt8] = []
    /// Absolute offset of `bytes[0]`.
    private var base = 0
    private var sink = MarkdownStyleSink()
    private var reported: [MarkdownStyle] = []
    /// Where the line that has not ended yet starts.
    private var lineStart = 0
    private var bytesAtLastExamination = 0
    private var tailStyle = MarkdownStyle.plain
    private var finished = false
    private var linkRegistry = MarkdownLinkRegistry()

    /// Bytes fed so far: the next byte fed has this offset.
    public private(set) var byteCount = 0
    /// Bytes that later pieces may still restyle, which the highlighter keeps: the open paragraph
    /// and the line still arriving (its memory is about 10 bytes for each).
    public var openByteCount: Int { byteCount - min(parser.openParagraphStart ?? lineStart, lineStart) }
    /// Bytes restyled so far (each time a byte's style changed after it was first reported).
    public private(set) var restyledByteCount = 0

    /// A highlighter at the start of a document.
    public init() {}

    /// Tests only: a highlighter that reports destinations the safety rules refuse too.
    init(keepingUnsafeDestinations: Bool) {
        sink.links.keepsUnsafeDestinations = keepingUnsafeDestinations
    }

    /// Links reported so far (each counted once, when first reported).
    public var linkCount: Int { linkRegistry.reportedCount }

    /// Feeds the next piece of the answer.
    ///
    /// - Parameter piece: the bytes that follow those fed so far (any length, including 0).
    /// - Returns: runs tiling the piece's bytes (offsets `byteCount` before the call ..< after),
    ///   and restyles of bytes fed earlier. Must not be called after `finish()`.
    public mutating func feed(_ piece: some Collection<UInt8>) -> MarkdownUpdate {
        precondition(!finished, "MarkdownHighlighter.feed after finish")
        let oldEnd = byteCount
        bytes.append(contentsOf: piece)
        byteCount = base + bytes.count
        let added = byteCount - oldEnd
        guard added > 0 else { return MarkdownUpdate() }
        sink.styles.append(contentsOf: repeatElement(tailStyle, count: added))
        reported.append(contentsOf: repeatElement(tailStyle, count: added))
        sink.dirtyLow = min(sink.dirtyLow, oldEnd)

        let src = MarkdownSource(bytes: bytes, base: base)
        var i = oldEnd
        var onlyWords = oldEnd > base && MarkdownCharacters.isASCIIAlphanumeric(src[oldEnd - 1])
            && sink.styles[oldEnd - 1 - base] == tailStyle
        while i < byteCount {
            let b = src[i]
            if b == 0x0A {
                commitLine(src, through: i)
            }
            onlyWords = onlyWords && (b == 0x20 || MarkdownCharacters.isASCIIAlphanumeric(b))
            i += 1
        }
        if onlyWords && parser.scansCode && tailStyle.codeRole != .string && tailStyle.codeRole != .comment {
            // In code, letters can make a keyword of the name before them (`de` + `f`).
            onlyWords = false
        }
        if onlyWords {
            // Letters, digits and spaces after a letter or digit that took the style of the end
            // of the text extend that style and decide nothing before them: no need to look again.
            let update = collect(oldEnd: oldEnd)
            trim()
            return update
        }
        // An examination costs about the open text's length plus the containers it matches.
        let openStart = min(parser.openParagraphStart ?? lineStart, lineStart)
        let cost = byteCount - openStart + 16 * parser.containerDepth
        if cost <= MarkdownHighlighter.eagerParagraphBytes || (byteCount - bytesAtLastExamination) * 2 >= cost {
            examine(src)
        } else if lineStart < byteCount {
            sink.set(max(lineStart, oldEnd)..<byteCount, tailStyle)
        }
        let update = collect(oldEnd: oldEnd)
        trim()
        return update
    }

    /// Ends the answer: decides every style still open (an unclosed code span is text, an
    /// unclosed fence ends with the answer).
    ///
    /// - Returns: restyles of bytes whose guess the end proved wrong; no new runs.
    public mutating func finish() -> MarkdownUpdate {
        guard !finished else { return MarkdownUpdate() }
        finished = true
        let src = MarkdownSource(bytes: bytes, base: base)
        if lineStart < byteCount {
            parser.processLine(src, start: lineStart, end: lineEnd(src, lineStart, byteCount), tentative: false, sink: &sink)
            lineStart = byteCount
        }
        parser.finish(src, sink: &sink)
        return collect(oldEnd: byteCount)
    }

    /// The final styles of a whole document, as runs over its bytes (equal styles merged).
    public static func styles(of document: some Collection<UInt8>) -> [MarkdownStyleRun] {
        var highlighter = MarkdownHighlighter()
        var map = MarkdownStyleMap()
        map.apply(highlighter.feed(document))
        map.apply(highlighter.finish())
        return map.runs
    }

    /// The final links of a whole document, by the offset of their text's first byte.
    public static func links(of document: some Collection<UInt8>) -> [MarkdownLink] {
        var highlighter = MarkdownHighlighter()
        var map = MarkdownLinkMap()
        map.apply(highlighter.feed(document))
        map.apply(highlighter.finish())
        return map.links
    }

    // MARK: - Lines

    private func lineEnd(_ src: MarkdownSource, _ start: Int, _ end: Int) -> Int {
        end > start && src[end - 1] == 0x0D ? end - 1 : end
    }

    private mutating func commitLine(_ src: MarkdownSource, through lineFeed: Int) {
        let end = lineEnd(src, lineStart, lineFeed)
        sink.set(end..<(lineFeed + 1), .plain)
        parser.processLine(src, start: lineStart, end: end, tentative: false, sink: &sink)
        lineStart = lineFeed + 1
    }

    /// Styles the open paragraph and the line still arriving, on a copy of the parser.
    private mutating func examine(_ src: MarkdownSource) {
        var trial = parser
        sink.links.ignoresLate = true
        defer { sink.links.ignoresLate = false }
        let lineIsOpen = lineStart < byteCount
        if lineIsOpen {
            trial.processLine(src, start: lineStart, end: byteCount, tentative: true, sink: &sink)
            trial.styleOpenParagraph(src, lineIsOpen: true, sink: &sink)
            tailStyle = trial.tail
        } else {
            trial.styleOpenParagraph(src, lineIsOpen: false, sink: &sink)
            tailStyle = .plain
        }
        bytesAtLastExamination = byteCount
    }

    // MARK: - Reporting

    private mutating func collect(oldEnd: Int) -> MarkdownUpdate {
        var update = MarkdownUpdate()
        var gone: [MarkdownStyleRun] = []
        for (offset, style) in sink.late.sorted(by: { $0.offset < $1.offset }) {
            if offset >= base {
                sink.set(offset, style)
            } else {
                Self.append(&gone, offset, style, sink)
                restyledByteCount += 1
            }
        }
        sink.late = []
        let from = max(min(sink.dirtyLow, oldEnd), base)
        sink.dirtyLow = Int.max
        var i = from
        let computed = sink.styles
        let languages = sink
        let base = self.base, byteCount = self.byteCount
        var restyled = 0
        var runs: [MarkdownStyleRun] = [], restyles: [MarkdownStyleRun] = []
        reported.withUnsafeMutableBufferPointer { reported in
            computed.withUnsafeBufferPointer { computed in
                // Earlier bytes: only changes are reported.
                while i < min(oldEnd, byteCount) {
                    let style = computed[i - base]
                    if !(style == reported[i - base]) {
                        Self.append(&restyles, i, style, languages)
                        restyled += 1
                        reported[i - base] = style
                    }
                    i += 1
                }
                while i < byteCount {
                    let style = computed[i - base]
                    Self.append(&runs, i, style, languages)
                    reported[i - base] = style
                    i += 1
                }
            }
        }
        restyledByteCount += restyled
        update.runs = runs
        update.restyles += restyles
        if !gone.isEmpty { update.restyles = gone + update.restyles }
        update.links = linkRegistry.collect(&sink.links)
        linkRegistry.settle(before: finished ? byteCount : min(parser.openParagraphStart ?? lineStart, lineStart))
        return update
    }

    private static func append(_ runs: inout [MarkdownStyleRun], _ offset: Int, _ style: MarkdownStyle,
                               _ sink: MarkdownStyleSink) {
        let k = runs.count - 1
        if k >= 0 && runs[k].range.upperBound == offset && runs[k].style == style {
            runs[k].range = runs[k].range.lowerBound..<(offset + 1)
            return
        }
        let language = style.isCodeBlock || style.marker == .codeFence ? sink.language(at: offset) : nil
        runs.append(MarkdownStyleRun(range: offset..<(offset + 1), style: style, codeLanguage: language))
    }

    /// Forgets the bytes no later line can restyle, once they are many.
    private mutating func trim() {
        let keep = min(parser.openParagraphStart ?? lineStart, lineStart)
        let drop = keep - base
        guard drop > 4096 && drop * 2 > bytes.count else { return }
        bytes.removeFirst(drop)
        sink.styles.removeFirst(drop)
        reported.removeFirst(drop)
        base = keep
        sink.base = keep
        if sink.codeLanguages.count > 1, let k = sink.codeLanguages.lastIndex(where: { $0.start <= keep }), k > 0 {
            sink.codeLanguages.removeFirst(k)
        }
    }
}

/// The styles of every byte reported so far, kept as runs: apply each update in order.
///
/// A convenience for callers that want the current styling at any time (and for tests); a
/// renderer that keeps a style per character needs no map.
public struct MarkdownStyleMap: Hashable, Sendable {
    private var styles: [MarkdownStyle] = []

    /// An empty map.
    public init() {}

    /// Applies an update's runs and restyles (fence languages are not kept).
    public mutating func apply(_ update: MarkdownUpdate) {
        for run in update.runs + update.restyles {
            if run.range.upperBound > styles.count {
                styles.append(contentsOf: repeatElement(.plain, count: run.range.upperBound - styles.count))
            }
            for i in run.range { styles[i] = run.style }
        }
    }

    /// The style of the byte at `offset`.
    public subscript(offset: Int) -> MarkdownStyle { styles[offset] }

    /// The number of bytes styled.
    public var count: Int { styles.count }

    /// The styles as runs, equal neighbours merged.
    public var runs: [MarkdownStyleRun] {
        var out: [MarkdownStyleRun] = []
        for (i, style) in styles.enumerated() {
            if let last = out.last, last.style == style, last.range.upperBound == i {
                out[out.count - 1].range = last.range.lowerBound..<(i + 1)
            } else {
                out.append(MarkdownStyleRun(range: i..<(i + 1), style: style))
            }
        }
        return out
    }
}
