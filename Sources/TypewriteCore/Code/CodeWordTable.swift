/// What a language's word is: its role, and what it says about the words after it.
struct CodeWordInfo: Hashable, Sendable {
    var role: CodeRole
    /// The next name is a definition (`def`, `class`, `fn`, `func`).
    var definer = false
    /// A type or a declaration modifier (`int`, `static`, `public`): a name after it that is
    /// followed by `(` declares a function in languages whose functions are named so (C, Java).
    var declarator = false
    /// The next name is a variable's or a namespace's, plain whatever it is elsewhere
    /// (`let sorted`, `val data`, `mod tests`).
    var binder = false
    /// A modifier that is a keyword only before a declaration (Kotlin's `data class`, `open fun`;
    /// `data` elsewhere is a name).
    var modifier = false

    static let keyword = CodeWordInfo(role: .keyword)
    static let builtin = CodeWordInfo(role: .builtin)
    static let definition = CodeWordInfo(role: .definition)
    static let definer = CodeWordInfo(role: .keyword, definer: true)
    static let type = CodeWordInfo(role: .keyword, declarator: true)
    static let binder = CodeWordInfo(role: .keyword, binder: true)
    static let modifier = CodeWordInfo(role: .keyword, modifier: true)
    /// The next name is a constant's (PHP's `const NAME`): a builtin.
    static let constantBinder = CodeWordInfo(role: .keyword, definer: true, binder: true)
}

/// A set of words with what each is, looked up by the bytes of a source word without building a
/// string: open addressing on an FNV-1a hash of the bytes (ASCII-lowercased when the language's
/// words ignore case, as SQL's do).
struct CodeWordTable: Sendable {
    private struct Slot: Sendable {
        var hash: UInt32 = 0
        var start: UInt32 = 0
        var length: UInt16 = 0   // 0: empty
        var info: UInt8 = 0
        /// The word matches only in its own case (a table that ignores case can hold some).
        var exact = false
    }

    /// The words as folded (for finding them), and as written (for the exact ones).
    private var text: [UInt8] = []
    private var written: [UInt8] = []
    private var slots: [Slot]
    private var mask: Int
    let ignoresCase: Bool
    /// The longest word held: longer source words are looked up no further.
    private(set) var longest = 0

    /// - Parameters:
    ///   - groups: space-separated words, each group with what its words are; a word listed twice
    ///     keeps its first meaning.
    ///   - exactGroups: words that match only in their own case, in a table that ignores case
    ///     (PHP's keywords ignore case, its function names do not).
    init(ignoresCase: Bool = false, _ groups: [(String, CodeWordInfo)], exactGroups: [(String, CodeWordInfo)] = []) {
        self.ignoresCase = ignoresCase
        func split(_ groups: [(String, CodeWordInfo)], _ exact: Bool) -> [([UInt8], CodeWordInfo, Bool)] {
            var out: [([UInt8], CodeWordInfo, Bool)] = []
            for (text, info) in groups {
                var word: [UInt8] = []
                for b in text.utf8 {
                    if b == 0x20 || b == 0x0A {
                        if !word.isEmpty { out.append((word, info, exact)); word = [] }
                    } else {
                        word.append(b)
                    }
                }
                if !word.isEmpty { out.append((word, info, exact)) }
            }
            return out
        }
        let words = split(groups, false) + split(exactGroups, true)
        var size = 16
        while size < words.count * 2 { size *= 2 }
        slots = Array(repeating: Slot(), count: size)
        mask = size - 1
        for (word, info, exact) in words { insert(word, info, exact: exact && ignoresCase) }
    }

    @inline(__always) private static func fold(_ b: UInt8, _ ignoresCase: Bool) -> UInt8 {
        ignoresCase && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
    }

    private static func hash(_ bytes: some Sequence<UInt8>, _ ignoresCase: Bool) -> UInt32 {
        var h: UInt32 = 2166136261
        for b in bytes { h = (h ^ UInt32(fold(b, ignoresCase))) &* 16777619 }
        return h
    }

    private mutating func insert(_ word: [UInt8], _ info: CodeWordInfo, exact: Bool) {
        guard !word.isEmpty, find(word[...]) == nil else { return }
        let h = Self.hash(word, ignoresCase)
        var k = Int(h) & mask
        while slots[k].length != 0 { k = (k + 1) & mask }
        slots[k] = Slot(hash: h, start: UInt32(text.count), length: UInt16(word.count), info: Self.pack(info), exact: exact)
        text.append(contentsOf: word.map { Self.fold($0, ignoresCase) })
        written.append(contentsOf: word)
        longest = max(longest, word.count)
    }

    private static func pack(_ info: CodeWordInfo) -> UInt8 {
        info.role.rawValue | (info.binder ? 0x10 : 0) | (info.modifier ? 0x20 : 0) | (info.definer ? 0x40 : 0) | (info.declarator ? 0x80 : 0)
    }

    private static func unpack(_ v: UInt8) -> CodeWordInfo {
        CodeWordInfo(role: CodeRole(rawValue: v & 0x0F) ?? .plain, definer: v & 0x40 != 0, declarator: v & 0x80 != 0,
                     binder: v & 0x10 != 0, modifier: v & 0x20 != 0)
    }

    /// What `word` is, or nil for a word not in the table.
    func find(_ word: ArraySlice<UInt8>) -> CodeWordInfo? {
        word.withUnsafeBufferPointer { lookup($0, 0..<$0.count) }
    }

    /// What the bytes `range` of `source` are, or nil for a word not in the table.
    @inline(__always)
    func lookup(_ source: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> CodeWordInfo? {
        let n = range.count
        guard n > 0 && n <= longest else { return nil }
        var h: UInt32 = 2166136261
        for i in range { h = (h ^ UInt32(Self.fold(source[i], ignoresCase))) &* 16777619 }
        var k = Int(h) & mask
        while true {
            let slot = slots[k]
            if slot.length == 0 { return nil }
            if slot.hash == h && Int(slot.length) == n {
                var same = true
                var t = Int(slot.start)
                for i in range {
                    if (slot.exact ? source[i] != written[t] : Self.fold(source[i], ignoresCase) != text[t]) { same = false; break }
                    t += 1
                }
                if same { return Self.unpack(slot.info) }
            }
            k = (k + 1) & mask
        }
    }
}
