"""Every code block of the README files and docs/ runs, so that examples cannot rot.

One test per page runs its blocks in order, by language:

- ```python: a doctest session (or plain code where it shows none); one namespace per page.
- ```json: one valid JSON value.
- ```sh: a bash script (`set -eo pipefail`) that must exit 0.
- ```console: `$ command` lines, each followed by the output it prints (stdout and stderr, as a
  terminal shows them; `...` matches anything, runs of whitespace are equal). Each must exit 0.
- ```text: not code (a diagram, pseudo-code, a formula, sample data); a text block that starts
  with a command of this project fails the test: make it sh or console. Indented code blocks
  and blocks without a language fail too.

The conventions for sh and console blocks (one place, here):

- They run in a fresh directory per page that looks like a checkout: every top-level entry of
  the repository is linked there (`.venv` is the environment running the tests), plus the
  example files the pages use (EXAMPLE_FILES, e.g. `records.jsonl`). Files they write stay there.
- PATH starts with the test environment's `bin` (`.venv/bin`), as after `. .venv/bin/activate`.
- A real server runs for them (`python -m service --memory` on a free loopback port):
  `STICH_SERVER` is its address, and `127.0.0.1:50051`, the default address, is replaced by it.
- A server start (a line beginning with `make run`, `make serve`, `python -m service` or
  `stich-server`, except with `--help`, `--version` or a pipe or `||`: a server start that is
  meant to fail) is long-running: tests/docs_serve.py starts
  it on a free port (its 127.0.0.1:50051 replaced, STICH_ADDRESS and STICH_DATA_DIR set to the
  directory's own), waits for its banner and a SERVING health check, then stops it with SIGTERM
  and requires a graceful stop.
- `make TARGET` runs the repository's Makefile against the test environment without
  reinstalling it; `make test` is this suite, so it is only checked (`make -n test` runs
  pytest), never run again. `pip install ...` runs as `pip install --dry-run
  --no-build-isolation ...`: it resolves what would be installed, installs nothing (the
  packages are installed already; tests/test_packaging.py installs them for real in clean venvs).
- Standard input answers `1` to every prompt, so `stich play` plays the first listed action.

Commands that take minutes (`make bench`, `make bench-report`, `make adversary`) or change the
checkout (`make gen`, `make build`, `make clean`) are named in prose, not in code blocks.
"""
from __future__ import annotations

import doctest
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from service.testing import ServerProcess, free_port

from conftest import GAMES

ROOT = Path(__file__).resolve().parent.parent
FILES = [ROOT / "README.md", ROOT / "clients" / "python" / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
FENCE = re.compile(r"^```([a-z]*)\n(.*?)^```\s*$", re.S | re.M)
LANGUAGES = {"python", "json", "sh", "console", "text"}
DEFAULT_ADDRESS = "127.0.0.1:50051"
DEFAULT_HTTP = "127.0.0.1:8080"          # the HTTP door's default; replaced like DEFAULT_ADDRESS
SERVER_START = re.compile(r"^\s*(make (run|serve)\b|(\.venv/bin/)?python -m service\b|stich-server\b)(?!.*(--help|--version|\|))")
COMMAND = re.compile(r"^\s*(\$ )?(make|python3?|pip|stich|stich-server|stich-engine|\.venv/bin/\S+)( |$)")
ANSWERS = "1\n" * 20_000
EXAMPLES_SEED = 20261201
NOT_LINKED = {".git", "data", "build", "dist", ".pytest_cache", ".hypothesis", ".benchmarks"}

PRELUDE = r"""
set -eo pipefail
make() {
    if [ "$*" = test ]; then       # this suite: checked, never run again
        command make --no-print-directory -n -o .venv/.installed -o .venv/.serving test | grep -q " -m pytest "
    else
        command make --no-print-directory -o .venv/.installed -o .venv/.serving "$@"
    fi
}
pip() {
    if [ "$1" = install ]; then
        shift; command pip install --dry-run --quiet --no-build-isolation "$@"
    else
        command pip "$@"
    fi
}
"""


def blocks(path: Path):
    text = path.read_text(encoding="utf-8")
    for m in FENCE.finditer(text):
        yield m.group(1), m.group(2), text.count("\n", 0, m.start()) + 1


def indented_code(path: Path) -> list[int]:
    """Lines that open a Markdown indented code block (outside fences and list items)."""
    lines, found, fenced = path.read_text(encoding="utf-8").split("\n"), [], False
    for i, line in enumerate(lines):
        if line.startswith("```"):
            fenced = not fenced
        elif not fenced and line.startswith("    ") and line.strip() and i and not lines[i - 1].strip():
            before = next((p for p in reversed(lines[:i]) if p.strip()), "")
            if not re.match(r"\s*([-*+]|\d+\.) ", before) and not before.startswith("  "):
                found.append(i + 1)
    return found


def example_files(where: Path) -> None:
    """The files the pages' commands read: `records.jsonl`, three finished Schafkopf deals."""
    from engine_core import batch, games
    options = games.get("schafkopf").options
    lines = [json.dumps(batch.playout_record("schafkopf", options, EXAMPLES_SEED, k, bids="cheapest"))
             for k in range(3)]
    (where / "records.jsonl").write_text("\n".join(lines) + "\n")


class Server:
    """The one real server of the run, started when a page first needs it."""

    def __init__(self):
        self.proc = None

    @property
    def address(self) -> str:
        if self.proc is None:
            self.proc = ServerProcess(None)
        return self.proc.address

    @property
    def http_address(self) -> str:
        self.address
        return self.proc.http_address

    def stop(self):
        if self.proc is not None:
            self.proc.stop()


@pytest.fixture(scope="module")
def server():
    srv = Server()
    yield srv
    srv.stop()


@pytest.fixture
def workspace(tmp_path):
    for entry in ROOT.iterdir():
        if entry.name not in NOT_LINKED:
            (tmp_path / entry.name).symlink_to(Path(sys.prefix) if entry.name == ".venv" else entry)
    if not (tmp_path / ".venv").exists():
        (tmp_path / ".venv").symlink_to(Path(sys.prefix))
    example_files(tmp_path)
    (tmp_path / ".prelude.sh").write_text(PRELUDE)
    return tmp_path


def shell_env(workspace: Path, server: Server) -> dict:
    bin_dir = str(Path(sys.executable).parent)
    return dict(os.environ, PATH=f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
                STICH_SERVER=server.address, STICH_ADDRESS=f"127.0.0.1:{free_port()}",
                STICH_HTTP=server.http_address, STICH_HTTP_ADDRESS=f"127.0.0.1:{free_port()}",
                STICH_DATA_DIR=str(workspace / "data"), STICH_DOC_PYTHON=sys.executable)


def prepare(code: str, server: Server) -> str:
    """A block's script with the conventions applied: server starts handed to docs_serve.py,
    the default address replaced."""
    out = []
    for line in code.splitlines():
        if SERVER_START.match(line):
            line = line.replace(DEFAULT_ADDRESS, f"127.0.0.1:{free_port()}")
            line = line.replace(DEFAULT_HTTP, f"127.0.0.1:{free_port()}")
            line = (f'"$STICH_DOC_PYTHON" {shlex.quote(str(ROOT / "tests" / "docs_serve.py"))} '
                    f'.prelude.sh {shlex.quote(line)}')
        else:
            line = line.replace(DEFAULT_ADDRESS, server.address).replace(DEFAULT_HTTP, server.http_address)
        out.append(line)
    return "\n".join(out) + "\n"


def bash(script: str, workspace: Path, server: Server, merged: bool = False) -> subprocess.CompletedProcess:
    """Run a script; `merged`: stderr into stdout, in the order a terminal would show them."""
    return subprocess.run(["bash", "-c", ". .prelude.sh\n" + script], cwd=workspace, input=ANSWERS,
                          env=shell_env(workspace, server), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT if merged else subprocess.PIPE, text=True, timeout=180)


def run_sh(code: str, where: str, workspace: Path, server: Server) -> None:
    run = bash(prepare(code, server), workspace, server)
    assert run.returncode == 0, f"{where}: exit status {run.returncode}\n{run.stdout[-4000:]}\n{run.stderr[-4000:]}"


def console_steps(code: str) -> list[tuple[str, str]]:
    steps: list[tuple[str, list[str]]] = []
    for line in code.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:], []))
        else:
            assert steps, f"a console block starts with `$ command`, not {line!r}"
            steps[-1][1].append(line)
    return [(cmd, "\n".join(out).strip() + "\n") for cmd, out in steps]


def run_console(code: str, where: str, workspace: Path, server: Server) -> None:
    checker = doctest.OutputChecker()
    flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    for command, expected in console_steps(code):
        run = bash(prepare(command, server) + "\n", workspace, server, merged=True)
        got = run.stdout.replace(server.address, DEFAULT_ADDRESS).replace(server.http_address, DEFAULT_HTTP).strip() + "\n"
        assert run.returncode == 0, f"{where}: `{command}` exit status {run.returncode}\n{got}"
        assert checker.check_output(expected, got, flags), \
            f"{where}: `{command}`\nexpected:\n{expected}\ngot:\n{got}"


def prepare_node() -> None:
    """npm ci in clients/ (once), and the page built, so that `make run` starts at once."""
    import node_env
    node_env.npm_ci()
    if not (ROOT / "clients" / "web" / "dist" / "index.html").exists():
        done = node_env.run("run", "build", "-w", "web")
        assert done.returncode == 0, done.stdout[-3000:]


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_code_blocks_run(path, workspace, server, monkeypatch):
    assert not indented_code(path), f"{path.name}: indented code blocks at lines {indented_code(path)}: fence them"
    monkeypatch.chdir(workspace)
    if re.search(r"^(make run|npm |node |cd clients)", path.read_text(), re.M):
        prepare_node()                     # the page's blocks need clients/node_modules and the page
    namespace = {"__name__": f"docs:{path.name}"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for lang, code, line in blocks(path):
        where = f"{path.relative_to(ROOT)}:{line}"
        assert lang in LANGUAGES, f"{where}: a code block needs a language: one of {sorted(LANGUAGES)}"
        if lang == "json":
            json.loads(code)
        elif lang == "python":
            if DEFAULT_ADDRESS in code:
                code = code.replace(DEFAULT_ADDRESS, server.address)
            if ">>>" in code:
                test = parser.get_doctest(code, namespace, where, str(path), line)
                result = runner.run(test, clear_globs=False)
                namespace.update(test.globs)          # DocTest copies its globals
                assert result.failed == 0, f"{where}: {result.failed} doctest example(s) failed"
            else:
                exec(compile(code, where, "exec"), namespace)
        elif lang == "sh":
            run_sh(code, where, workspace, server)
        elif lang == "console":
            run_console(code, where, workspace, server)
        else:
            assert not COMMAND.match(code), f"{where}: this text block is a command: make it ```sh or ```console"


def test_the_conventions_hold(workspace, server):
    """A server start is served and stopped; `make test` is checked, not run; a failing command fails."""
    run_sh("python -m service --address 127.0.0.1:50051 --memory\nmake test\n", "conventions", workspace, server)
    assert bash("false\n", workspace, server).returncode != 0
    failed = bash(prepare("python -m service --address 127.0.0.1:50051 --grace -1\n", server), workspace, server)
    assert failed.returncode != 0 and "did not start serving" in failed.stderr


def test_error_reasons_doc_is_generated_from_the_code():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_errors.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr


def test_rpc_reference_is_generated_from_the_protos():
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_rpc_docs.py"), "--check"],
                         capture_output=True, text=True, timeout=120)
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


@pytest.mark.parametrize("game", GAMES)
def test_each_rules_page_lists_every_option_with_its_default(game):
    """docs/rules/<game>.md's option table has one row per option the engine knows, with the
    engine's default (as JSON), and no row for an option the engine does not have."""
    from engine_core import games
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    rows = dict(re.findall(r"^\| `(\w+)` \| [^|]+ \| `([^`]+)` \|", text, re.M))
    specs = games.spec_of(game).options
    assert set(rows) == {o.name for o in specs}, set(rows) ^ {o.name for o in specs}
    for option in specs:
        default = list(option.default) if isinstance(option.default, tuple) else option.default
        assert json.loads(rows[option.name]) == default, (option.name, rows[option.name], option.default)


@pytest.mark.parametrize("path", FILES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository(path):
    """Every relative link of a page names a file of this repository (a clone has nothing
    beside it), and no page sends the reader to ../shared."""
    text = path.read_text(encoding="utf-8")
    assert "../shared" not in text, f"{path.name} refers to ../shared, which a clone does not have"
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        where = (path.parent / target).resolve()
        assert where.is_relative_to(ROOT) and where.exists(), f"{path.name}: broken link {target}"
