// markdown-spans: the highlighter's settled styles of markdown files, for Scripts/check/markdown-oracle-check.py.
// Built together with Sources/TypewriteCore/Markdown/*.swift and Code/*.swift (they need only the
// standard library):
//   swiftc -O Sources/TypewriteCore/Markdown/*.swift Sources/TypewriteCore/Code/*.swift \
//       Scripts/check/markdown-spans/main.swift -o /tmp/markdown-spans
// Usage: markdown-spans [--pieces SEED] [--bench REPEAT] FILE...
//   prints, per file, one JSON line {"file", "bytes", "restyled", "runs": [[start, end, style], ...]};
//   --pieces feeds each file in random pieces of 1 to 40 bytes (--max-piece N), seeded, else whole;
//   --words feeds it in pieces like a model's tokens (a word with its space, a run of punctuation);
//   --explain prints each restyle instead (old style -> new style and where);
//   --bench feeds each file REPEAT times in pieces and prints nanoseconds per byte instead;
//   --links prints the settled links instead: {"file", "links": [[[start, end], ...], kind, href,
//   destination]} with `href` the encoded destination even when it is not safe, `destination`
//   the one reported (null when unsafe), for Scripts/check/markdown-links-check.py.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func readFile(_ path: String) -> [UInt8] {
    guard let f = fopen(path, "rb") else { fputs("cannot read \(path)\n", stderr); exit(1) }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

struct Generator { var state: UInt64; mutating func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 } }

func pieces(_ n: Int, seed: UInt64?, maximum: Int = 40) -> [Range<Int>] {
    guard let seed else { return [0..<n] }
    var g = Generator(state: seed)
    var out: [Range<Int>] = []
    var i = 0
    while i < n { let k = min(n - i, 1 + Int(g.next() % UInt64(maximum))); out.append(i..<(i + k)); i += k }
    return out
}

/// Pieces like a model's tokens: a word with the space before it, or a run of punctuation.
func wordPieces(_ data: [UInt8]) -> [Range<Int>] {
    func isWord(_ b: UInt8) -> Bool { (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || b >= 0x80 }
    var out: [Range<Int>] = []
    var start = 0
    for i in 1..<max(1, data.count) {
        let a = data[i - 1], b = data[i]
        let boundary = b == 0x20 || b == 0x0A || a == 0x0A || (isWord(a) != isWord(b) && a != 0x20)
        if boundary { out.append(start..<i); start = i }
    }
    if start < data.count { out.append(start..<data.count) }
    return out
}

func now() -> UInt64 { var t = timespec(); clock_gettime(CLOCK_MONOTONIC, &t); return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec) }

func escape(_ s: String) -> String {
    var o = ""
    for c in s.unicodeScalars {
        switch c { case "\"": o += "\\\""; case "\\": o += "\\\\"; case "\n": o += "\\n"
        default: if c.value < 0x20 { o += "\\u00" + (c.value < 16 ? "0" : "") + String(c.value, radix: 16) } else { o.unicodeScalars.append(c) } }
    }
    return o
}

var args = Array(CommandLine.arguments.dropFirst())
var seed: UInt64? = nil
var bench = 0
var maximum = 40
var explain = false
var words = false
var links = false
while let a = args.first, a.hasPrefix("--") {
    args.removeFirst()
    if a == "--pieces" { seed = UInt64(args.removeFirst())! }
    else if a == "--bench" { bench = Int(args.removeFirst())! }
    else if a == "--max-piece" { maximum = Int(args.removeFirst())! }
    else if a == "--explain" { explain = true }
    else if a == "--words" { words = true }
    else if a == "--links" { links = true }
}
for path in args {
    let data = readFile(path)
    if bench > 0 {
        let cuts = words ? wordPieces(data) : pieces(data.count, seed: seed ?? 1, maximum: maximum)
        let t0 = now()
        var sink = 0
        for _ in 0..<bench {
            var h = MarkdownHighlighter()
            for r in cuts { let u = h.feed(data[r]); sink &+= u.runs.count &+ u.restyles.count }
            sink &+= h.finish().restyles.count
        }
        let ns = Double(now() - t0) / Double(bench) / Double(max(1, data.count))
        print("{\"file\": \"\(escape(path))\", \"bytes\": \(data.count), \"ns_per_byte\": \(ns), \"seconds\": \(Double(now() - t0) / 1e9 / Double(bench)), \"check\": \(sink % 2)}")
        continue
    }
    if links {
        var safe = MarkdownHighlighter(), unsafe = MarkdownHighlighter(keepingUnsafeDestinations: true)
        var safeMap = MarkdownLinkMap(), unsafeMap = MarkdownLinkMap()
        for r in words ? wordPieces(data) : pieces(data.count, seed: seed, maximum: maximum) {
            safeMap.apply(safe.feed(data[r]))
            unsafeMap.apply(unsafe.feed(data[r]))
            for link in safeMap.links { if let d = link.destination, !d.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) { fputs("bad destination\n", stderr); exit(1) } }
        }
        safeMap.apply(safe.finish())
        unsafeMap.apply(unsafe.finish())
        func json(_ s: String?) -> String { s.map { "\"" + escape($0) + "\"" } ?? "null" }
        let reported = Dictionary(safeMap.links.map { ($0.range.lowerBound, $0.destination) }, uniquingKeysWith: { a, _ in a })
        let items = unsafeMap.links.map { link in
            "[[" + link.ranges.map { "[\($0.lowerBound), \($0.upperBound)]" }.joined(separator: ", ") + "], \"\(link.kind)\", "
                + json(link.destination) + ", " + json(reported[link.range.lowerBound] ?? nil) + "]"
        }
        print("{\"file\": \"\(escape(path))\", \"links\": [" + items.joined(separator: ", ") + "]}")
        continue
    }
    var h = MarkdownHighlighter()
    var map = MarkdownStyleMap()
    var languages: [Int: String] = [:]
    func why(_ u: MarkdownUpdate) {
        guard explain else { return }
        for run in u.restyles {
            print("restyle \(run.range.count) \(map[run.range.lowerBound]) -> \(run.style) at \(run.range.lowerBound): " + escape(String(decoding: data[max(0, run.range.lowerBound - 20)..<min(data.count, run.range.upperBound + 5)], as: UTF8.self)))
        }
    }
    for r in words ? wordPieces(data) : pieces(data.count, seed: seed, maximum: maximum) {
        let u = h.feed(data[r])
        why(u)
        map.apply(u)
        for run in u.runs + u.restyles { if let l = run.codeLanguage { languages[run.range.lowerBound] = l } }
    }
    let last = h.finish()
    why(last)
    map.apply(last)
    if explain { continue }
    var out = "{\"file\": \"\(escape(path))\", \"bytes\": \(data.count), \"restyled\": \(h.restyledByteCount), \"runs\": ["
    for (k, run) in map.runs.enumerated() {
        if k > 0 { out += ", " }
        out += "[\(run.range.lowerBound), \(run.range.upperBound), \"\(run.style)\"]"
    }
    print(out + "]}")
}
