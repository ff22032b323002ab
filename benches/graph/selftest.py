#!/usr/bin/env python3
"""Self-test of the three extractors on small fixtures of the hard cases.

Each `fixtures/<lang>/expected.json` lists, for every source file, the exact dependency edges the
extractor must report. The Rust fixture is a real workspace (`cargo build` and `cargo test
--no-run` compile it), the Python one imports for real with `src/` on the path, so the expected
edges are what the languages' own tools do.

    python3 benches/graph/selftest.py
"""

import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from compare import rust_truth_binary  # noqa: E402


def check(name, cmd, fixture):
    out = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    expected = json.loads((fixture / "expected.json").read_text())
    got = {f: sorted(v["deps"]) for f, v in out["files"].items()}
    bad = [f for f in sorted(set(got) | set(expected)) if got.get(f) != expected.get(f)]
    for f in bad:
        print(f"{name}: {f}\n  got      {got.get(f)}\n  expected {expected.get(f)}")
    print(f"{name}: {len(expected) - len(bad)} of {len(expected)} files as expected")
    return not bad


def main():
    fx = HERE / "fixtures"
    ok = check("rust", [rust_truth_binary(), str(fx / "rust")], fx / "rust")
    ok &= check("python", [sys.executable, str(HERE / "python_truth.py"), str(fx / "python")], fx / "python")
    ok &= check("js/ts", ["node", str(HERE / "js_truth.mjs"), str(fx / "js")], fx / "js")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
