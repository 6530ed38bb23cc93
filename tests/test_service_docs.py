"""docs/service.md's `sh` blocks run against a real server (STICH_SERVER is its address), with
this environment's commands on PATH; its `python` blocks run in tests/test_docs.py (they start
their own server)."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from service_harness import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "service.md"
FENCE = re.compile(r"^```sh\n(.*?)^```\s*$", re.S | re.M)
BLOCKS = [m.group(1) for m in FENCE.finditer(DOC.read_text(encoding="utf-8"))]


@pytest.fixture(scope="module")
def server():
    with ServerProcess(None) as srv:
        yield srv


@pytest.mark.parametrize("block", BLOCKS, ids=[b.splitlines()[0][:40] for b in BLOCKS])
def test_sh_block_runs(server, block, tmp_path):
    env = dict(os.environ, STICH_SERVER=server.address,
               PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}")
    run = subprocess.run(["bash", "-eo", "pipefail", "-c", block], cwd=tmp_path, env=env,
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and run.stdout.strip(), run.stdout + run.stderr


def test_the_page_has_runnable_blocks():
    assert len(BLOCKS) >= 2


def test_every_service_reason_is_declared_and_documented():
    import service
    from service.errors import REASONS
    text = DOC.read_text(encoding="utf-8")
    source = "".join(p.read_text() for p in Path(service.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'(?:reason=|ServiceError\([^,]+, |precondition\(|exhausted\()"([A-Z][A-Z0-9_]+)"', source))
    raised |= {f"{w.upper()}_NOT_FOUND" for w in re.findall(r'not_found\("(\w+)"', source)}
    engine = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", (ROOT / "docs" / "errors.md").read_text(), re.M))
    assert raised <= set(REASONS) | engine, raised - set(REASONS) - engine
    assert all(f"`{r}`" in text for r in REASONS), [r for r in REASONS if f"`{r}`" not in text]
