// Character classes of CommonMark 0.31.2, section 2.1, over UTF-8 bytes.

enum MarkdownCharacters {
    static func isSpaceOrTab(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }

    static func isLineEnding(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }

    /// Whether `b` ends a link destination that is not in `<…>`, or a bare URL: a space, tab or
    /// line ending. Other control characters (ESC, BEL, DEL…) stay in it, as cmark-gfm reads them,
    /// so a destination holding one is not safe (`MarkdownLink.destination`) and links nothing —
    /// rather than a link to what came before it.
    static func endsBareDestination(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }

    /// ASCII punctuation: the characters a backslash can escape (CommonMark 0.31.2, 2.4).
    static func isASCIIPunctuation(_ b: UInt8) -> Bool {
        (b >= 0x21 && b <= 0x2F) || (b >= 0x3A && b <= 0x40) || (b >= 0x5B && b <= 0x60) || (b >= 0x7B && b <= 0x7E)
    }

    static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    static func isASCIILetter(_ b: UInt8) -> Bool { (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) }

    /// How a neighbouring character counts for the flanking rules (CommonMark 0.31.2, 6.2).
    enum Flank { case whitespace, punctuation, other }

    /// Unicode whitespace (Zs, tab, line feed, form feed, carriage return) counts as whitespace;
    /// Unicode punctuation is general category P or S.
    static func flank(of scalar: Unicode.Scalar) -> Flank {
        let v = scalar.value
        if v < 0x80 {
            let b = UInt8(v)
            if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0C || b == 0x0D { return .whitespace }
            return isASCIIPunctuation(b) ? .punctuation : .other
        }
        switch scalar.properties.generalCategory {
        case .spaceSeparator: return .whitespace
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
             .initialPunctuation, .finalPunctuation, .otherPunctuation,
             .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return .punctuation
        default: return .other
        }
    }

    /// The scalar that ends just before `index` in `bytes`, or nil at the start; an invalid or
    /// truncated sequence reads as a letter.
    static func scalar(before index: Int, in bytes: [UInt8], from lowerBound: Int = 0) -> Unicode.Scalar? {
        guard index > lowerBound else { return nil }
        var start = index - 1
        while start > lowerBound && start > index - 4 && bytes[start] & 0xC0 == 0x80 { start -= 1 }
        return decode(bytes, start, index) ?? "a"
    }

    /// The scalar that starts at `index`, or nil at `end`.
    static func scalar(at index: Int, in bytes: [UInt8], end: Int) -> Unicode.Scalar? {
        guard index < end else { return nil }
        let b = bytes[index]
        let length = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4
        return decode(bytes, index, min(end, index + length)) ?? "a"
    }

    private static func decode(_ bytes: [UInt8], _ start: Int, _ end: Int) -> Unicode.Scalar? {
        var decoder = UTF8()
        var iterator = bytes[start..<end].makeIterator()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }
}
