/// How many colours the fade may use (TERMINAL-NOTES §3).
public enum ColorDepth: String, Sendable, CaseIterable {
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
/// mixes background and target in linear light, starting `startFraction` of the way (TERMINAL-NOTES
/// §3: about 15 %), so new text never flashes from pure background.
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
    mutating func code(opacity: Double, from background: RGB, to target: RGB) -> Code {
        if opacity >= 1 { return Self.settled }
        switch depth {
        case .none: return Self.settled
        case .basic16: return 1
        case .palette256, .trueColor:
            let key = Key(from: background, to: target)
            let ramp = cache[key] ?? makeRamp(key)
            let level = min(levels - 1, max(0, Int(opacity * Double(levels))))
            return ramp[level]
        }
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

    /// Linear-light mix of two sRGB colours, `t` of the way from `a` to `b` (IEC 61966-2-1 transfer).
    static func mix(_ a: RGB, _ b: RGB, _ t: Double) -> RGB {
        func linear(_ v: UInt8) -> Double {
            let c = Double(v) / 255
            return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4)
        }
        func encoded(_ l: Double) -> UInt8 {
            let c = l <= 0.0031308 ? l * 12.92 : 1.055 * pow(l, 1 / 2.4) - 0.055
            return UInt8(max(0, min(255, (c * 255).rounded())))
        }
        func channel(_ x: UInt8, _ y: UInt8) -> UInt8 { encoded(linear(x) + (linear(y) - linear(x)) * t) }
        return RGB(channel(a.red, b.red), channel(a.green, b.green), channel(a.blue, b.blue))
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

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#elseif canImport(Musl)
import Musl
#endif
