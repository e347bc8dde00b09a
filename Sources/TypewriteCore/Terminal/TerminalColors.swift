// The terminal's answer to a colour query: what to send and how to read the reply. The query
// itself is made by the driver's event loop (`TerminalQuery` in Sources/TypewriteCLI/TerminalQuery.swift).

/// The terminal's default colours, as reported to OSC 10 / OSC 11 queries (xterm ctlseqs).
public struct TerminalColors: Equatable, Sendable {
    /// The default foreground (OSC 10), nil when not reported.
    public var foreground: RGB?
    /// The default background (OSC 11), nil when not reported.
    public var background: RGB?
    /// Palette entries the terminal reported (OSC 4), by index.
    public var palette: [UInt8: RGB] = [:]

    /// The query: `OSC 10 ; ? BEL`, `OSC 11 ; ? BEL`, then DA1 (`CSI c`) as a sentinel — every
    /// terminal answers DA1, so a DA1 reply before a colour reply means the terminal does not
    /// support the query (xterm ctlseqs).
    public static let request = request(palette: [])

    /// The query with `OSC 4 ; n ; ? BEL` for each palette entry in `palette` before the DA1
    /// sentinel (the entries markdown styles use, `MarkdownAppearance.paletteIndices`).
    public static func request(palette: [UInt8]) -> [UInt8] {
        Array(("\u{1B}]10;?\u{7}\u{1B}]11;?\u{7}" + palette.map { "\u{1B}]4;\($0);?\u{7}" }.joined() + "\u{1B}[c").utf8)
    }

    /// Colours a host knows (from its own query, or its configuration); nil for unknown.
    public init(foreground: RGB? = nil, background: RGB? = nil, palette: [UInt8: RGB] = [:]) {
        self.foreground = foreground
        self.background = background
        self.palette = palette
    }

    /// Whether `reply` holds the DA1 answer (`CSI ? … c`) that ends the terminal's replies.
    public static func hasDeviceAttributes(_ reply: [UInt8]) -> Bool {
        // CSI ? … c
        guard let esc = reply.lastIndex(of: 0x1B), esc + 2 < reply.count, reply[esc + 1] == 0x5B, reply[esc + 2] == 0x3F else { return false }
        return reply[esc...].contains(0x63)
    }

    /// Parses `OSC 10|11 ; rgb:RRRR/GGGG/BBBB (BEL|ST)` and `OSC 4 ; n ; rgb:…` replies (1–4 hex
    /// digits per channel).
    public static func parse(_ reply: [UInt8]) -> TerminalColors {
        let text = String(decoding: reply, as: UTF8.self)
        var colors = TerminalColors()
        for (code, keyPath) in [("10", \TerminalColors.foreground), ("11", \TerminalColors.background)] {
            guard let r = text.range(of: "\u{1B}]\(code);rgb:") else { continue }
            colors[keyPath: keyPath] = color(text[r.upperBound...])
        }
        var rest = text[...]
        while let r = rest.range(of: "\u{1B}]4;") {
            rest = rest[r.upperBound...]
            let index = rest.prefix { $0 != ";" }
            guard let n = UInt8(index), rest.dropFirst(index.count).hasPrefix(";rgb:") else { continue }
            colors.palette[n] = color(rest.dropFirst(index.count + 5))
        }
        return colors
    }

    /// `RRRR/GGGG/BBBB` up to BEL or ESC, as 8-bit channels.
    private static func color(_ text: Substring) -> RGB? {
        let body = text.prefix { $0 != "\u{7}" && $0 != "\u{1B}" }
        let parts = body.split(separator: "/")
        guard parts.count == 3 else { return nil }
        let channels = parts.compactMap { part -> UInt8? in
            guard (1...4).contains(part.count), let v = UInt32(part, radix: 16) else { return nil }
            let max = (UInt32(1) << (4 * UInt32(part.count))) - 1
            return UInt8((v * 255 + max / 2) / max)
        }
        return channels.count == 3 ? RGB(channels[0], channels[1], channels[2]) : nil
    }
}

#if canImport(Foundation)
import Foundation  // String.range(of:)
#endif
