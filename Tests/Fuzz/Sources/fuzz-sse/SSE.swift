import FuzzSupport
@testable import TypewriteCore

/// SSEDecoder, with limits small enough for fuzz inputs to reach them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSE(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { SSEDecoder(maxEventBytes: 300, maxBodyBytes: 200) }
    return 0
}
