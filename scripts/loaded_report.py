"""Writes the busy-machine section of docs/performance.md from scripts/loaded_bench.sh's runs.

Usage: loaded_report.py RUNS_DIR PERFORMANCE_MD. RUNS_DIR holds {quiet,busy,matmul}-N.json
(openaclnn_bench --summary_json); each case's rate per mode is the median over the rounds, and
the section gives loaded time / quiet time (quiet rate / loaded rate) for openaclnn and PyTorch.
The section sits between two markers, which perf_report.py keeps when it remakes the page.
"""

import glob
import json
import os
import statistics
import sys

BEGIN = "<!-- loaded: written by scripts/loaded_report.py -->"
END = "<!-- /loaded -->"
LOADS = {"busy": "two busy-loop processes", "matmul": "a 2-thread PyTorch matmul process"}


def rates(runs_dir, mode):
    """{case: (ours, torch)} medians over the rounds of one mode."""
    per_case = {}
    files = sorted(glob.glob(os.path.join(runs_dir, mode + "-*.json")))
    for path in files:
        with open(path, encoding="utf-8") as f:
            summary = json.load(f)
        for row in summary["cases"]:
            ours, torch = per_case.setdefault(row["case"], ([], []))
            if row["ours"]:
                ours.append(row["ours"])
            if row["torch"]:
                torch.append(row["torch"])
    return {
        case: (statistics.median(o) if o else None, statistics.median(t) if t else None)
        for case, (o, t) in per_case.items()
    }, len(files)


def slowdown(quiet, loaded):
    return quiet / loaded if quiet and loaded else None


def fmt(value):
    return "-" if value is None else f"{value:.2f}"


def section(runs_dir):
    quiet, rounds = rates(runs_dir, "quiet")
    loaded = {mode: rates(runs_dir, mode)[0] for mode in LOADS}
    lines = [
        BEGIN,
        "## On a busy machine",
        "",
        "Made by `bash scripts/loaded_bench.sh`: each case run quiet, beside "
        + " and beside ".join(LOADS.values())
        + f", in turn, {rounds} round(s), medians. Each column is loaded time / quiet time "
        "(1.00: no slower; the target is at most 2).",
        "",
        "| case | ours, busy loops | PyTorch, busy loops | ours, matmul | PyTorch, matmul |",
        "|---|---:|---:|---:|---:|",
    ]
    worst = {mode: None for mode in LOADS}
    for case in sorted(quiet):
        q_ours, q_torch = quiet[case]
        cells = []
        for mode in LOADS:
            l_ours, l_torch = loaded[mode].get(case, (None, None))
            ours = slowdown(q_ours, l_ours)
            if ours is not None and (worst[mode] is None or ours > worst[mode]):
                worst[mode] = ours
            cells += [fmt(ours), fmt(slowdown(q_torch, l_torch))]
        lines.append(f"| {case} | " + " | ".join(cells) + " |")
    lines += [
        "",
        "Worst of ours: " + ", ".join(f"{fmt(worst[m])}x beside {LOADS[m]}" for m in LOADS) + ".",
        END,
    ]
    return "\n".join(lines) + "\n"


def main():
    runs_dir, page = sys.argv[1], sys.argv[2]
    text = open(page, encoding="utf-8").read() if os.path.exists(page) else ""
    new = section(runs_dir)
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        text = head + new + rest.split(END, 1)[1].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + new
    with open(page, "w", encoding="utf-8") as f:
        f.write(text)


if __name__ == "__main__":
    main()
