import TypewriteCore

/// The built-in demo: a question and an answer streamed the way a language model sends tokens,
/// 2–6 words every 120–380 ms (`docs/design.md#the-demo`), from a fixed seed so every run is the same.
package struct DemoScript: Sendable {
    package static let question = "How do tide pools survive low tide?"
    /// Markdown, as models answer: typewrite highlights it (`--markdown`, on for the demo).
    package static let answer = """
        When the sea pulls back, a tide pool becomes a **small island of water** that has to last \
        until the next high tide. Its residents close up to wait:

        - *Anemones* fold their tentacles inward.
        - **Mussels** and barnacles seal their shells with a little seawater inside.
        - Snails tuck into crevices where the rock stays damp.

        ## Why the highest pools are hardest

        The pool warms in the sun and its salt grows stronger as water evaporates, so the \
        animals that live highest on the shore are the toughest: a `salinity` that doubles \
        in an afternoon is normal there.

        When the tide returns, cold fresh seawater floods in, and everything opens up to feed again.
        """

    /// Bursts in order, each with its delay in seconds after the previous one.
    package let bursts: [(delay: Seconds, bytes: [UInt8])]

    package init(seed: UInt64 = 0x7EA5) {
        var random = SplitMix64(seed: seed)
        // The question in markdown too (strong), so through a pipe the demo is plain text.
        var bursts: [(Seconds, [UInt8])] = [(0, Array("**\(Self.question)**\n\n".utf8))]
        var words = Self.answer.split(separator: " ")[...]
        var first = true
        while !words.isEmpty {
            let delay = Double(120 + random.next() % 261) / 1000
            let take = 2 + Int(random.next() % 5)
            let chunk = words.prefix(take).joined(separator: " ")
            words = words.dropFirst(take)
            bursts.append((delay, Array(((first ? "" : " ") + chunk).utf8)))
            first = false
        }
        bursts.append((0.05, [0x0A]))
        self.bursts = bursts
    }
}
