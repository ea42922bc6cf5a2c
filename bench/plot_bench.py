#!/usr/bin/env python3
"""Plots `keydecide bench --plot`: the latency distribution and the per-stage P50/P95."""
import json
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(data_path: str, png_path: str) -> None:
    with open(data_path) as f:
        d = json.load(f)
    fig, (hist, stages) = plt.subplots(1, 2, figsize=(11, 4))
    samples = sorted(d["samples_us"])
    hist.hist(samples[: int(len(samples) * 0.999)], bins=80)
    hist.set_xlabel("decision latency (µs), up to P99.9")
    hist.set_ylabel("decisions")
    hist.set_title(f"{d['decisions']} decisions, {d['scorer']}")
    names = [n for n in ("features", "candidates", "model", "heads", "post") if n in d["stages_us"]]
    p50 = [d["stages_us"][n]["p50"] for n in names]
    p95 = [d["stages_us"][n]["p95"] for n in names]
    x = range(len(names))
    stages.bar([i - 0.2 for i in x], p50, width=0.4, label="P50")
    stages.bar([i + 0.2 for i in x], p95, width=0.4, label="P95")
    stages.set_xticks(list(x), names)
    stages.set_ylabel("µs")
    stages.legend()
    fig.tight_layout()
    fig.savefig(png_path, dpi=100)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
