"""Summarise a py-spy collapsed-stack file (``py-spy record --format raw``): the functions with the largest
cumulative and self share of the samples.

    py-spy record --pid <server> --gil --format raw -o server.txt --rate 40 --duration 60 --nonblocking
    .venv/bin/python bench/pyspy_summary.py server.txt [--top 40]

``--gil`` keeps only the samples of the thread holding the GIL, so that the shares are shares of the server's Python
CPU (without it, threads waiting on the GIL, on a socket or in ``time.sleep`` of Streamlit's config-file pollers are
counted too: the first profile of issue 31 showed 20 % in ``_write_to_self``, a thread waiting for the GIL).
``pip install py-spy`` into the venv; attach to the server while ``bench/load.py --mode protocol`` runs.
"""

from __future__ import annotations

import argparse
import collections
import re
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("raw")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--thread", default=None, help="only stacks whose thread frame contains this text")
    args = parser.parse_args()
    cumulative, own = collections.Counter(), collections.Counter()
    total = 0
    for line in Path(args.raw).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        if args.thread and args.thread not in stack:
            continue
        n = int(count)
        total += n
        frames = [re.sub(r":\d+\)$", ")", f) for f in stack.split(";")]  # one entry per function, not per line
        for frame in set(frames):
            cumulative[frame] += n
        own[frames[-1]] += n
    print(f"{total} samples")
    print("cumulative:")
    for frame, n in cumulative.most_common(args.top):
        print(f"  {100 * n / total:5.1f}%  {frame}")
    print("self:")
    for frame, n in own.most_common(args.top // 2):
        print(f"  {100 * n / total:5.1f}%  {frame}")


if __name__ == "__main__":
    main()
