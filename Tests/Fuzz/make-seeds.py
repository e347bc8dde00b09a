#!/usr/bin/env python3
"""Writes the committed seed corpus (Tests/Fuzz/corpus/TARGET/*): a few kilobytes per target.

Sources: the first bytes of the traces in Tests/traces (synthetic streams: LLM answers, a build
log, CR progress, SSE and NDJSON wire formats; Tests/traces/README.md) and
hand-written inputs for the terminal disagreements the tests cover (ZWJ before controls, continued
clusters, malformed colours, C0 inside sequences, DEL, 24-bit pens, bytes of 0x80 or more inside ESC or CSI). Run it from anywhere:
  python3 Tests/Fuzz/make-seeds.py [TRACES_DIR]      (default: Tests/traces)
"""
import json, os, sys

here = os.path.dirname(os.path.abspath(__file__))
traces = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "traces")

def trace_bytes(name, limit):
    data = b""
    for line in open(os.path.join(traces, name)):
        line = line.strip()
        if line:
            data += bytes.fromhex(json.loads(line)["hex"])
        if len(data) >= limit:
            break
    return data[:limit]

def cut_at(data, sep, limit):
    """The longest prefix of data up to limit bytes that ends just after sep."""
    end = data.rfind(sep, 0, limit)
    return data[: end + len(sep)] if end > 0 else data[:limit]

E = b"\x1b"
terminal = {
    "zwj-before-controls": "words fade in ".encode() + bytes.fromhex("f09f91a8e2808d8df09f91a9") + b" then\n"
        + bytes.fromhex("f09f91a8e2808d1b5b33316df09f91a9") + b"\x1b[0m\n" + bytes.fromhex("f09f91a8e2808d07f09f91a90a"),
    "continued-cluster": "in ශ්\u200dර".encode() + "ී lanka e\u0301\u0302 中\u200d中\n".encode(),
    "malformed-colours": b"".join(E + b"[31m" + E + b"[" + f.encode() + b"mX" + E + b"[0m words\r\n" for f in
        ["38:2::2002:::", "38:2::1::3", "38:2::1:2:3:", "38:5:", "38;5;", "38;2;1;;3", "38;2;300;0;1;31", "4:7", "38:2::1:2:3"]),
    "controls-in-sequences": E + b"[?7\x00l\r" + b"P" * 85 + b"\n" + E + b"\x00[?7l" + E + b"[80Ged\n" + E + b"[?7h\r\n"
        + b"ab" + E + b"[3\rD| " + E + b"[\x082D| abcdef" + E + b"\r[3D|\n",
    "del": "words fade in\x7f then more\r\nnext line \x7f\x7fx\n".encode(),
    "high-bytes-in-sequences": b"words " + E + b"[31\xcbmX more\r\n" + E + b"[?7\xcbl" + b"P" * 45 + b"\r\n" + E + b"\xcb[31m red\r\n"
        + E + b"[2;5\xc3\x88X w\r\n" + E + b"[3\xe4\xb8\xad1mY" + E + b"[0m\r\n" + E + b"[?10\x00$\x00\xcb49l ba\r\n" + E + b"cfades\n",
    "truecolor-pens": E + b"[38;2;255;100;0morange" + E + b"[0m plain " + E + b"[48;2;10;20;30mdark" + E + b"[1m bold" + E
        + b"[0m " + E + b"[38:2::1:200:3mgreen" + E + b"[m\n",
    "wide-margin": ("a" * 79 + "中文字 next\n" + "x" * 80 + "\nnext\n").encode(),
    "osc-links-titles": E + b"]8;;https://example.com\x07link" + E + b"]8;;\x07 " + E + b"]0;title" + E + b"\\ text\n",
    "modes": E + b"[?1049h" + E + b"[Halt" + E + b"[?1049l back " + E + b"(0lqqk" + E + b"(B \x0eso\x0f " + E + b"7" + E + b"[31mr" + E + b"8\n",
}

def write(target, name, data):
    d = os.path.join(here, "corpus", target)
    os.makedirs(d, exist_ok=True)
    open(os.path.join(d, name), "wb").write(data)

for name, data in terminal.items():
    write("tokenizer", name, data)
    write("renderer", name, data)
for name, limit in [("llm-code", 1500), ("llm-multilingual", 1500), ("progress-cr", 1200), ("build-log", 1500), ("llm-fast", 1000)]:
    data = cut_at(trace_bytes(name + ".trace", limit * 2), b"\n", limit)
    write("tokenizer", name, data)
    write("renderer", name, data[: limit // 2])
for name in ["anthropic-sse", "gemini-sse", "openai-sse", "openai-responses-sse"]:
    write("sse", name, cut_at(trace_bytes(name + ".trace", 8000), b"\n\n", 3000))
write("sse", "error-body", b'{"error":{"message":"bad key","type":"auth"}}\n')
write("sse", "bom-done", b"\xef\xbb\xbfdata: [DONE]\n\n")
write("ndjson", "ollama-ndjson", cut_at(trace_bytes("ollama-ndjson.trace", 8000), b"\n", 3000))
write("ndjson", "error-body", b'{"error":"model not found"}\n')
write("ndjson", "multi-line", b'{"message":\n{"content":"hi"},\n"done":false}\n{"done":true}\n')
# graphemes: an even first byte means UTF-8 text follows; an odd one, pairs of (class, member) bytes.
write("graphemes", "multilingual", b"\x00" + cut_at(trace_bytes("llm-multilingual.trace", 3000), b"\n", 1500))
write("graphemes", "scripts", b"\x00" + "日本語 中文 한국어 \u1100\u1161\u11a8 नमस्ते क्षि र्क्ष्म্য বাংলা ক্ষ্ম ภาษาไทย กำลัง العربية السَّلَامُ cafe\u0301 "
      "👨‍👩‍👧‍👦 👩🏽‍💻 🏳️‍🌈 🇯🇵🇫🇷🇺 👍🏿 #️⃣ 🏴󠁧󠁢󠁳󠁣󠁴󠁿 \u0600123 \u200d\u2764 a\u200db\r\n".encode())
write("graphemes", "classes", b"\x01" + bytes(range(256)) + bytes(range(0, 256, 3)) + bytes(range(255, 0, -7)))
