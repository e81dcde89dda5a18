"""Score a hand file in parallel with the standard library, from Python.

`mjscore batch FILE --jobs N` does this for you; this is the same pure function,
`scorer.score_record(line, defaults)`, mapped over lines by any executor you like.
Run:  python examples/parallel.py examples/hangzhou.txt --rules hangzhou
"""

from __future__ import annotations

import json
import sys
from concurrent.futures import ProcessPoolExecutor
from functools import partial

from scorer import score_record


def main(path: str, *defaults: str) -> list[dict]:
    with open(path, encoding="utf-8") as f:
        lines = [(n, text) for n, text in enumerate(f, 1)
                 if text.strip() and not text.lstrip().startswith("#")]
    work = partial(score_record, defaults=defaults)
    with ProcessPoolExecutor() as pool:
        # map keeps the input order; each result is the JSON of `mjscore score --json`
        results = list(pool.map(work, [text for _, text in lines], chunksize=64))
    for (n, _), rec in zip(lines, results, strict=True):
        rec["line"] = n
    return results


if __name__ == "__main__":
    for rec in main(sys.argv[1], *sys.argv[2:]):
        print(json.dumps(rec, ensure_ascii=False))
