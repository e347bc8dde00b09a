import FuzzSupport
@testable import TypewriteCore

/// NDJSONDecoder, with limits small enough for fuzz inputs to reach them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    fuzzDecoder(data, size) { NDJSONDecoder(maxLineBytes: 300, maxBodyBytes: 200) }
    return 0
}
