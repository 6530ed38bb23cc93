"""tests/conformance must stay a verbatim copy of ../shared/conformance (when it is there)."""
from pathlib import Path

import pytest

from conftest import CONFORMANCE

SHARED = Path(__file__).resolve().parents[2] / "shared" / "conformance"


@pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/conformance is not beside this checkout")
def test_copies_match_shared():
    shared = sorted(p.relative_to(SHARED) for p in SHARED.rglob("*.jsonl"))
    # the project's own lines (own-*.jsonl, e.g. schafkopf/OWN.md) are not the reference's
    ours = sorted(p.relative_to(CONFORMANCE) for p in CONFORMANCE.rglob("*.jsonl") if not p.name.startswith("own-"))
    assert ours == shared
    for rel in shared:
        assert (CONFORMANCE / rel).read_bytes() == (SHARED / rel).read_bytes(), f"{rel} is out of sync"
