import TypewriteCore

Runner.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: System.environment())
