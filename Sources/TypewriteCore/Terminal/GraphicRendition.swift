/// A colour as the terminal knows it.
package enum TerminalColor: Hashable, Sendable {
    /// The terminal's own default foreground or background.
    case `default`
    /// An entry of the 256-colour palette (0–15 are the theme's 16 colours).
    case indexed(UInt8)
    /// A 24-bit colour.
    case rgb(RGB)
}

/// An sRGB colour with 8 bits per channel.
public struct RGB: Hashable, Sendable {
    /// The channels, 0–255 each.
    public var red: UInt8, green: UInt8, blue: UInt8
    /// A colour from its three channels, 0–255 each.
    public init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
        self.red = red; self.green = green; self.blue = blue
    }

    /// The xterm default RGB of a 256-colour palette entry (xterm `256colres.h`): 0–15 the
    /// VGA-like defaults, 16–231 the 6×6×6 cube, 232–255 the grey ramp.
    public static func xterm(_ index: UInt8) -> RGB {
        switch index {
        case 0..<16: return basic[Int(index)]
        case 16..<232:
            let i = Int(index) - 16
            return RGB(cubeLevels[i / 36], cubeLevels[(i / 6) % 6], cubeLevels[i % 6])
        default:
            let v = UInt8(8 + 10 * (Int(index) - 232))
            return RGB(v, v, v)
        }
    }

    static let cubeLevels: [UInt8] = [0, 95, 135, 175, 215, 255]
    static let basic: [RGB] = [
        RGB(0, 0, 0), RGB(205, 0, 0), RGB(0, 205, 0), RGB(205, 205, 0),
        RGB(0, 0, 238), RGB(205, 0, 205), RGB(0, 205, 205), RGB(229, 229, 229),
        RGB(127, 127, 127), RGB(255, 0, 0), RGB(0, 255, 0), RGB(255, 255, 0),
        RGB(92, 92, 255), RGB(255, 0, 255), RGB(0, 255, 255), RGB(255, 255, 255),
    ]
}

/// The graphic rendition (SGR, ECMA-48 §8.3.117) the input has set, kept as the input wrote it.
///
/// Each attribute family ("slot") remembers the raw parameter text that last set it, so replaying
/// the state gives the terminal exactly what the input gave it, colon sub-parameters included.
/// `render()` is the state as one SGR parameter list after a reset.
package struct GraphicRendition: Hashable, Sendable {
    enum Slot: Int, CaseIterable {
        case bold, faint, italic, underline, blink, reverse, conceal, strike, font, proportional,
             frame, overline, ideogram, script, foreground, background, underlineColor
    }
    private var slots: [String?] = Array(repeating: nil, count: Slot.allCases.count)
    /// Parameters typewrite does not know; kept in order so that nothing the input asked for is lost.
    private var unknown: [String] = []

    package init() {}

    /// The state with nothing set: what `CSI 0 m` leaves.
    package var isDefault: Bool { unknown.isEmpty && slots.allSatisfy { $0 == nil } }

    /// What one SGR sequence did, beyond the new state.
    package struct Outcome: Equatable, Sendable {
        /// It reset the state (a `0` or empty parameter), so what it leaves does not depend on the
        /// state before it.
        package var reset = false
        /// After its last reset it had a parameter terminals read differently (an incomplete or
        /// out-of-range extended colour, an unknown selector, style or code, sub-parameters where
        /// none belong): xterm ignores most of them, others (pyte, some terminals) do not.
        package var ambiguous = false
    }

    /// Applies the parameter bytes of one SGR sequence (between `CSI` and `m`).
    @discardableResult
    package mutating func apply(parameters: some Collection<UInt8>) -> Outcome {
        let params = String(decoding: parameters, as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        var outcome = Outcome()
        if params.isEmpty { self = GraphicRendition(); outcome.reset = true; return outcome }
        // After a malformed extended colour, terminals disagree on how many parameters it takes
        // with it (tmux only its selector, xterm up to the whole form), so a later `0` may be a
        // reset in one and a colour value in another: the state stays ambiguous.
        var consumptionUnsure = false
        var i = 0
        while i < params.count {
            let p = params[i]
            let head = p.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
            let code = head.isEmpty ? 0 : (Int(head) ?? -1)
            // Sub-parameters where none belong (`1:2`, a lone `:`): terminals ignore the parameter.
            // (Bytes are tested, not `String.contains(":")`: that is Foundation's substring search.)
            if p.utf8.contains(0x3A) && ![4, 38, 48, 58].contains(code) { outcome.ambiguous = true; i += 1; continue }
            switch code {
            case 0: self = GraphicRendition(); outcome = Outcome(reset: true, ambiguous: consumptionUnsure)
            case 1: set(.bold, p)
            case 2: set(.faint, p)
            case 3: set(.italic, p)
            case 4:
                // 4:0 … 4:5 select the underline style (kitty, VTE, tmux); other styles are ignored,
                // as those terminals do. xterm has no underline styles: after `4:3` it draws no
                // text until a reset (xterm 379), so any colon form is one terminals read differently.
                let style = p.split(separator: ":", omittingEmptySubsequences: false).dropFirst().first.map { $0.isEmpty ? 0 : Int($0) ?? -1 } ?? 1
                if (0...5).contains(style) { set(.underline, style == 0 ? nil : p) }
                if p.contains(":") { outcome.ambiguous = true }
            case 5, 6: set(.blink, p)
            case 7: set(.reverse, p)
            case 8: set(.conceal, p)
            case 9: set(.strike, p)
            case 10: set(.font, nil)
            case 11...20: set(.font, p)
            case 21: set(.underline, p)
            case 22: set(.bold, nil); set(.faint, nil)
            case 23: set(.italic, nil)
            case 24: set(.underline, nil)
            case 25: set(.blink, nil)
            case 26: set(.proportional, p)
            case 27: set(.reverse, nil)
            case 28: set(.conceal, nil)
            case 29: set(.strike, nil)
            case 30...37, 90...97: set(.foreground, p)
            case 39: set(.foreground, nil)
            case 40...47, 100...107: set(.background, p)
            case 49: set(.background, nil)
            case 50: set(.proportional, nil)
            case 51, 52: set(.frame, p)
            case 53: set(.overline, p)
            case 54: set(.frame, nil)
            case 55: set(.overline, nil)
            case 60...64: set(.ideogram, p)
            case 65: set(.ideogram, nil)
            case 73, 74: set(.script, p)
            case 75: set(.script, nil)
            case 38, 48, 58:
                // Extended colours (ITU T.416 §13.1.8, xterm ctlseqs): `38:5:n`, `38:2:r:g:b`,
                // `38:2:cs:r:g:b` with colon sub-parameters, or `38;5;n` and `38;2;r;g;b` taking the
                // following parameters with them. Any other form (an empty, missing or out-of-range
                // value, an unknown selector, other sub-parameter counts) is read differently by
                // terminals (tmux ignores `38:2::1::3`, reads `38;2;1;;3` as bold, reset, italic,
                // and `38;5;` as the default colour; xterm reads empty values as 0): ambiguous.
                let slot: Slot = code == 38 ? .foreground : code == 48 ? .background : .underlineColor
                // xterm has no underline colour: it reads `58;5;9` as 58 (ignored), blink and strike,
                // and draws no text after `58:2::255:0:0` (xterm 379), where kitty, VTE and tmux set
                // the colour. Every form of 58 is one terminals read differently.
                if code == 58 { outcome.ambiguous = true }
                if p.utf8.contains(0x3A) {  // ":"
                    if Self.parsedColor(p) != nil { set(slot, p) } else { outcome.ambiguous = true }
                } else {
                    if code == 58 { consumptionUnsure = true }
                    let kind = i + 1 < params.count ? params[i + 1] : ""
                    let take = kind == "5" ? 2 : kind == "2" ? 4 : (i + 1 < params.count ? 1 : 0)
                    let end = min(params.count - 1, i + take)
                    let form = params[i...end].joined(separator: ";")
                    if take > 1 && end == i + take && Self.parsedColor(form) != nil {
                        set(slot, form)
                    } else {
                        outcome.ambiguous = true
                        consumptionUnsure = true
                    }
                    i = end
                }
            case 59: set(.underlineColor, nil)
            default:
                if unknown.count < 32 { unknown.append(p) }
                outcome.ambiguous = true
            }
            i += 1
        }
        return outcome
    }

    private mutating func set(_ slot: Slot, _ value: String?) { slots[slot.rawValue] = value }

    /// The parameters that rebuild this state after a reset, joined with `;` (empty when default).
    package func render() -> String {
        (slots.compactMap { $0 } + unknown).joined(separator: ";")
    }

    /// This state with the foreground replaced by `color` (nil = keep), plus SGR 2 when `faint`.
    func replacingForeground(with parameter: String?, faint: Bool = false) -> GraphicRendition {
        var copy = self
        if let parameter { copy.slots[Slot.foreground.rawValue] = parameter }
        if faint { copy.slots[Slot.faint.rawValue] = "2" }
        return copy
    }

    /// The foreground the input asked for (30–37, 90–97, 38;5;n, 38;2;r;g;b and colon forms).
    package var foreground: TerminalColor { Self.color(slots[Slot.foreground.rawValue]) }
    /// The background the input asked for.
    package var background: TerminalColor { Self.color(slots[Slot.background.rawValue]) }

    /// Whether text in this state is in the terminal's default colours (foreground and
    /// background, not reversed or concealed), where markdown styles may go on top of it.
    package var hasDefaultColors: Bool {
        slots[Slot.foreground.rawValue] == nil && slots[Slot.background.rawValue] == nil
            && slots[Slot.reverse.rawValue] == nil && slots[Slot.conceal.rawValue] == nil
    }

    /// Whether cells in this state may fade: not reverse video, concealed or faint (docs/input.md#what-is-not-faded).
    package var allowsFade: Bool {
        slots[Slot.reverse.rawValue] == nil && slots[Slot.conceal.rawValue] == nil && slots[Slot.faint.rawValue] == nil
    }

    /// Whether this state differs from `other` only in its foreground.
    func differsOnlyInForeground(from other: GraphicRendition) -> Bool {
        guard unknown == other.unknown else { return false }
        for slot in Slot.allCases where slot != .foreground && slots[slot.rawValue] != other.slots[slot.rawValue] {
            return false
        }
        return true
    }

    var foregroundParameter: String? { slots[Slot.foreground.rawValue] }

    /// Whether a colour of this state is a 24-bit one (foreground, background or underline).
    package var usesTrueColor: Bool {
        [Slot.foreground, .background, .underlineColor].contains { slot in
            if case .rgb = Self.color(slots[slot.rawValue]) { return true }
            return false
        }
    }

    static func color(_ parameter: String?) -> TerminalColor {
        guard let parameter else { return .default }
        return parsedColor(parameter) ?? .default
    }

    /// The colour one stored parameter selects; nil when it is not a well-formed colour (then
    /// terminals disagree on what it does, see `apply`).
    static func parsedColor(_ parameter: String) -> TerminalColor? {
        guard let code = Int(parameter.prefix { $0 != ";" && $0 != ":" }) else { return nil }
        switch code {
        case 30...37: return .indexed(UInt8(code - 30))
        case 90...97: return .indexed(UInt8(code - 90 + 8))
        case 40...47: return .indexed(UInt8(code - 40))
        case 100...107: return .indexed(UInt8(code - 100 + 8))
        case 38, 48, 58:
            // 38;5;n / 38:5:n, 38;2;r;g;b / 38:2:r:g:b / 38:2:cs:r:g:b (cs, the colour space, may be
            // empty). Every value must be present and 0–255.
            let isColon = !parameter.utf8.contains(0x3B)  // no ";"
            let fields = parameter.split(separator: isColon ? ":" : ";", omittingEmptySubsequences: false)
            func value(_ i: Int) -> UInt8? { i < fields.count ? UInt8(fields[i]) : nil }
            guard fields.count >= 3 else { return nil }
            switch fields[1] {
            case "5":
                guard fields.count == 3, let n = value(2) else { return nil }
                return .indexed(n)
            case "2":
                let first: Int
                switch fields.count {
                case 5: first = 2
                case 6 where isColon && fields[2].allSatisfy(\.isNumber): first = 3
                default: return nil
                }
                guard let r = value(first), let g = value(first + 1), let b = value(first + 2) else { return nil }
                return .rgb(RGB(r, g, b))
            default:
                return nil
            }
        default: return nil
        }
    }
}
