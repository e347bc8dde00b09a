// Recorded model streams for the decoder tests (StreamFormatRecordedTests.swift), embedded as
// string literals so the test target needs no resources. Each entry names where its bytes came
// from; "indexed as file id N" marks a public GitHub file found through a code index that does
// not give its repository. Entries whose source is documentation or an SDK's reading of a format,
// rather than a capture, start their source with "Not a capture".
//
// The expected answer, reasoning and error were worked out from the source by hand (not by the
// decoder under test).

@testable import TypewriteCore

extension RecordedStream {
    /// Every recorded stream: these, then the captures of CapturedStreams.swift.
    static let all: [RecordedStream] = indexed + captured

    static let indexed: [RecordedStream] = [
        RecordedStream(
            name: "claude-code-partial", format: .ndjson,
            source: "public GitHub test file of a desktop agent app (parser.test.ts, \"lines captured from claude -p --output-format stream-json --verbose --include-partial-messages (Claude Code 2.1.287), trimmed\"; indexed as file id 71595643877), lines in their order",
            body: "{\"type\":\"system\",\"subtype\":\"hook_started\",\"hook_id\":\"cf54\",\"hook_name\":\"SessionStart:startup\",\"hook_event\":\"SessionStart\",\"uuid\":\"6d42\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/tmp/w\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"tools\":[\"Bash\"],\"model\":\"claude-haiku-4-5-20251001\",\"permissionMode\":\"default\",\"claude_code_version\":\"2.1.287\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"status\",\"status\":\"requesting\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"c069\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"thinking_tokens\",\"estimated_tokens\":50,\"estimated_tokens_delta\":50,\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"078c\"}\n"
            + "{\"type\":\"stream_event\",\"event\":{\"type\":\"message_start\",\"message\":{\"model\":\"claude-haiku-4-5-20251001\",\"id\":\"msg_011\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"usage\":{\"input_tokens\":10,\"cache_creation_input_tokens\":17513,\"cache_read_input_tokens\":20088,\"output_tokens\":1}}},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"parent_tool_use_id\":null,\"uuid\":\"a1\"}\n"
            + "{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"\",\"estimated_tokens\":50}},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"parent_tool_use_id\":null,\"uuid\":\"46e2\",\"thinking_display\":\"updates\"}\n"
            + "{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"Hey\"}},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"parent_tool_use_id\":null,\"uuid\":\"f86c\"}\n"
            + "{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_stop\",\"index\":1},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"parent_tool_use_id\":null,\"uuid\":\"5a04\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"model\":\"claude-haiku-4-5-20251001\",\"id\":\"msg_011\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Hey! 👋\"}],\"stop_reason\":null},\"parent_tool_use_id\":null,\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"a2\"}\n"
            + "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":\"allowed\",\"resetsAt\":1790904000,\"rateLimitType\":\"five_hour\"},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"post_turn_summary\",\"status_category\":\"blocked\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"duration_api_ms\":2650,\"stop_reason\":\"end_turn\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"total_cost_usd\":0.0379,\"usage\":{\"input_tokens\":10,\"output_tokens\":176},\"terminal_reason\":\"completed\",\"is_error\":false,\"num_turns\":1,\"subtype\":\"success\",\"result\":\"Hey!\",\"type\":\"result\",\"duration_ms\":3297,\"uuid\":\"0392\"}\n",
            answer: "Hey",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "claude-code-whole", format: .ndjson,
            source: "the same capture without its stream_event lines (what Claude Code prints without --include-partial-messages)",
            body: "{\"type\":\"system\",\"subtype\":\"hook_started\",\"hook_id\":\"cf54\",\"hook_name\":\"SessionStart:startup\",\"hook_event\":\"SessionStart\",\"uuid\":\"6d42\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/tmp/w\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"tools\":[\"Bash\"],\"model\":\"claude-haiku-4-5-20251001\",\"permissionMode\":\"default\",\"claude_code_version\":\"2.1.287\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"status\",\"status\":\"requesting\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"c069\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"thinking_tokens\",\"estimated_tokens\":50,\"estimated_tokens_delta\":50,\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"078c\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"model\":\"claude-haiku-4-5-20251001\",\"id\":\"msg_011\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Hey! 👋\"}],\"stop_reason\":null},\"parent_tool_use_id\":null,\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"uuid\":\"a2\"}\n"
            + "{\"type\":\"rate_limit_event\",\"rate_limit_info\":{\"status\":\"allowed\",\"resetsAt\":1790904000,\"rateLimitType\":\"five_hour\"},\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"type\":\"system\",\"subtype\":\"post_turn_summary\",\"status_category\":\"blocked\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\"}\n"
            + "{\"duration_api_ms\":2650,\"stop_reason\":\"end_turn\",\"session_id\":\"f8274f26-2631-4d04-9247-50d4465c7334\",\"total_cost_usd\":0.0379,\"usage\":{\"input_tokens\":10,\"output_tokens\":176},\"terminal_reason\":\"completed\",\"is_error\":false,\"num_turns\":1,\"subtype\":\"success\",\"result\":\"Hey!\",\"type\":\"result\",\"duration_ms\":3297,\"uuid\":\"0392\"}\n",
            answer: "Hey! 👋",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "claude-code-transcript", format: .ndjson,
            source: "Not a capture (kept as an extra; claude-code-tool-transcript and claude-code-transcript-short are real): shapes from a public Claude Code stream-json reference (system/init, assistant thinking, text and tool_use blocks, user tool_result; indexed as file id 7811741087), arranged as one two-turn transcript",
            body: "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/workspace/repo\",\"session_id\":\"abc\",\"tools\":[\"Bash\"],\"model\":\"claude-sonnet-4-5-20250929\",\"permissionMode\":\"default\",\"apiKeySource\":\"none\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"thinking\",\"thinking\":\"Let me think...\",\"signature\":\"\"}],\"id\":\"msg_001\",\"model\":\"claude-sonnet-4-5-20250929\",\"role\":\"assistant\",\"stop_reason\":null,\"stop_sequence\":null,\"type\":\"message\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}},\"parent_tool_use_id\":null,\"session_id\":\"abc\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"Hello!\"}],\"id\":\"msg_001\",\"model\":\"claude-sonnet-4-5-20250929\",\"role\":\"assistant\",\"stop_reason\":null,\"stop_sequence\":null,\"type\":\"message\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}},\"parent_tool_use_id\":null,\"session_id\":\"abc\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"tool_use\",\"id\":\"toolu_001\",\"name\":\"Bash\",\"input\":{\"command\":\"echo hello\"}}],\"id\":\"msg_001\",\"model\":\"claude-sonnet-4-5-20250929\",\"role\":\"assistant\",\"stop_reason\":null,\"stop_sequence\":null,\"type\":\"message\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}},\"parent_tool_use_id\":null,\"session_id\":\"abc\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":[{\"tool_use_id\":\"toolu_001\",\"type\":\"tool_result\",\"content\":\"hello\",\"is_error\":false}]},\"parent_tool_use_id\":null,\"session_id\":\"abc\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"assistant\",\"message\":{\"content\":[{\"type\":\"text\",\"text\":\"The command printed hello.\"}],\"id\":\"msg_002\",\"model\":\"claude-sonnet-4-5-20250929\",\"role\":\"assistant\",\"stop_reason\":null,\"stop_sequence\":null,\"type\":\"message\",\"usage\":{\"input_tokens\":10,\"output_tokens\":1}},\"parent_tool_use_id\":null,\"session_id\":\"abc\",\"uuid\":\"xxx\"}\n"
            + "{\"type\":\"result\",\"subtype\":\"success\",\"is_error\":false,\"duration_ms\":100,\"duration_api_ms\":50,\"num_turns\":2,\"result\":\"The command printed hello.\",\"session_id\":\"abc\",\"total_cost_usd\":0.001,\"usage\":{\"input_tokens\":4,\"output_tokens\":10},\"permission_denials\":[]}\n",
            answer: "Hello!\n\nThe command printed hello.",
            reasoning: "Let me think...",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "claude-code-error", format: .ndjson,
            source: "a public test script that replays Claude Code stream-json (indexed as file id 71606690894): a partial delta, then result subtype error_during_execution",
            body: "{\"type\":\"system\",\"subtype\":\"init\",\"cwd\":\"/tmp/w\",\"session_id\":\"s1\",\"tools\":[\"Bash\"],\"model\":\"claude-haiku-4-5-20251001\",\"permissionMode\":\"default\",\"claude_code_version\":\"2.1.287\"}\n"
            + "{\"type\":\"stream_event\",\"event\":{\"type\":\"content_block_delta\",\"delta\":{\"type\":\"text_delta\",\"text\":\"partial\"}}}\n"
            + "{\"type\":\"result\",\"subtype\":\"error_during_execution\",\"is_error\":true}\n",
            answer: "partial",
            reasoning: "",
            error: "error_during_execution", notJSONLines: 0),
        RecordedStream(
            name: "gemini-cli", format: .ndjson,
            source: "a public Gemini CLI research note, \"live testing against v0.26.0\" of gemini \"Say hello\" -o stream-json (indexed as file id 52438867109); its own \"...\" timestamps kept",
            body: "{\"type\":\"init\",\"timestamp\":\"2026-02-24T03:15:16.134Z\",\"session_id\":\"uuid\",\"model\":\"auto-gemini-3\"}\n"
            + "{\"type\":\"message\",\"timestamp\":\"...\",\"role\":\"user\",\"content\":\"Say hello\\n\\nrespond briefly\"}\n"
            + "{\"type\":\"message\",\"timestamp\":\"...\",\"role\":\"assistant\",\"content\":\"Hello. I am ready to assist\",\"delta\":true}\n"
            + "{\"type\":\"message\",\"timestamp\":\"...\",\"role\":\"assistant\",\"content\":\" you. How can I help?\",\"delta\":true}\n"
            + "{\"type\":\"result\",\"timestamp\":\"...\",\"status\":\"success\",\"stats\":{\"total_tokens\":10992,\"input_tokens\":10758,\"output_tokens\":92,\"cached\":6849,\"input\":3909,\"duration_ms\":3615,\"tool_calls\":0}}\n",
            answer: "Hello. I am ready to assist you. How can I help?",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "gemini-cli-error", format: .ndjson,
            source: "Not a capture (kept as an extra; gemini-cli-error-capture and gemini-cli-trailing-error are real): event shapes of google-gemini/gemini-cli packages/core/src/output/types.ts (ToolResultEvent with error, ErrorEvent severity warning, ResultEvent status error); values made up",
            body: "{\"type\":\"init\",\"timestamp\":\"2026-02-24T03:15:16.134Z\",\"session_id\":\"uuid\",\"model\":\"auto-gemini-3\"}\n"
            + "{\"type\":\"message\",\"timestamp\":\"2026-02-24T03:15:16.140Z\",\"role\":\"user\",\"content\":\"Say hello\"}\n"
            + "{\"type\":\"message\",\"timestamp\":\"2026-02-24T03:15:17.020Z\",\"role\":\"assistant\",\"content\":\"Hello\",\"delta\":true}\n"
            + "{\"type\":\"tool_result\",\"timestamp\":\"2026-02-24T03:15:17.500Z\",\"tool_id\":\"call-id\",\"status\":\"error\",\"error\":{\"type\":\"TOOL_EXECUTION_ERROR\",\"message\":\"file not found\"}}\n"
            + "{\"type\":\"error\",\"timestamp\":\"2026-02-24T03:15:17.600Z\",\"severity\":\"warning\",\"message\":\"Loop detected, stopping execution\"}\n"
            + "{\"type\":\"result\",\"timestamp\":\"2026-02-24T03:15:17.700Z\",\"status\":\"error\",\"error\":{\"type\":\"FatalTurnLimitedError\",\"message\":\"Reached max session turns for this session.\"},\"stats\":{\"total_tokens\":10,\"input_tokens\":8,\"output_tokens\":2,\"cached\":0,\"input\":8,\"duration_ms\":900,\"tool_calls\":1}}\n",
            answer: "Hello",
            reasoning: "",
            error: "Reached max session turns for this session.", notJSONLines: 0),
        RecordedStream(
            name: "codex", format: .ndjson,
            source: "a public Codex integration study, \"Real output from a live run [verified]\" of codex exec --json (indexed as file id 59778067865)",
            body: "{\"type\":\"thread.started\",\"thread_id\":\"019fa501-c366-7ea3-a703-225eafe18e5b\"}\n"
            + "{\"type\":\"turn.started\"}\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"agent_message\",\"text\":\"I'll run that command now.\"}}\n"
            + "{\"type\":\"item.started\",\"item\":{\"id\":\"item_1\",\"type\":\"command_execution\",\"command\":\"/bin/zsh -lc 'echo hello'\",\"aggregated_output\":\"\",\"exit_code\":null,\"status\":\"in_progress\"}}\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":\"command_execution\",\"command\":\"/bin/zsh -lc 'echo hello'\",\"aggregated_output\":\"hello\\n\",\"exit_code\":0,\"status\":\"completed\"}}\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_2\",\"type\":\"agent_message\",\"text\":\"done\"}}\n"
            + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":33672,\"cached_input_tokens\":16128,\"cache_write_input_tokens\":0,\"output_tokens\":102,\"reasoning_output_tokens\":0}}\n",
            answer: "I'll run that command now.\n\ndone",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "codex-failed", format: .ndjson,
            source: "a public Rust test, \"Aufgezeichneter Fehlerfall (codex-cli 0.153.2)\" (indexed as file id 71646587060)",
            body: "{\"type\":\"thread.started\",\"thread_id\":\"01a1076a-2e29-7ae0-a05c-c58e39f7fa32\"}\n"
            + "{\"type\":\"turn.started\"}\n"
            + "{\"type\":\"error\",\"message\":\"The model is not supported when using Codex with a ChatGPT account.\"}\n"
            + "{\"type\":\"turn.failed\",\"error\":{\"message\":\"The model is not supported when using Codex with a ChatGPT account.\"}}\n",
            answer: "",
            reasoning: "",
            error: "The model is not supported when using Codex with a ChatGPT account.", notJSONLines: 0),
        RecordedStream(
            name: "codex-noise", format: .ndjson,
            source: "the live codex run above with a reasoning item (shape from a public Codex event note) and two stderr lines as 2>&1 puts them in the stream",
            body: "Reading prompt from stdin...\n"
            + "{\"type\":\"thread.started\",\"thread_id\":\"019fa501-c366-7ea3-a703-225eafe18e5b\"}\n"
            + "{\"type\":\"turn.started\"}\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_0\",\"type\":\"reasoning\",\"text\":\"**Preparing web search query**\"}}\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_1\",\"type\":\"agent_message\",\"text\":\"I'll run that command now.\"}}\n"
            + "2026-07-28T00:46:30.112Z ERROR codex_core::exec: sandbox denied write\n"
            + "{\"type\":\"item.completed\",\"item\":{\"id\":\"item_2\",\"type\":\"agent_message\",\"text\":\"done\"}}\n"
            + "{\"type\":\"turn.completed\",\"usage\":{\"input_tokens\":33672,\"cached_input_tokens\":16128,\"output_tokens\":102}}\n",
            answer: "I'll run that command now.\n\ndone",
            reasoning: "**Preparing web search query**",
            error: nil, notJSONLines: 2),
        RecordedStream(
            name: "cohere-v2", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/cohere/src/__fixtures__/cohere-text.chunks.txt, one data: line per recorded event",
            body: "data: {\"id\":\"321d178c-2c12-44d3-ae42-2f5510f6b1cc\",\"type\":\"message-start\",\"delta\":{\"message\":{\"role\":\"assistant\",\"content\":[],\"tool_plan\":\"\",\"tool_calls\":[],\"citations\":[]}}}\n"
            + "\n"
            + "data: {\"type\":\"content-start\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"type\":\"text\",\"text\":\"\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\"The\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\" capital\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\" of\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\" France\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\" is\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\" Paris\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"text\":\".\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-end\",\"index\":0}\n"
            + "\n"
            + "data: {\"type\":\"message-end\",\"delta\":{\"finish_reason\":\"COMPLETE\",\"usage\":{\"billed_units\":{\"input_tokens\":12,\"output_tokens\":7},\"tokens\":{\"input_tokens\":507,\"output_tokens\":10},\"cached_tokens\":448}}}\n"
            + "\n",
            answer: "The capital of France is Paris.",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "cohere-v2-thinking", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/cohere/src/__fixtures__/cohere-reasoning.chunks.txt",
            body: "data: {\"id\":\"c9117d7f-a7e4-499f-b643-a2a1e139687b\",\"type\":\"message-start\",\"delta\":{\"message\":{\"role\":\"assistant\",\"content\":[],\"tool_plan\":\"\",\"tool_calls\":[],\"citations\":[]}}}\n"
            + "\n"
            + "data: {\"type\":\"content-start\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"type\":\"thinking\",\"thinking\":\"\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\"The\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" user\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" is\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" asking\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" for\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" the\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" sum\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" of\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" 2\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" and\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" 2\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\".\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" Since\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" this\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" is\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" a\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" straightforward\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" arithmetic\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" problem\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\",\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" I\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" don\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\"'t\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" need\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" to\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" use\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" any\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" tools\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\".\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" I\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" can\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" calculate\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" the\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" answer\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\" directly\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":0,\"delta\":{\"message\":{\"content\":{\"thinking\":\".\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-end\",\"index\":0}\n"
            + "\n"
            + "data: {\"type\":\"content-start\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"type\":\"text\",\"text\":\"\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\"The\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" answer\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" to\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" 2\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" +\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" 2\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" is\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\" 4\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-delta\",\"index\":1,\"delta\":{\"message\":{\"content\":{\"text\":\".\"}}}}\n"
            + "\n"
            + "data: {\"type\":\"content-end\",\"index\":1}\n"
            + "\n"
            + "data: {\"type\":\"message-end\",\"delta\":{\"finish_reason\":\"COMPLETE\",\"usage\":{\"billed_units\":{\"input_tokens\":8,\"output_tokens\":50},\"tokens\":{\"input_tokens\":1394,\"output_tokens\":54},\"cached_tokens\":1360}}}\n"
            + "\n",
            answer: "The answer to 2 + 2 is 4.",
            reasoning: "The user is asking for the sum of 2 and 2. Since this is a straightforward arithmetic problem, I don't need to use any tools. I can calculate the answer directly.",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "gemini-interactions", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/google/src/interactions/__fixtures__/basic.chunks.txt",
            body: "data: {\"interaction\":{\"id\":\"v1_ChdUR3NIYXVyQkFlYVA2ZGtQajZERThBVRIXVEdzSGF1ckJBZWFQNmRrUGo2REU4QVU\",\"status\":\"in_progress\",\"object\":\"interaction\",\"model\":\"gemini-2.5-flash\"},\"event_type\":\"interaction.created\"}\n"
            + "\n"
            + "data: {\"interaction_id\":\"v1_ChdUR3NIYXVyQkFlYVA2ZGtQajZERThBVRIXVEdzSGF1ckJBZWFQNmRrUGo2REU4QVU\",\"status\":\"in_progress\",\"event_type\":\"interaction.status_update\"}\n"
            + "\n"
            + "data: {\"index\":0,\"step\":{\"type\":\"thought\"},\"event_type\":\"step.start\"}\n"
            + "\n"
            + "data: {\"index\":0,\"delta\":{\"signature\":\"CiQBDDnWxzCnKBoG0/vIUQ9fHy3JYGvjTmIZFY4uKrzvEqSAJh8KdQEMOdbH472i8Wb3Z10/9wPWQyeSH2KMnQfWxi4Z+jlD+igWd1veIZW9QWMqrhgPQqsabcZiwzNAyNaSOJFu0D2ulKtvde8IrVcZkeoG0IR7QVcZWFbKF/uuXxeAV2CYsqXF8Xhv362V/Lc17nWUjzFwvkrftAq8AQEMOdbHZ41h6ebbkW11izLCzDhm/aW2Zh5LR60hYvYMFrL22tOZFEHoBAzZJR+NaPaGbCCd6YtSKUMWXDckIRL42Ms6xISx5eW2xKiNk4Pf+6CDD09wP7kxx/jrvn17+oFEB86PDzUCjK79WXHTufzNZ2NFyXV9wqAX6VcrxSz6eA7BvXtZcHnP5mIlSpBwNDkuWwqtWZq7ebtySPbjjUq4tZw8xB/I0guOpC+u+lCAoSoCOtf8Y+Zc7SG6Cs8BAQw51sel75qdPe/A19DGEaH4sRjNgXHSNzW6zsOqn+nMZEQznZSP+EMitUNYJSCv9ceM5a2+hs9PhGJuPVKrSxnmVya1iHYdquju9DD0q+wSycGXsor1UI4TMic4jg2+5xAFSUir9qA6nSZeuRDjMkCQ0fbJESf2if70CBFNWQe1Q2kKpfc1CrZR2dtc28YfS/c8iyarj3cts6sybBAxgAR834OcVIttdMt8eimPXfCPAP0qGu1cxjXSk746D3XmMwQtpIfW1/xpIjVhJsGA\",\"type\":\"thought_signature\"},\"event_type\":\"step.delta\"}\n"
            + "\n"
            + "data: {\"index\":0,\"event_type\":\"step.stop\"}\n"
            + "\n"
            + "data: {\"index\":1,\"step\":{\"type\":\"model_output\"},\"event_type\":\"step.start\"}\n"
            + "\n"
            + "data: {\"index\":1,\"delta\":{\"text\":\"I'm doing great, thank you for asking!\\n\\nHow are you doing today? And what can I do for you?\",\"type\":\"text\"},\"event_type\":\"step.delta\"}\n"
            + "\n"
            + "data: {\"index\":1,\"event_type\":\"step.stop\"}\n"
            + "\n"
            + "data: {\"interaction\":{\"id\":\"v1_ChdUR3NIYXVyQkFlYVA2ZGtQajZERThBVRIXVEdzSGF1ckJBZWFQNmRrUGo2REU4QVU\",\"status\":\"completed\",\"usage\":{\"total_tokens\":148,\"total_input_tokens\":7,\"input_tokens_by_modality\":[{\"modality\":\"text\",\"tokens\":7}],\"total_cached_tokens\":0,\"total_output_tokens\":26,\"total_tool_use_tokens\":0,\"total_thought_tokens\":115},\"created\":\"2026-05-15T18:51:57Z\",\"updated\":\"2026-05-15T18:51:57Z\",\"service_tier\":\"standard\",\"object\":\"interaction\",\"model\":\"gemini-2.5-flash\"},\"event_type\":\"interaction.completed\"}\n"
            + "\n",
            answer: "I'm doing great, thank you for asking!\n\nHow are you doing today? And what can I do for you?",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "llama-cpp-completion", format: .sse,
            source: "a public README with curl output of llama.cpp server /completion (indexed as file id 37039760191), verbatim",
            body: "data: {\"content\":\" Hello\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" there\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\"!\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" How\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" can\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" I\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" assist\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" you\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\" today\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\"?\\n\\n\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\"\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\"\",\"stop\":false,\"id_slot\":0,\"multimodal\":false}\n"
            + "\n"
            + "data: {\"content\":\"\",\"id_slot\":0,\"stop\":true,\"model\":\"/Users/bytedance/.ollama/models/blobs/sha256-43f7a214e5329f672bb05404cfba1913cbb70fdaa1a17497224e1925046b0ed5\",\"tokens_predicted\":12,\"tokens_evaluated\":47,\"generation_settings\":{\"n_ctx\":2048,\"n_predict\":-1,\"model\":\"/Users/bytedance/.ollama/models/blobs/sha256-43f7a214e5329f672bb05404cfba1913cbb70fdaa1a17497224e1925046b0ed5\",\"seed\":4294967295,\"temperature\":0.699999988079071,\"dynatemp_range\":0.0,\"dynatemp_exponent\":1.0,\"top_k\":40,\"top_p\":0.949999988079071,\"min_p\":0.05000000074505806,\"tfs_z\":1.0,\"typical_p\":1.0,\"repeat_last_n\":256,\"repeat_penalty\":1.1799999475479126,\"presence_penalty\":0.0,\"frequency_penalty\":0.0,\"penalty_prompt_tokens\":[],\"use_penalty_prompt_tokens\":false,\"mirostat\":0,\"mirostat_tau\":5.0,\"mirostat_eta\":0.10000000149011612,\"penalize_nl\":false,\"stop\":[\"</s>\",\"Llama:\",\"User:\"],\"n_keep\":0,\"n_discard\":0,\"ignore_eos\":false,\"stream\":true,\"logit_bias\":[],\"n_probs\":0,\"min_keep\":0,\"grammar\":\"\",\"samplers\":[\"top_k\",\"tfs_z\",\"typical_p\",\"top_p\",\"min_p\",\"temperature\"]},\"prompt\":\"This is a conversation between User and Llama, a friendly chatbot. Llama is helpful, kind, honest, good at writing, and never fails to answer any requests immediately and with precision.\\n\\nUser: hello\\nLlama:\",\"truncated\":false,\"stopped_eos\":false,\"stopped_word\":true,\"stopped_limit\":false,\"stopping_word\":\"User:\",\"tokens_cached\":58,\"timings\":{\"prompt_n\":1,\"prompt_ms\":1468.578,\"prompt_per_token_ms\":1468.578,\"prompt_per_second\":0.6809308051734398,\"predicted_n\":12,\"predicted_ms\":336.452,\"predicted_per_token_ms\":28.037666666666667,\"predicted_per_second\":35.66630604068337}}\n"
            + "\n",
            answer: " Hello there! How can I assist you today?\n\n",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "tgi-generate-stream", format: .sse,
            source: "a public TGI blog post, curl output of /generate_stream (indexed as file id 20406495925; data: without a space), verbatim",
            body: "data:{\"index\":1,\"token\":{\"id\":13,\"text\":\"\\n\",\"logprob\":-0.5283203,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":2,\"token\":{\"id\":32072,\"text\":\"日本\",\"logprob\":-2.4394531,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":3,\"token\":{\"id\":30499,\"text\":\"で\",\"logprob\":-0.54785156,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":4,\"token\":{\"id\":32611,\"text\":\"一番\",\"logprob\":-0.114868164,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":5,\"token\":{\"id\":32246,\"text\":\"高い\",\"logprob\":-0.02911377,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":6,\"token\":{\"id\":30329,\"text\":\"山\",\"logprob\":-0.015052795,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":7,\"token\":{\"id\":30449,\"text\":\"は\",\"logprob\":-0.18432617,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":8,\"token\":{\"id\":32126,\"text\":\"なん\",\"logprob\":-1.1835938,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":9,\"token\":{\"id\":32001,\"text\":\"です\",\"logprob\":-0.012969971,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":10,\"token\":{\"id\":30412,\"text\":\"か\",\"logprob\":-0.0022029877,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":11,\"token\":{\"id\":29973,\"text\":\"?\",\"logprob\":-0.06573486,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":12,\"token\":{\"id\":13,\"text\":\"\\n\",\"logprob\":-0.19824219,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":13,\"token\":{\"id\":33676,\"text\":\"ベスト\",\"logprob\":-1.2333984,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":14,\"token\":{\"id\":32709,\"text\":\"アン\",\"logprob\":-0.00019824505,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":15,\"token\":{\"id\":32119,\"text\":\"サー\",\"logprob\":-0.0000014305115,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":16,\"token\":{\"id\":13,\"text\":\"\\n\",\"logprob\":-0.0010671616,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":17,\"token\":{\"id\":35072,\"text\":\"富士\",\"logprob\":-0.8286133,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":18,\"token\":{\"id\":30329,\"text\":\"山\",\"logprob\":-0.003786087,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":19,\"token\":{\"id\":32001,\"text\":\"です\",\"logprob\":-0.58496094,\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"index\":20,\"token\":{\"id\":30267,\"text\":\"。\",\"logprob\":-0.34350586,\"special\":false},\"generated_text\":\"\\n日本で一番高い山はなんですか?\\nベストアンサー\\n富士山です。\",\"details\":null}\n"
            + "\n",
            answer: "\n日本で一番高い山はなんですか?\nベストアンサー\n富士山です。",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "tgi-special-token", format: .sse,
            source: "a public TGI protocol note, SSE token stream framing example with a final special token (indexed as file id 69088929538)",
            body: "data:{\"token\":{\"id\":1124,\"text\":\"import\",\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"token\":{\"id\":284,\"text\":\" os\",\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"token\":{\"id\":13,\"text\":\"\\n\",\"special\":false},\"generated_text\":null,\"details\":null}\n"
            + "\n"
            + "data:{\"token\":{\"id\":128001,\"text\":\"<|eot_id|>\",\"special\":true},\"generated_text\":\"import os\\n...\",\"details\":{\"finish_reason\":\"eos_token\",\"generated_tokens\":42,\"seed\":42}}\n",
            answer: "import os\n",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "lm-studio-native", format: .sse,
            source: "Not a capture (no recording of LM Studio's native /api/v1/chat stream was found): lmstudio-ai/docs 1_developer/2_rest/streaming-events.md, each documented example event in stream order as event: + data:",
            body: "event: chat.start\n"
            + "data: {\"type\":\"chat.start\",\"model_instance_id\":\"openai/gpt-oss-20b\"}\n"
            + "\n"
            + "event: prompt_processing.start\n"
            + "data: {\"type\":\"prompt_processing.start\"}\n"
            + "\n"
            + "event: prompt_processing.progress\n"
            + "data: {\"type\":\"prompt_processing.progress\",\"progress\":0.5}\n"
            + "\n"
            + "event: prompt_processing.end\n"
            + "data: {\"type\":\"prompt_processing.end\"}\n"
            + "\n"
            + "event: reasoning.start\n"
            + "data: {\"type\":\"reasoning.start\"}\n"
            + "\n"
            + "event: reasoning.delta\n"
            + "data: {\"type\":\"reasoning.delta\",\"content\":\"Need to\"}\n"
            + "\n"
            + "event: reasoning.end\n"
            + "data: {\"type\":\"reasoning.end\"}\n"
            + "\n"
            + "event: tool_call.start\n"
            + "data: {\"type\":\"tool_call.start\",\"tool\":\"model_search\",\"provider_info\":{\"type\":\"ephemeral_mcp\",\"server_label\":\"huggingface\"}}\n"
            + "\n"
            + "event: tool_call.arguments\n"
            + "data: {\"type\":\"tool_call.arguments\",\"tool\":\"model_search\",\"arguments\":{\"sort\":\"trendingScore\",\"limit\":1},\"provider_info\":{\"type\":\"ephemeral_mcp\",\"server_label\":\"huggingface\"}}\n"
            + "\n"
            + "event: tool_call.success\n"
            + "data: {\"type\":\"tool_call.success\",\"tool\":\"model_search\",\"arguments\":{\"sort\":\"trendingScore\",\"limit\":1},\"output\":\"[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"Showing first 1 models...\\\"}]\",\"provider_info\":{\"type\":\"ephemeral_mcp\",\"server_label\":\"huggingface\"}}\n"
            + "\n"
            + "event: message.start\n"
            + "data: {\"type\":\"message.start\"}\n"
            + "\n"
            + "event: message.delta\n"
            + "data: {\"type\":\"message.delta\",\"content\":\"The current\"}\n"
            + "\n"
            + "event: message.end\n"
            + "data: {\"type\":\"message.end\"}\n"
            + "\n"
            + "event: chat.end\n"
            + "data: {\"type\":\"chat.end\",\"result\":{\"model_instance_id\":\"openai/gpt-oss-20b\",\"output\":[{\"type\":\"reasoning\",\"content\":\"Need to call function.\"},{\"type\":\"tool_call\",\"tool\":\"model_search\",\"arguments\":{\"sort\":\"trendingScore\",\"limit\":1},\"output\":\"[{\\\"type\\\":\\\"text\\\",\\\"text\\\":\\\"Showing first 1 models...\\\"}]\",\"provider_info\":{\"type\":\"ephemeral_mcp\",\"server_label\":\"huggingface\"}},{\"type\":\"message\",\"content\":\"The current top‑trending model is...\"}],\"stats\":{\"input_tokens\":329,\"total_output_tokens\":268,\"reasoning_output_tokens\":5,\"tokens_per_second\":43.73,\"time_to_first_token_seconds\":0.781},\"response_id\":\"resp_02b2017dbc06c12bfc353a2ed6c2b802f8cc682884bb5716\"}}\n"
            + "\n",
            answer: "The current",
            reasoning: "Need to",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "lm-studio-error", format: .sse,
            source: "Not a capture (no recording found, as above): lmstudio-ai/docs 1_developer/2_rest/streaming-events.md, the documented error event after a message delta",
            body: "event: chat.start\n"
            + "data: {\"type\":\"chat.start\",\"model_instance_id\":\"openai/gpt-oss-20b\"}\n"
            + "\n"
            + "event: message.delta\n"
            + "data: {\"type\":\"message.delta\",\"content\":\"The current\"}\n"
            + "\n"
            + "event: error\n"
            + "data: {\"type\":\"error\",\"error\":{\"type\":\"invalid_request\",\"message\":\"\\\"model\\\" is required\",\"code\":\"missing_required_parameter\",\"param\":\"model\"}}\n"
            + "\n",
            answer: "The current",
            reasoning: "",
            error: "\"model\" is required", notJSONLines: 0),
        RecordedStream(
            name: "mistral-typed-parts", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/mistral/src/__fixtures__/mistral-reasoning.chunks.txt (magistral-medium-2507, content as typed thinking/text parts)",
            body: "data: {\"id\":\"a4e29c5b82f94d67b23e108a7c9df6e1\",\"object\":\"chat.completion.chunk\",\"created\":1769088912,\"model\":\"magistral-medium-2507\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\"The user is asking\"}]}]},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"a4e29c5b82f94d67b23e108a7c9df6e1\",\"object\":\"chat.completion.chunk\",\"created\":1769088912,\"model\":\"magistral-medium-2507\",\"choices\":[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"thinking\",\"thinking\":[{\"type\":\"text\",\"text\":\" for 2+2. This is basic arithmetic. 2+2=4.\"}]}]},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"a4e29c5b82f94d67b23e108a7c9df6e1\",\"object\":\"chat.completion.chunk\",\"created\":1769088912,\"model\":\"magistral-medium-2507\",\"choices\":[{\"index\":0,\"delta\":{\"content\":[{\"type\":\"text\",\"text\":\"2 + 2 = 4\"}]},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"a4e29c5b82f94d67b23e108a7c9df6e1\",\"object\":\"chat.completion.chunk\",\"created\":1769088912,\"model\":\"magistral-medium-2507\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"total_tokens\":56,\"completion_tokens\":46}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "2 + 2 = 4",
            reasoning: "The user is asking for 2+2. This is basic arithmetic. 2+2=4.",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "mistral", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/mistral/src/__fixtures__/mistral-text.chunks.txt",
            body: "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\", \"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"world!\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" This\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" is a test\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" response.\"},\"finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"5319bd0299614c679a0068a4f2c8ffd0\",\"object\":\"chat.completion.chunk\",\"created\":1769088720,\"model\":\"mistral-small-latest\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"stop\",\"logprobs\":null}],\"usage\":{\"prompt_tokens\":13,\"total_tokens\":21,\"completion_tokens\":8}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "Hello, world! This is a test response.",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "openrouter-error", format: .sse,
            source: "Not a capture (kept as an extra; openrouter-stream-error is real): OpenRouter docs, api-reference/streaming: \": OPENROUTER PROCESSING\" comments and the documented mid-stream error chunk (finish_reason \"error\"), after one text chunk",
            body: ": OPENROUTER PROCESSING\n"
            + "\n"
            + ": OPENROUTER PROCESSING\n"
            + "\n"
            + "data: {\"id\":\"cmpl-abc123\",\"object\":\"chat.completion.chunk\",\"created\":1234567890,\"model\":\"gpt-3.5-turbo\",\"provider\":\"openai\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Tall\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"cmpl-abc123\",\"object\":\"chat.completion.chunk\",\"created\":1234567890,\"model\":\"gpt-3.5-turbo\",\"provider\":\"openai\",\"error\":{\"code\":\"server_error\",\"message\":\"Provider disconnected unexpectedly\"},\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"finish_reason\":\"error\"}]}\n"
            + "\n",
            answer: "Tall",
            reasoning: "",
            error: "Provider disconnected unexpectedly", notJSONLines: 0),
        RecordedStream(
            name: "openrouter-two-fields", format: .sse,
            source: "Not a capture (kept as an extra; openrouter-two-fields-claude is real): OpenRouter reasoning deltas as its docs describe them: the same token in reasoning and reasoning_details",
            body: ": OPENROUTER PROCESSING\n"
            + "\n"
            + "data: {\"id\":\"gen-1\",\"provider\":\"DeepInfra\",\"model\":\"deepseek/deepseek-r1\",\"object\":\"chat.completion.chunk\",\"created\":1750000000,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\"Okay\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\"Okay\",\"format\":\"unknown\",\"index\":0}]},\"finish_reason\":null,\"native_finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"gen-1\",\"provider\":\"DeepInfra\",\"model\":\"deepseek/deepseek-r1\",\"object\":\"chat.completion.chunk\",\"created\":1750000000,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":\", 2+2.\",\"reasoning_details\":[{\"type\":\"reasoning.text\",\"text\":\", 2+2.\",\"format\":\"unknown\",\"index\":0}]},\"finish_reason\":null,\"native_finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"gen-1\",\"provider\":\"DeepInfra\",\"model\":\"deepseek/deepseek-r1\",\"object\":\"chat.completion.chunk\",\"created\":1750000000,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"4\",\"reasoning\":null,\"reasoning_details\":[]},\"finish_reason\":null,\"native_finish_reason\":null,\"logprobs\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"gen-1\",\"provider\":\"DeepInfra\",\"model\":\"deepseek/deepseek-r1\",\"object\":\"chat.completion.chunk\",\"created\":1750000000,\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"reasoning\":null},\"finish_reason\":\"stop\",\"native_finish_reason\":\"stop\",\"logprobs\":null}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":12,\"total_tokens\":22}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "4",
            reasoning: "Okay, 2+2.",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "vllm-two-fields", format: .sse,
            source: "Not a capture (no vLLM recording sending both fields was found): vLLM chat chunks with the same reasoning token in reasoning_content and reasoning (as vLLM sends both while reasoning_content is deprecated)",
            body: "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Simple\",\"reasoning\":\"Simple\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\" sum.\",\"reasoning\":\" sum.\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"2 + 2 = 4.\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},\"logprobs\":null,\"finish_reason\":\"stop\",\"stop_reason\":null}]}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "2 + 2 = 4.",
            reasoning: "Simple sum.",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "vllm-error", format: .sse,
            source: "Not a capture (no recording of a vLLM stream error was found): vLLM ErrorResponse shape ({\"object\":\"error\",…}) sent as a data: event mid-stream, as the goose PR #8031 test describes",
            body: "data: {\"id\":\"chatcmpl-9f\",\"object\":\"chat.completion.chunk\",\"created\":1760000000,\"model\":\"Qwen/Qwen3-8B\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Once\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"object\":\"error\",\"message\":\"The decoder prompt (length 9000) is longer than the maximum model length of 8192.\",\"type\":\"BadRequestError\",\"param\":null,\"code\":400}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "Once",
            reasoning: "",
            error: "The decoder prompt (length 9000) is longer than the maximum model length of 8192.", notJSONLines: 0),
        RecordedStream(
            name: "groq-error", format: .sse,
            source: "Not a capture (kept as an extra; groq-event-error is real): Groq's event: error, as the Stainless-generated OpenAI-compatible SDKs read it (sse.event == \"error\" with data.error.message; indexed as file id 58310272)",
            body: "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"llama-3.3-70b-versatile\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hi\"},\"logprobs\":null,\"finish_reason\":null}],\"x_groq\":{\"id\":\"req_1\"}}\n"
            + "\n"
            + "event: error\n"
            + "data: {\"error\":{\"message\":\"Service Unavailable\",\"type\":\"internal_server_error\"}}\n"
            + "\n",
            answer: "Hi",
            reasoning: "",
            error: "Service Unavailable", notJSONLines: 0),
        RecordedStream(
            name: "openai-n2", format: .sse,
            source: "Not a capture (kept as an extra; openai-n2-excerpt is real but only four events long): OpenAI Chat Completions chunk shape (platform.openai.com/docs/api-reference/chat/streaming) for n = 2: choices interleaved by index",
            body: "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":1,\"delta\":{\"role\":\"assistant\",\"content\":\"\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Red\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":1,\"delta\":{\"content\":\"Blue\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-n2\",\"object\":\"chat.completion.chunk\",\"created\":1767229200,\"model\":\"gpt-4o-mini\",\"choices\":[{\"index\":1,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}]}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "Red",
            reasoning: "",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "moonshot-reasoning-content", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/moonshotai/src/__fixtures__/moonshotai-stream.chunks.txt",
            body: "data: {\"id\":\"chatcmpl-stream\",\"created\":1785880003,\"model\":\"kimi-k3\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"reasoning_content\":\"Thinking \"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-stream\",\"created\":1785880003,\"model\":\"kimi-k3\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"aloud. \"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-stream\",\"created\":1785880003,\"model\":\"kimi-k3\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hello\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-stream\",\"created\":1785880003,\"model\":\"kimi-k3\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"!\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":12,\"total_tokens\":21,\"completion_tokens_details\":{\"reasoning_tokens\":7}}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "Hello!",
            reasoning: "Thinking aloud. ",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "groq-reasoning", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/groq/src/__fixtures__/groq-reasoning.chunks.txt, trimmed to its lines 1-16 and 1093-1104 of 1104",
            body: "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}],\"x_groq\":{\"id\":\"req_01kh52nmbjem9bfhxdbabnjv0x\",\"seed\":872656815}}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"Okay\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\",\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" let\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" me\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" try\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" to\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" figure\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" out\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" how\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" many\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" times\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" the\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" letter\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\" '\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770846,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"r\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"berry\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\\".\\n\\n\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"**\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Final\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" Answer\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"**:\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" $\\\\\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"boxed\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"{\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"3\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"}$\"},\"logprobs\":null,\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"id\":\"chatcmpl-3556c041-562b-471f-9a90-763dbcea5a3f\",\"object\":\"chat.completion.chunk\",\"created\":1770770849,\"model\":\"qwen/qwen3-32b\",\"system_fingerprint\":\"fp_78ac7f3229\",\"choices\":[{\"index\":0,\"delta\":{},\"logprobs\":null,\"finish_reason\":\"stop\"}],\"x_groq\":{\"id\":\"req_01kh52nmbjem9bfhxdbabnjv0x\",\"usage\":{\"queue_time\":0.171721454,\"prompt_tokens\":17,\"prompt_time\":0.000792801,\"completion_tokens\":1107,\"completion_time\":3.206170277,\"total_tokens\":1124,\"total_time\":3.206963078,\"completion_tokens_details\":{\"reasoning_tokens\":963}}},\"usage\":{\"queue_time\":0.171721454,\"prompt_tokens\":17,\"prompt_time\":0.000792801,\"completion_tokens\":1107,\"completion_time\":3.206170277,\"total_tokens\":1124,\"total_time\":3.206963078,\"completion_tokens_details\":{\"reasoning_tokens\":963}}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "berry\".\n\n**Final Answer**: $\\boxed{3}$",
            reasoning: "Okay, let me try to figure out how many times the letter 'r",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "anthropic-thinking", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/anthropic/src/__fixtures__/anthropic-clear-thinking.1.chunks.txt",
            body: "data: {\"type\":\"message_start\",\"message\":{\"model\":\"claude-sonnet-4-5-20250929\",\"id\":\"msg_01Y6V41gqPaKWEw7iPouH7iW\",\"type\":\"message\",\"role\":\"assistant\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,\"usage\":{\"input_tokens\":69,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"cache_creation\":{\"ephemeral_5m_input_tokens\":0,\"ephemeral_1h_input_tokens\":0},\"output_tokens\":2,\"service_tier\":\"standard\",\"inference_geo\":\"not_available\"}}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_start\",\"index\":0,\"content_block\":{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}\n"
            + "\n"
            + "data: {\"type\":\"ping\"}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"The previous\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" result\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" was\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" 925.\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" Now\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" I need to divide that\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" by 5.\\n\\n925\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\" ÷ 5 \"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"= 185\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"thinking_delta\",\"thinking\":\"\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":0,\"delta\":{\"type\":\"signature_delta\",\"signature\":\"EvQBCkYICxgCKkAxhD4NUKFzudtZ6NzbZdEiBACIScTzqjPViM596iWLZIk4EFKYYBj3B6Ptl3b0dcQv/VeJBNbejNWIWRBn+KPNEgz6HWtKx7p+QRgKsEoaDGjsiqfht7gTRFYHiyIwD1VSmNqHxv3wy8KEMP+LYb/TC4UH3H97tuoaADARFFcA0phdfxnzKQxFnc9lwY+dKlzUsaKSUAFeu1bDL5ikZJ1vL0Fkz6JjoFke0L/wOJRIUDUlDUOFJ1tZ3ea7g6LGE/5hwuvWgLwewdcm64d+43l7F57XrOmqNd6flI2K/oPr/4yzNgvi/EhT6Ca17BgB\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_stop\",\"index\":0}\n"
            + "\n"
            + "data: {\"type\":\"content_block_start\",\"index\":1,\"content_block\":{\"type\":\"text\",\"text\":\"\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"925\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\" ÷ 5 \"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_delta\",\"index\":1,\"delta\":{\"type\":\"text_delta\",\"text\":\"= 185\"}}\n"
            + "\n"
            + "data: {\"type\":\"content_block_stop\",\"index\":1}\n"
            + "\n"
            + "data: {\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"end_turn\",\"stop_sequence\":null},\"usage\":{\"input_tokens\":69,\"cache_creation_input_tokens\":0,\"cache_read_input_tokens\":0,\"output_tokens\":53},\"context_management\":{\"applied_edits\":[]}}\n"
            + "\n"
            + "data: {\"type\":\"message_stop\"}\n"
            + "\n",
            answer: "925 ÷ 5 = 185",
            reasoning: "The previous result was 925. Now I need to divide that by 5.\n\n925 ÷ 5 = 185",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "gemini-thought-and-tools", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/google/src/__fixtures__/google-stream-no-args-tool-call.chunks.txt (a thought part, then only function calls)",
            body: "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"**Processing User Requests**\\n\\nI've started by understanding the user's instructions. Currently, I'm focusing on the initial steps: reading the specified theme using the appropriate tool. Next, I plan to tackle reading the screens, beginning with screen \\\"A,\\\" then proceeding with \\\"B\\\" and \\\"C\\\" in parallel as instructed.\\n\\n\\n\",\"thought\":true}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"read_theme\"},\"thoughtSignature\":\"AY89a18a8/Loc2wl5oft+F3qHoU4VPX0L9ljRtKxfjhEuimSIqhzYEJAGT5Sgd8OH2C+Te2YY1DKfGsr+ajyR7o2gTbljQMXyvmOimX/W3ZzWOabOHpiC5zNjii2CfPBV9+LG5Gu0efVfzdcNTnomFaak9hP/xEoWUk/Ahh2GcT1DC1UgMjqOARxYu7gP6i8LGrEC5TL7u+92163O2B33MCJxY7NHE6M99exsMJ2KOf2Exe3R5az0cmgxokiBW/ZOZacqzm1svBpoMb3PS1YFEWgXiyc1ExblrjL2O4rgC0qouMSvC0Z8fzYpbLrwiSko+/4vIsJpwSfI1RU3BIcmA389ZvZK8wO5N4cATH8vnlHUPD+RjeB4YXO2ymqGRPfvN0uGt6ojWyZfFphhP88um6MgyjcVMfabUrpd1uM5PbhLO+QfcQaMbozADjypuU/Z39i6L+DsGIrWWlxYTCpj4hClQ0mQg3heLPnD3DRmazSVbtJM+HGH0bc893sK51Wv4wCr8Fm++qL1PzIjEodb/0rq99OZ+1dgAlj6Uwo61i9x7i1EhiLzuWvlgsaLC0nM2GyNcODbueEHvucYpL6nhRpqIhX/yZWb3Yvg2WgBAisv0iSGLpntdrSSHYMZROAb5TnTKwxO3VJ7UwULqohGW2RU9NnKX8BzNI2POe1Jj0enxar+5LcuRE2q5V7jVTEiG6Y6thdFyXWVrvAHjnGXLSiYhDGngToAVjJ3Lynh6Zl77nAqV5QIcQMOyS+KBS1VW13eOFqG+cI6Bu2Dqfsv4Fb+0Qe5gjblTy54g52mxHi6FpdmqE4Q2lmxE3wUTyoWuzQLAanOf5m+hkTjjD08ljZkphCktxIEMt5+ZIXzfWDld7nD76+v0ICUxWyj+Ip1Gg5L2Zj2baFSn9VQ8qkFDKActLJetMBdRK+mkL7ZoBLB8wNLu3cX28m+EEyfq8+8bEuQv1hjTMtKN+5/BMCFmNvkb/pAxNnWUzzSyjaCjCiEiDM5kJXClomcvF2BTo/nQYepQ/8mmxdyc8ZCmdytGJB49ZeNTtCJA==\"}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"read_screen\",\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"A\",\"willContinue\":true}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"\"}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"read_screen\",\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"B\",\"willContinue\":true}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"\"}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"name\":\"read_screen\",\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"C\",\"willContinue\":true}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{\"partialArgs\":[{\"jsonPath\":\"$.id\",\"stringValue\":\"\"}],\"willContinue\":true}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"functionCall\":{}}]}}],\"usageMetadata\":{\"trafficType\":\"PROVISIONED_THROUGHPUT\"},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n"
            + "data: {\"candidates\":[{\"content\":{\"role\":\"model\",\"parts\":[{\"text\":\"\"}]},\"finishReason\":\"STOP\"}],\"usageMetadata\":{\"promptTokenCount\":249,\"candidatesTokenCount\":58,\"totalTokenCount\":490,\"trafficType\":\"PROVISIONED_THROUGHPUT\",\"promptTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":249}],\"candidatesTokensDetails\":[{\"modality\":\"TEXT\",\"tokenCount\":58}],\"thoughtsTokenCount\":183},\"modelVersion\":\"gemini-3-flash-preview\",\"createTime\":\"2026-05-04T20:01:02.264968Z\",\"responseId\":\"_vr4aYiWEJnYodAPkujX0QM\"}\n"
            + "\n",
            answer: "",
            reasoning: "**Processing User Requests**\n\nI've started by understanding the user's instructions. Currently, I'm focusing on the initial steps: reading the specified theme using the appropriate tool. Next, I plan to tackle reading the screens, beginning with screen \"A,\" then proceeding with \"B\" and \"C\" in parallel as instructed.\n\n\n",
            error: nil, notJSONLines: 0),
        RecordedStream(
            name: "responses-error", format: .sse,
            source: "vercel/ai (Vercel AI SDK, commit ed857f50f112e23930b0c2dd8d532cc8bebbc911), packages/openai/src/responses/__fixtures__/openai-error.1.chunks.txt (insufficient_quota)",
            body: "data: {\"type\":\"response.created\",\"sequence_number\":0,\"response\":{\"id\":\"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424\",\"object\":\"response\",\"created_at\":1763474589,\"status\":\"in_progress\",\"background\":false,\"error\":null,\"incomplete_details\":null,\"instructions\":null,\"max_output_tokens\":null,\"max_tool_calls\":null,\"model\":\"gpt-5-nano-2025-08-07\",\"output\":[],\"parallel_tool_calls\":true,\"previous_response_id\":null,\"prompt_cache_key\":null,\"prompt_cache_retention\":null,\"reasoning\":{\"effort\":\"medium\",\"summary\":null},\"safety_identifier\":null,\"service_tier\":\"auto\",\"store\":true,\"temperature\":1,\"text\":{\"format\":{\"type\":\"text\"},\"verbosity\":\"medium\"},\"tool_choice\":\"auto\",\"tools\":[],\"top_logprobs\":0,\"top_p\":1,\"truncation\":\"disabled\",\"usage\":null,\"user\":null,\"metadata\":{}}}\n"
            + "\n"
            + "data: {\"type\":\"response.in_progress\",\"sequence_number\":1,\"response\":{\"id\":\"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424\",\"object\":\"response\",\"created_at\":1763474589,\"status\":\"in_progress\",\"background\":false,\"error\":null,\"incomplete_details\":null,\"instructions\":null,\"max_output_tokens\":null,\"max_tool_calls\":null,\"model\":\"gpt-5-nano-2025-08-07\",\"output\":[],\"parallel_tool_calls\":true,\"previous_response_id\":null,\"prompt_cache_key\":null,\"prompt_cache_retention\":null,\"reasoning\":{\"effort\":\"medium\",\"summary\":null},\"safety_identifier\":null,\"service_tier\":\"auto\",\"store\":true,\"temperature\":1,\"text\":{\"format\":{\"type\":\"text\"},\"verbosity\":\"medium\"},\"tool_choice\":\"auto\",\"tools\":[],\"top_logprobs\":0,\"top_p\":1,\"truncation\":\"disabled\",\"usage\":null,\"user\":null,\"metadata\":{}}}\n"
            + "\n"
            + "data: {\"type\":\"error\",\"sequence_number\":2,\"error\":{\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.\",\"param\":null}}\n"
            + "\n"
            + "data: {\"type\":\"response.failed\",\"sequence_number\":3,\"response\":{\"id\":\"resp_05500b38c2cd9bfc00691c7c9d222481a3b595421266dab424\",\"object\":\"response\",\"created_at\":1763474589,\"status\":\"failed\",\"background\":false,\"error\":{\"code\":\"insufficient_quota\",\"message\":\"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.\"},\"incomplete_details\":null,\"instructions\":null,\"max_output_tokens\":null,\"max_tool_calls\":null,\"model\":\"gpt-5-nano-2025-08-07\",\"output\":[],\"parallel_tool_calls\":true,\"previous_response_id\":null,\"prompt_cache_key\":null,\"prompt_cache_retention\":null,\"reasoning\":{\"effort\":\"medium\",\"summary\":null},\"safety_identifier\":null,\"service_tier\":\"auto\",\"store\":true,\"temperature\":1,\"text\":{\"format\":{\"type\":\"text\"},\"verbosity\":\"medium\"},\"tool_choice\":\"auto\",\"tools\":[],\"top_logprobs\":0,\"top_p\":1,\"truncation\":\"disabled\",\"usage\":null,\"user\":null,\"metadata\":{}}}\n"
            + "\n",
            answer: "",
            reasoning: "",
            error: "You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.", notJSONLines: 0),
        RecordedStream(
            name: "think-in-band", format: .sse,
            source: "a public Rust test of an OpenAI-compatible stream whose content carries an empty <think> block (indexed as file id 71589096047)",
            body: "data: {\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"<think>\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\n\\n\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"</think>\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\\n\\nNOOK\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"_QA_OK\"},\"finish_reason\":null}]}\n"
            + "\n"
            + "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":{\"completion_tokens\":6}}\n"
            + "\n"
            + "data: [DONE]\n"
            + "\n",
            answer: "NOOK_QA_OK",
            reasoning: "\n\n",
            error: nil, notJSONLines: 0),
    ]
}
