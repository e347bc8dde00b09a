#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TypewriteCLI
import TypewriteCore

// The executable's front end: the only place that exits or dies by a signal.
let hooks = ProcessHooks(installSignalPipe: ProcessSignals.install, suspend: ProcessSignals.suspend)
switch Runner.run(arguments: Array(CommandLine.arguments.dropFirst()), environment: System.environment(), hooks: hooks) {
case .exit(let status):
    exit(status)
case .signal(let signo):
    ProcessSignals.die(by: signo)
}
