import Foundation
import TypewriteCore

/// One input named on the command line, opened as a `FileHandle` and read with `poll` + `read(2)`:
/// never blocking, never changing the descriptor's `O_NONBLOCK` flag (it lives on the open file
/// description shared with the shell: `docs/input.md#non-blocking-descriptors`), and clean at end of file, unlike
/// `availableData` or read sources on Linux.
struct InputFile {
    let handle: FileHandle
    /// The name as given ("-" for standard input), for messages.
    let name: String
    var descriptor: Int32 { handle.fileDescriptor }

    /// Opens `name`; "-" is standard input.
    /// - Throws: `SystemError` from `open(2)` (ENOENT, EACCES, EISDIR …).
    static func open(_ name: String) throws(SystemError) -> InputFile {
        if name == "-" { return InputFile(handle: FileHandle.standardInput, name: name) }
        let fd = try System.openForReading(name)
        return InputFile(handle: FileHandle(fileDescriptor: fd, closeOnDealloc: true), name: name)
    }

    /// The master of the pseudo-terminal `--exec` runs its command on (its owner closes it).
    static func pseudoTerminal(_ master: Int32, name: String) -> InputFile {
        InputFile(handle: FileHandle(fileDescriptor: master, closeOnDealloc: false), name: name)
    }
}
