#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCore

// The poll driver's hold on the terminal's modes while it animates: NOFLSH and the echo
// (`docs/terminals.md#the-ttys-echo`, `docs/terminals.md#typed-keys`). See PollDriver.swift.

extension PollDriver {
    /// While the fade runs on the controlling terminal, the tty keeps what typewrite wrote when a
    /// key sends a signal (NOFLSH): else it discards frames the terminal had not read yet, and
    /// typewrite, writing on after Ctrl-C or Ctrl-Z, would continue after a gap. Unless the text
    /// is read from that terminal, its echo is off meanwhile: typed keys wait for the shell instead
    /// of landing inside the text (`docs/terminals.md#typed-keys`). Only in the terminal's
    /// foreground (a background process changing the settings is stopped by SIGTTOU).
    /// Tried again every `foregroundCheckInterval` while it holds nothing (bash's `fg` sends no
    /// signal to a job that was running in the background), and on SIGCONT, after a stop
    /// typewrite did not see: set again where the shell put its own modes back.
    mutating func keepQueues(_ session: Session) {
        // Under `--exec` with the keys' terminal in raw mode no key sends a signal, and nothing echoes.
        guard exec?.keysAreTerminal != true,
              session.isAnimated, setup.signals != nil, System.isControllingTerminal(setup.output),
              System.isForegroundProcessGroup(setup.output) else { return }
        if let kept = keptQueues {
            keptQueues = System.keepQueuesAgain(setup.output, kept, quietEcho: !readsTerminal)
        } else {
            keptQueues = System.keepQueuesOnSignalKeys(setup.output, quietEcho: !readsTerminal)
        }
    }

    /// Whether an input is the terminal itself (`-` with standard input a terminal): the user
    /// types the text, and sees it as typed.
    private var readsTerminal: Bool {
        setup.inputs.contains { if case .file("-") = $0 { System.isTerminal(System.standardInput) } else { false } }
    }

    /// Puts NOFLSH and the echo back as they were; after a key's signal, first discards the keys
    /// typed before it, as the tty would have without NOFLSH.
    /// In the background that would stop typewrite (SIGTTOU); the shell owns the modes then.
    mutating func releaseQueues(discardTypedAhead: Bool) {
        guard let kept = keptQueues else { return }
        keptQueues = nil
        guard System.isForegroundProcessGroup(setup.output) else { return }
        System.releaseQueuesOnSignalKeys(setup.output, kept, discardTypedAhead: discardTypedAhead)
    }
}
