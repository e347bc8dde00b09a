import Testing
@testable import TypewriteCore

@Suite("ColorRamp")
struct ColorRampTests {
    @Test("OKLab mix keeps its endpoints and round-trips sRGB")
    func endpoints() {
        let a = RGB(0, 0, 0), b = RGB(208, 208, 208)
        #expect(ColorRamp.mix(a, b, 0) == a)
        #expect(ColorRamp.mix(a, b, 1) == b)
        for c in [RGB(205, 0, 0), RGB(92, 92, 255), RGB(12, 200, 130)] {
            let back = ColorRamp.mix(c, c, 0.5)
            #expect(abs(Int(back.red) - Int(c.red)) <= 1 && abs(Int(back.green) - Int(c.green)) <= 1 && abs(Int(back.blue) - Int(c.blue)) <= 1)
        }
    }

    @Test("the 24-bit ramp brightens step by step from near the background", arguments: [ColorDepth.trueColor, .palette256])
    func monotonic(depth: ColorDepth) {
        var ramp = ColorRamp(depth: depth, levels: 10)
        var last = -1
        var distinct = Set<Int32>()
        for step in 0..<10 {
            let code = ramp.code(opacity: (Double(step) + 0.5) / 10, from: RGB(0, 0, 0), to: RGB(208, 208, 208))
            let rgb = depth == .trueColor ? RGB(UInt8(code >> 16 & 0xFF), UInt8(code >> 8 & 0xFF), UInt8(code & 0xFF)) : RGB.xterm(UInt8(code))
            #expect(Int(rgb.green) >= last)
            last = Int(rgb.green)
            distinct.insert(code)
        }
        #expect(distinct.count >= (depth == .trueColor ? 10 : 6))
        #expect(ramp.code(opacity: 1, from: RGB(0, 0, 0), to: RGB(208, 208, 208)) == ColorRamp.settled)
    }

    @Test("nearest xterm palette entry", arguments: [
        (RGB(0, 0, 0), UInt8(16)), (RGB(255, 255, 255), UInt8(231)), (RGB(128, 128, 128), UInt8(244)), (RGB(255, 0, 0), UInt8(196)),
    ])
    func palette(color: RGB, index: UInt8) {
        let got = ColorRamp.nearestPaletteIndex(color)
        let a = RGB.xterm(got), b = RGB.xterm(index)
        // Either the expected entry or one exactly as close.
        #expect(got == index || (a == b))
    }
}
