"""Every code block of the README and docs/ runs: ```python blocks as doctest sessions (or as
plain code where they show none), one namespace per file, in order; ```json blocks parse.
```text blocks are not code."""
import doctest
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```\s*$", re.S | re.M)
LANGUAGES = {"python", "json", "text", "sh", "console", "proto", "typescript", "ts", "js", "html", ""}


def blocks(path):
    text = path.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        yield m.group(1), m.group(2), line


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_blocks_run(path):
    namespace = {"__name__": f"docs:{path.name}"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for lang, code, line in blocks(path):
        assert lang in LANGUAGES, f"{path.name}:{line}: unknown code block language {lang!r}"
        where = f"{path.relative_to(ROOT)}:{line}"
        if lang == "json":
            json.loads(code)
        elif lang == "python":
            if ">>>" in code:
                test = parser.get_doctest(code, namespace, where, str(path), line)
                result = runner.run(test, clear_globs=False)
                namespace.update(test.globs)          # DocTest copies its globals
                assert result.failed == 0, f"{where}: {result.failed} doctest example(s) failed"
            else:
                exec(compile(code, where, "exec"), namespace)


def test_error_reasons_doc_is_generated_from_the_code():
    import subprocess
    import sys
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_errors.py"), "--check"],
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_every_reason_id_the_engine_raises_is_declared():
    """A reason id in a raise or a return of the engine's sources is one that docs/errors.md lists."""
    documented = set(re.findall(r"^\| `([A-Z_]+)` \|", (ROOT / "docs" / "errors.md").read_text(), re.M))
    used = set()
    for path in (ROOT / "src" / "engine_core").rglob("*"):
        if path.suffix in (".py", ".pyx", ".pxi"):
            text = path.read_text(encoding="utf-8")
            used |= set(re.findall(r'reason_id="([A-Z_]+)"', text))
            used |= set(re.findall(r'return "([A-Z_]{4,})", ', text))
            used |= set(re.findall(r'(?:_malformed|_refuse)\("([A-Z_]+)"', text))
    assert used and used <= documented, sorted(used - documented)
