@testable import TypewriteCore

/// Runs the properties every `StreamDecoder` promises on one fuzz input:
/// - the events are the same however the input is cut into reads (whole, a chunking derived from
///   the input, and byte by byte for short inputs);
/// - the text shown never holds more bytes than came in (nothing duplicated or invented), and is
///   valid UTF-8 (whole code points);
/// - malformed events name nondecreasing 1-based line numbers;
/// - `finish()` returns the decoder to its initial state: decoding the input again gives the same.
///
/// `make` builds a fresh decoder, with small limits so that they are reached by small inputs.
/// A new decoder's target is one call: `fuzzDecoder(data, size) { MyDecoder(maxLineBytes: 300) }`.
public func fuzzDecoder<D: StreamDecoder>(_ data: UnsafePointer<UInt8>?, _ size: Int, make: () -> D) {
    let bytes = fuzzBytes(data, size)
    var whole = make()
    let reference = whole.feed(bytes) + whole.finish()
    // The same decoder again after finish(): back in its initial state.
    let again = whole.feed(bytes) + whole.finish()
    fuzzCheck(again == reference, "decoding again after finish() gives the same events",
              "input: \(fuzzDescribe(bytes))\nfirst: \(reference)\nagain: \(again)")

    var rng = FuzzRNG(hashing: bytes)
    var chunkings = [FuzzChunking.cuts(bytes, &rng), FuzzChunking.cuts(bytes, &rng)]
    if bytes.count <= 256 { chunkings.append(Array(1..<max(1, bytes.count))) }
    for cuts in chunkings {
        var decoder = make()
        var events: [StreamEvent] = []
        for piece in FuzzChunking.split(bytes, at: cuts) { events += decoder.feed(piece) }
        events += decoder.finish()
        fuzzCheck(events == reference, "the same events for any chunking",
                  "input: \(fuzzDescribe(bytes))\ncuts: \(cuts)\nwhole: \(reference)\nchunked: \(events)")
    }

    var textBytes = 0
    var lastLine = 0
    for event in reference {
        switch event {
        case .text(let text), .reasoning(let text):
            textBytes += text.count
            fuzzCheck(String(validating: text, as: UTF8.self) != nil, "text events are valid UTF-8",
                      "input: \(fuzzDescribe(bytes))\ntext: \(fuzzDescribe(text))")
        case .malformed(let line, _), .notJSON(let line, _):
            fuzzCheck(line >= 1 && line >= lastLine, "malformed events name nondecreasing line numbers",
                      "input: \(fuzzDescribe(bytes))\nevents: \(reference)")
            lastLine = line
        case .remoteError, .end:
            break
        }
    }
    fuzzCheck(textBytes <= bytes.count, "no more text out than bytes in",
              "input: \(fuzzDescribe(bytes))\n\(textBytes) text bytes from \(bytes.count)")
}
