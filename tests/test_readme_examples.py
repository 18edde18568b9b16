"""The README's Python examples run as written: each ``python`` block, in a namespace of its own, so
that the developers' part of the README cannot drift from the API it shows."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parent.parent / "README.md"
BLOCKS = re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), flags=re.S | re.M)


def test_the_readme_has_examples():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("block", BLOCKS, ids=[block.splitlines()[0] for block in BLOCKS])
def test_readme_example_runs(block):
    exec(compile(block, str(README), "exec"), {"__name__": "readme_example"})
