/// The memory typewrite may hold for text received and not yet shown, and every holding cap
/// derived from it (`docs/design.md#memory`). One number a host sets (`Typewriter.Settings`);
/// the caps below follow it. Limits of the wire formats (the longest SSE event or NDJSON line)
/// and of the terminal's syntax (the longest escape sequence held, `Tokenizer.holdingLimit`) are
/// not memory policy and stay what they are.
package struct MemoryBudget: Sendable, Equatable {
    /// The budget, in bytes: the input bytes waiting and the tokens that describe them.
    package var bytes: Int

    package init(bytes: Int) { self.bytes = bytes }

    /// 16 MiB: a 10 MiB burst of prose is taken in at once, and the peak resident memory of the
    /// command on any flood, and of a library host writing 200 MiB, stays under 64 MiB (measured
    /// with `Scripts/bench/bench.sh` and `Scripts/check/library-check.sh`).
    package static let standard = MemoryBudget(bytes: 16 << 20)

    /// Held text above which reading pauses (the command) and writers wait (`Typewriter`): the
    /// whole budget.
    package var heldText: Int { bytes }
    /// Held text above which the oldest of it is written at once, settled, down to half of this
    /// (the flood rule, with a finite maximum lag): below where reading pauses, so a flood never
    /// makes the producer wait.
    package var settleAbove: Int { bytes * 2 / 3 }
    /// Most bytes one frame writes before it leaves the rest to the next frame.
    package var frameBytes: Int { max(64 << 10, bytes / 4) }
    /// Text the collapsed view holds beyond its rows before it expands by itself.
    package var collapsedText: Int { bytes * 2 / 3 }
    /// Longest open markdown text (a paragraph with no blank line) the highlighter keeps before it
    /// starts a new document there.
    package var openMarkdownText: Int { min(1 << 20, max(4 << 10, bytes / 256)) }
    /// Output a library host's sink has not taken yet above which a writer waits.
    package var queuedOutput: Int { max(64 << 10, bytes / 4) }
}
