/// How many colours the fade may use (`docs/colour.md#colour-depth`).
package enum ColorDepth: String, Sendable, CaseIterable {
    /// No escape sequences from typewrite at all: text is paced, never repainted.
    case none
    /// The 16 theme colours: the fade is SGR 2 (faint), then normal.
    case basic16
    /// The xterm 256-colour palette (cube and grey ramp).
    case palette256
    /// 24-bit colour.
    case trueColor
}

/// The colours a fading cell passes through, from near the background to its target.
///
/// A cell's opacity (0…1, from the pacing engine) is quantized to one of `levels` steps; each step
/// mixes background and target in OKLab, starting `startFraction` of the way (15 %,
/// `docs/colour.md#the-fades-colours`), so new text never flashes from pure background.
struct ColorRamp: Sendable {
    /// A painted colour: `settled` is the cell's own final style; other values are depth-specific
    /// (24-bit RGB packed as 0xRRGGBB, a 256-colour index, or 1 for faint).
    typealias Code = Int32
    static let settled: Code = -1
    static let startFraction = 0.15

    let depth: ColorDepth
    let levels: Int
    private var cache: [Key: [Code]] = [:]

    private struct Key: Hashable { var from: RGB, to: RGB }

    init(depth: ColorDepth, levels: Int) {
        self.depth = depth
        self.levels = max(1, levels)
    }

    /// The code for `opacity` on a cell fading from `background` to `target`.
    ///
    /// `phase` (0 ≤ phase < 1) shifts where this cell's steps fall. Cells at consecutive indices get
    /// different phases (`phase(ofClusterAt:)`), so as the front moves their steps happen at
    /// different moments and every frame has something to draw, instead of all cells stepping
    /// together once per character: a smoother fade for the same number of bytes. An older cell
    /// (index i) is never darker than a newer one (i + 1): its opacity is higher by 1/fade, which
    /// is at least one step, and a phase adds less than one step.
    mutating func code(opacity: Double, from background: RGB, to target: RGB, phase: Double = 0) -> Code {
        code(level: level(opacity: opacity, phase: phase), from: background, to: target)
    }

    /// The step for `opacity`: 0 …< `levels` while fading, `levels` once settled.
    func level(opacity: Double, phase: Double = 0) -> Int {
        if opacity >= 1 || depth == .none { return levels }
        return min(levels - 1, max(0, Int(opacity * Double(levels) + phase)))
    }

    /// The colour of step `level` (`levels` and above: settled).
    mutating func code(level: Int, from background: RGB, to target: RGB) -> Code {
        if level >= levels { return Self.settled }
        switch depth {
        case .none: return Self.settled
        case .basic16: return 1
        case .palette256, .trueColor:
            let key = Key(from: background, to: target)
            let ramp = cache[key] ?? makeRamp(key)
            return ramp[max(0, level)]
        }
    }

    /// A well-spread phase for the cluster at `index`: the fractional part of index × the golden ratio.
    static func phase(ofClusterAt index: Int) -> Double {
        let x = Double(index % 1_000_003) * 0.618_033_988_749_895
        return x - x.rounded(.down)
    }

    private mutating func makeRamp(_ key: Key) -> [Code] {
        let ramp: [Code] = (0..<levels).map { level in
            let t = Self.startFraction + (1 - Self.startFraction) * Double(level) / Double(levels)
            let mixed = Self.mix(key.from, key.to, t)
            switch depth {
            case .palette256: return Code(Self.nearestPaletteIndex(mixed))
            default: return Code(mixed.red) << 16 | Code(mixed.green) << 8 | Code(mixed.blue)
            }
        }
        cache[key] = ramp
        return ramp
    }

    /// The SGR parameters that select `code` as the foreground.
    func foregroundParameter(_ code: Code) -> String {
        switch depth {
        case .palette256: return "38;5;\(code)"
        default: return "38;2;\(code >> 16 & 0xFF);\(code >> 8 & 0xFF);\(code & 0xFF)"
        }
    }

    /// Mix of two sRGB colours `t` of the way from `a` to `b` in OKLab (Björn Ottosson, 2020), whose
    /// lightness is perceptually uniform: equal steps of `t` look like equal steps of the fade, and
    /// 15 % really is near the background.
    static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        let x = OKLab(a), y = OKLab(b)
        return OKLab(l: x.l + (y.l - x.l) * t, a: x.a + (y.a - x.a) * t, b: x.b + (y.b - x.b) * t).rgb
    }

    /// The xterm 256-colour entry nearest to `c` (cube 16–231 or grey ramp 232–255).
    static func nearestPaletteIndex(_ c: RGB) -> UInt8 {
        func cubeLevel(_ v: UInt8) -> Int {
            let levels = RGB.cubeLevels
            var best = 0
            for i in 1..<levels.count where abs(Int(levels[i]) - Int(v)) < abs(Int(levels[best]) - Int(v)) { best = i }
            return best
        }
        func distance(_ x: RGB) -> Int {
            let dr = Int(x.red) - Int(c.red), dg = Int(x.green) - Int(c.green), db = Int(x.blue) - Int(c.blue)
            return dr * dr * 3 + dg * dg * 4 + db * db * 2
        }
        let cube = UInt8(16 + 36 * cubeLevel(c.red) + 6 * cubeLevel(c.green) + cubeLevel(c.blue))
        let average = (Int(c.red) + Int(c.green) + Int(c.blue)) / 3
        let greyStep = max(0, min(23, (average - 8 + 5) / 10))
        let grey = UInt8(232 + greyStep)
        return distance(RGB.xterm(grey)) < distance(RGB.xterm(cube)) ? grey : cube
    }
}

/// A colour in the OKLab space.
struct OKLab {
    var l: Double, a: Double, b: Double

    init(l: Double, a: Double, b: Double) { self.l = l; self.a = a; self.b = b }

    init(_ c: RGB) {
        func linear(_ v: UInt8) -> Double {
            let x = Double(v) / 255
            return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4)
        }
        let r = linear(c.red), g = linear(c.green), bl = linear(c.blue)
        let lms = (cbrt(0.4122214708 * r + 0.5363325363 * g + 0.0514459929 * bl),
                   cbrt(0.2119034982 * r + 0.6806995451 * g + 0.1073969566 * bl),
                   cbrt(0.0883024619 * r + 0.2817188376 * g + 0.6299787005 * bl))
        l = 0.2104542553 * lms.0 + 0.7936177850 * lms.1 - 0.0040720468 * lms.2
        a = 1.9779984951 * lms.0 - 2.4285922050 * lms.1 + 0.4505937099 * lms.2
        b = 0.0259040371 * lms.0 + 0.7827717662 * lms.1 - 0.8086757660 * lms.2
    }

    var rgb: RGB {
        let l1 = l + 0.3963377774 * a + 0.2158037573 * b
        let m1 = l - 0.1055613458 * a - 0.0638541728 * b
        let s1 = l - 0.0894841775 * a - 1.2914855480 * b
        let (l3, m3, s3) = (l1 * l1 * l1, m1 * m1 * m1, s1 * s1 * s1)
        func encoded(_ x: Double) -> UInt8 {
            let c = x <= 0.0031308 ? x * 12.92 : 1.055 * pow(max(0, x), 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (c * 255).rounded())))
        }
        return RGB(encoded(4.0767416621 * l3 - 3.3077115913 * m3 + 0.2309699292 * s3),
                   encoded(-1.2684380046 * l3 + 2.6097574011 * m3 - 0.3413193965 * s3),
                   encoded(-0.0041960863 * l3 - 0.7034186147 * m3 + 1.7076147010 * s3))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
