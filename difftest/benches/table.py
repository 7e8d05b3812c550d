#!/usr/bin/env python3
"""Prints the last `cargo bench --bench compare` run as a Markdown table (docs/performance.md).

Run from `difftest/` after the bench: `python3 benches/table.py`. Reads criterion's estimates
(`target/criterion/<group>/<side>/new/`) and the bench's record of which streamed readings by
tool-parser found the calls (`target/criterion/stream_reads.json`).
"""

import json
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "criterion")


def mb_per_s(group, side):
    folder = os.path.join(ROOT, group, side, "new")
    with open(os.path.join(folder, "benchmark.json")) as f:
        size = json.load(f)["throughput"]["Bytes"]
    with open(os.path.join(folder, "estimates.json")) as f:
        nanos = json.load(f)["mean"]["point_estimate"]
    return size / nanos * 1e3  # bytes per ns -> MB/s (10^6 bytes)


def main():
    with open(os.path.join(ROOT, "stream_reads.json")) as f:
        reads = json.load(f)
    print("| format | input | chunk | tool-core MB/s | tool-parser MB/s | ratio | tool-parser's stream read the calls |")
    print("|---|---|---|---:|---:|---:|---|")
    for group in reads:  # the bench's order
        fmt, rest = group.rsplit("_", 2)[0], group.rsplit("_", 2)[1:]
        what, chunk = rest
        ours = mb_per_s(group, "tool_core")
        theirs = mb_per_s(group, "tool_parser")
        ok = "yes" if reads[group] else "**no**"
        ratio = ours / theirs
        ratio = f"{ratio:.1f}x" if ratio < 10 else f"{ratio:,.0f}x"
        print(f"| {fmt} | {what} | {chunk} | {ours:,.1f} | {theirs:,.2f} | {ratio} | {ok} |")


if __name__ == "__main__":
    sys.exit(main())
