/// An OSC 8 hyperlink typewrite draws cells in (xterm ctlseqs, "OSC 8"; `docs/terminals.md#hyperlinks`):
/// its number, unique in the process, and the sequence that opens it (`OSC 8 ; id=… ; URI ST`).
struct Hyperlink: Sendable, Equatable {
    let number: Int32
    let open: [UInt8]

    static func == (a: Hyperlink, b: Hyperlink) -> Bool { a.number == b.number }

    /// `OSC 8 ; ; ST`: no link from here on.
    static let close: [UInt8] = Array("\u{1B}]8;;\u{1B}\\".utf8)
}

/// The SGR states ("pens") a renderer draws with: the input's pens by number, the looks markdown
/// puts on top of them, and the pen the terminal has now, as far as typewrite wrote it. Every
/// change of the terminal's pen goes through `set`, so the terminal is always left in a known one.
/// The hyperlink typewrite opened is part of its pen: `set` without a link closes it, so every
/// write that is not a linked cell (a control, the input's own sequences, the end of a frame)
/// comes after the link is closed.
struct PenBook: Sendable {
    /// The pen the terminal has, as far as typewrite wrote it.
    private(set) var terminal = GraphicRendition()
    /// The number of the hyperlink typewrite left open (0: none).
    private(set) var openLink: Int32 = 0
    /// The number of the input's current pen (-1 once there were too many pens to number).
    private(set) var inputID = 0
    private var ids: [GraphicRendition: Int] = [GraphicRendition(): 0]
    private var pens: [GraphicRendition] = [GraphicRendition()]
    /// Styled pens by base pen number and look, with their numbers.
    private var styled: [Int: (pen: GraphicRendition, id: Int)] = [:]
    /// The number of `terminal` when it was set by number (-1: not known by number).
    private var terminalID = 0
    /// The SGR bytes from one numbered pen to another, by `from << 16 | to` in a table of
    /// `transitionSlots` slots (the last change seen for each slot): code in colour changes pen
    /// at every token, and the same few changes come again and again.
    private var transitionKeys = [Int](repeating: -1, count: PenBook.transitionSlots)
    private var transitionBytes = [[UInt8]](repeating: [], count: PenBook.transitionSlots)
    private static let transitionSlots = 256

    /// Most pens numbered (lolcat paints every character in a colour of its own).
    static let limit = 4096

    /// The pen numbered `id`.
    subscript(id: Int) -> GraphicRendition { pens[id] }

    /// A small number naming `pen`, for comparing cells cheaply (-1 once too many pens were seen).
    mutating func id(of pen: GraphicRendition) -> Int {
        if let id = ids[pen] { return id }
        guard ids.count < Self.limit else { return -1 }
        let id = ids.count
        ids[pen] = id
        pens.append(pen)
        return id
    }

    /// The input's pen is now `pen`.
    mutating func followInput(_ pen: GraphicRendition) { inputID = id(of: pen) }

    /// The pen numbered `baseID` with a markdown look on top (its SGR `parameters`), and its
    /// number; the pen itself when `look` is 0 or its colours are not the default ones (the
    /// input's own colours win).
    mutating func styled(_ baseID: Int, look: UInt8, parameters: @autoclosure () -> String) -> (pen: GraphicRendition, id: Int) {
        let base = pens[baseID]
        guard look != 0, base.hasDefaultColors else { return (base, baseID) }
        let key = baseID << 8 | Int(look)
        if let hit = styled[key] { return hit }
        var pen = base
        pen.apply(parameters: parameters().utf8)
        let id = id(of: pen)
        if id < 0 { return (base, baseID) }
        styled[key] = (pen, id)
        return (pen, id)
    }

    /// Writes the SGR that takes the terminal to `pen` (nothing when it has it, or when the
    /// terminal's pen is unknown: typewrite then writes no SGR of its own), and opens `link` or
    /// closes the one open.
    ///
    /// `id`, the pen's number (`id(of:)`) when the caller has it: the bytes of a change between
    /// numbered pens are made once.
    mutating func set(_ pen: GraphicRendition, id: Int = -1, link: Hyperlink? = nil, terminalPenIsUnknown: Bool,
                      into out: inout [UInt8]) {
        if openLink != (link?.number ?? 0) {
            closeLink(into: &out)
            if let link {
                out.append(contentsOf: link.open)
                openLink = link.number
            }
        }
        guard !terminalPenIsUnknown else { return }
        if id >= 0 && terminalID >= 0 {
            guard id != terminalID else { return }
            let key = terminalID << 16 | id
            let slot = (key &* 0x9E37_79B1) >> 11 & (Self.transitionSlots - 1)
            if transitionKeys[slot] != key {
                transitionKeys[slot] = key
                transitionBytes[slot] = Self.change(from: terminal, to: pen)
            }
            out.append(contentsOf: transitionBytes[slot])
        } else {
            guard pen != terminal else { return }
            out.append(contentsOf: Self.change(from: terminal, to: pen))
        }
        terminal = pen
        terminalID = id
    }

    /// The SGR that takes a terminal with pen `from` to pen `to` (they differ).
    private static func change(from: GraphicRendition, to pen: GraphicRendition) -> [UInt8] {
        if pen.differsOnlyInForeground(from: from) {
            return Array("\u{1B}[\(pen.foregroundParameter ?? "39")m".utf8)
        }
        let params = pen.render()
        return Array((params.isEmpty ? "\u{1B}[0m" : "\u{1B}[0;\(params)m").utf8)
    }

    /// Closes the hyperlink typewrite opened, if any: before the cursor moves away from its cells.
    mutating func closeLink(into out: inout [UInt8]) {
        guard openLink != 0 else { return }
        out.append(contentsOf: Hyperlink.close)
        openLink = 0
    }

    /// Resets the terminal's pen (`CSI 0 m`) unless it is known to be the default, and closes
    /// typewrite's hyperlink.
    mutating func reset(terminalPenIsUnknown: Bool, into out: inout [UInt8]) {
        closeLink(into: &out)
        guard !terminal.isDefault || terminalPenIsUnknown else { return }
        out.append(contentsOf: "\u{1B}[0m".utf8)
        terminal = GraphicRendition()
        terminalID = 0
    }

    /// The terminal took `pen` by itself (an SGR written as it came, DECRC, RIS).
    mutating func terminalTook(_ pen: GraphicRendition) {
        terminal = pen
        terminalID = ids[pen] ?? -1
    }
}

/// The colours a fade runs between and how a fading cell's pen is drawn: the colour ramp, the
/// terminal's background and foreground, and its palette as reported (`docs/colour.md#the-fades-colours`).
struct FadeColors: Sendable {
    private(set) var ramp: ColorRamp
    var background: RGB
    var foreground: RGB
    var palette: [UInt8: RGB]
    /// Soft-edge width in clusters (for the phase of each cell's steps).
    let fadeWidth: Double

    init(_ configuration: FadeConfiguration) {
        ramp = ColorRamp(depth: configuration.colorDepth, levels: configuration.levels)
        background = configuration.background
        foreground = configuration.foreground
        palette = configuration.palette
        fadeWidth = configuration.fadeWidth
    }

    var depth: ColorDepth { ramp.depth }
    var levels: Int { ramp.levels }

    /// The terminal's colours, as it reported them: cells that start fading from now on use them.
    mutating func use(_ colors: TerminalColors) {
        if let background = colors.background { self.background = background }
        if let foreground = colors.foreground { self.foreground = foreground }
        palette.merge(colors.palette) { _, reported in reported }
    }

    /// The RGB value of `color` (nil for the default colour).
    func rgb(of color: TerminalColor) -> RGB? {
        switch color {
        case .default: return nil
        case .indexed(let i): return palette[i] ?? RGB.xterm(i)
        case .rgb(let c): return c
        }
    }

    /// Where a cell in `pen` fades from (its background) and to (its foreground).
    func endpoints(of pen: GraphicRendition) -> (from: RGB, to: RGB) {
        (rgb(of: pen.background) ?? background, rgb(of: pen.foreground) ?? foreground)
    }

    /// The step phase of the cluster at `index`, in steps. Neighbouring cells differ in opacity by
    /// 1/fade, which is levels/fade steps; phases are kept below that, so an older cell is never
    /// darker than a newer one.
    func phase(_ index: Int) -> Double {
        guard fadeWidth > 0 else { return 0 }
        return ColorRamp.phase(ofClusterAt: index) * min(1, Double(ramp.levels) / fadeWidth)
    }

    /// The step for the cluster at `index` at `opacity`.
    func level(opacity: Double, index: Int) -> Int { ramp.level(opacity: opacity, phase: phase(index)) }

    mutating func code(level: Int, from: RGB, to: RGB) -> ColorRamp.Code { ramp.code(level: level, from: from, to: to) }

    /// `pen` with its foreground at fade step `code`.
    func fadePen(_ pen: GraphicRendition, _ code: ColorRamp.Code) -> GraphicRendition {
        if ramp.depth == .basic16 { return pen.replacingForeground(with: nil, faint: true) }
        return pen.replacingForeground(with: ramp.foregroundParameter(code))
    }

    /// Whether a cell in `pen` may fade at this depth (24-bit pens only in 24-bit mode, where
    /// re-sending them cannot change the colour they settle in).
    func mayFade(_ pen: GraphicRendition) -> Bool {
        ramp.depth != .none && pen.allowsFade && !(ramp.depth != .trueColor && pen.usesTrueColor)
    }
}
