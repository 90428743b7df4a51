"""Every python block of docs/python.md runs as written."""

import os
import re
import sys

import pytest

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
DOC = os.path.join(ROOT, "docs", "python.md")


def blocks():
    with open(DOC) as f:
        return re.findall(r"```python\n(.*?)```", f.read(), re.S)


@pytest.mark.parametrize("code", blocks(), ids=lambda c: c.splitlines()[1][:40] if len(c.splitlines()) > 1 else c[:40])
def test_doc_example_runs(code, monkeypatch):
    # From the repository's root, as the page says (examples/bots/...); it holds no
    # catan_engine folder, so the installed package is the one imported.
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", list(sys.path))
    try:
        exec(compile(code, DOC, "exec"), {"__name__": "__doc_example__"})
    finally:
        # An example that fails before its ray.shutdown() must not leave Ray running for
        # the tests after it.
        ray = sys.modules.get("ray")
        if ray is not None and ray.is_initialized():
            ray.shutdown()
