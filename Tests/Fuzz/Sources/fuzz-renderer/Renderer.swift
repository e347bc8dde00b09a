import FuzzSupport

/// FadeRenderer on a fake clock, judged by the VirtualTerminal against cat (see `fuzzRenderer`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRendererEntry(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzRenderer(data, size)
    return 0
}
