// TEMPORARY STUB (replaced by the formats work)
public enum StreamFormat: String, CaseIterable, Sendable { case raw, sse, ndjson }
