"""docs/service.md documents every reason id the service raises (its code blocks run in
tests/test_docs.py, with every other page's)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "service.md"


def test_every_service_reason_is_declared_and_documented():
    import service
    from service.errors import REASONS
    text = DOC.read_text(encoding="utf-8")
    source = "".join(p.read_text() for p in Path(service.__file__).parent.glob("*.py"))
    raised = set(re.findall(r'(?:reason=|reason: str = |ServiceError\([^,]+, |precondition\(|exhausted\(|already_exists\(|unavailable\()"([A-Z][A-Z0-9_]+)"', source))
    raised |= {f"{w.upper()}_NOT_FOUND" for w in re.findall(r'not_found\("(\w+)"', source)}
    engine = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", (ROOT / "docs" / "errors.md").read_text(), re.M))
    assert raised <= set(REASONS) | engine, raised - set(REASONS) - engine
    assert all(f"`{r}`" in text for r in REASONS), [r for r in REASONS if f"`{r}`" not in text]
    assert all(f"`{r}`" in (ROOT / "docs" / "errors.md").read_text() for r in REASONS)
