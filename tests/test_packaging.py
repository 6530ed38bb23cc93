"""stich as a Python user gets it: `python -m build` makes an sdist and a wheel, and `pip install`
of either into a clean virtual environment gives working commands and a server that serves the
web page at / from the package (the sdist carries the built page, the wheel ships it as
service/web: docs/web.md, "Packaging").

One build serves every check: `python -m build` makes the sdist, then the wheel from that sdist
in an isolated build environment, which is what `pip install` of the sdist does (the same PEP 517
build), so a working wheel proves the sdist installs; compiling it a second time through pip
proved nothing more and cost minutes. It compiles with STICH_OPT=-O0 (setup.py): the test is
about what the packages hold and how they install, not about the speed of the extensions.

The client package `stich-client` is not on a package index: as the README says, it is
installed from clients/python first, then stich.
"""
from __future__ import annotations

import http.client
import json
import os
import subprocess
import sys
import tarfile
import tomllib
import zipfile
from email.parser import Parser
from pathlib import Path

import pytest

from service.testing import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "python"
VERSION = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
CLIENT_VERSION = tomllib.loads((CLIENT / "pyproject.toml").read_text())["project"]["version"]
QUICK = dict(os.environ, STICH_OPT="-O0", CFLAGS="-g0")
BUILD_ONLY = ("cython", "setuptools", "grpcio-tools", "wheel", "build")
RECORD = {"game": "schafkopf", "dealer": 3, "hands": [
    ["QC", "QS", "JS", "JD", "8H", "KC", "8C", "AD"], ["QH", "JH", "AH", "TH", "AC", "TC", "9C", "7S"],
    ["QD", "JC", "KH", "7H", "AS", "TS", "9S", "KD"], ["9H", "7C", "KS", "8S", "TD", "9D", "8D", "7D"]],
    "actions": [{"seat": s, "type": "bid", "call": "pass"} for s in range(4)]}


def run(argv, timeout=600, **kw) -> subprocess.CompletedProcess:
    done = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=timeout, **kw)
    assert done.returncode == 0, f"{' '.join(map(str, argv))}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def dist(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("dist")
    run([sys.executable, "-m", "build", "--outdir", out, ROOT], env=QUICK)
    sdists, wheels = sorted(out.glob("*.tar.gz")), sorted(out.glob("*.whl"))
    assert len(sdists) == 1 and len(wheels) == 1, sorted(p.name for p in out.iterdir())
    return {"sdist": sdists[0], "wheel": wheels[0]}


def clean_venv(where: Path) -> Path:
    """A new venv with only stich-client (from clients/python) in it; its bin directory."""
    run([sys.executable, "-m", "venv", where])
    pip = [where / "bin" / "python", "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    run([*pip, CLIENT])
    return where / "bin"


def check_installed(bin_dir: Path, cwd: Path) -> None:
    """Every command answers --version, the engine evaluates a record, and what runs is the
    installed package (not this checkout)."""
    py = bin_dir / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    for argv, expected in (([py, "-m", "engine_core"], f"stich-engine {VERSION}"),
                           ([bin_dir / "stich-engine"], f"stich-engine {VERSION}"),
                           ([py, "-m", "service"], f"stich-server {VERSION}"),
                           ([bin_dir / "stich-server"], f"stich-server {VERSION}"),
                           ([bin_dir / "stich"], f"stich {CLIENT_VERSION}")):
        out = run([*argv, "--version"], timeout=60, cwd=cwd, env=env).stdout
        assert out.startswith(expected), (argv, out)
    answer = run([py, "-m", "engine_core", "evaluate"], input=json.dumps(RECORD) + "\n", timeout=60,
                 cwd=cwd, env=env).stdout
    assert json.loads(answer) == {"id": 1, "result": {
        "contract": {"type": "thrown_in", "declarer": None}, "teams": [], "tricks": [],
        "card_points": [0, 0, 0, 0], "scores": [0, 0, 0, 0], "breakdown": [], "winners": []}}, answer
    where = run([py, "-c", "import engine_core, service, stich_client; "
                 "print(engine_core.__file__, service.__file__, stich_client.__file__)"],
                timeout=60, cwd=cwd, env=env).stdout.split()
    assert all(str(bin_dir.parent) in w and str(ROOT) not in w for w in where), where


def test_the_wheel_holds_the_extensions_the_page_and_no_generated_c(dist):
    with zipfile.ZipFile(dist["wheel"]) as whl:
        names = whl.namelist()
        meta = Parser().parsestr(whl.read(f"stich-{VERSION}.dist-info/METADATA").decode())
    assert not [n for n in names if n.endswith((".c", ".html")) and not n.startswith("service/web/")], \
        "generated C in the wheel"
    assert "service/web/index.html" in names and any(n.startswith("service/web/") and n.endswith(".js") for n in names), \
        "the page is not in the wheel"
    assert not [n for n in names if n.endswith(".map")], "source maps in the wheel"
    assert any(n.startswith("engine_core/games/schafkopf/rules.") and n.endswith(".so") for n in names)
    assert {"engine_core/py.typed", "service/py.typed", f"stich-{VERSION}.dist-info/licenses/LICENSE"} <= set(names)
    assert not [n for n in names if n.startswith(("tests/", "bench/", "service/gen/"))]
    assert meta["License-Expression"] == "MIT"
    runtime = [r for r in meta.get_all("Requires-Dist") if "extra ==" not in r]
    assert "stich-client>=0.1.0" in runtime
    assert not [r for r in runtime if r.lower().startswith(BUILD_ONLY)], runtime


def test_the_sdist_holds_sources_only(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert {"LICENSE", "README.md", "pyproject.toml", "setup.py", "MANIFEST.in",
            "src/engine_core/_engine.pxi", "src/engine_core/games/doppelkopf/rules.pyx",
            "src/engine_core/py.typed", "src/service/py.typed"} <= names
    assert not [n for n in names if n.endswith((".c", ".so", ".html", ".pyc")) and not n.startswith("clients/web/dist/")], \
        "build output in the sdist"
    assert "clients/web/dist/index.html" in names, "the built page is not in the sdist (a wheel built from it needs it)"
    assert not [n for n in names if n.endswith((".ts", ".map"))], "page sources or source maps in the sdist"
    build = tomllib.loads((ROOT / "pyproject.toml").read_text())["build-system"]["requires"]
    assert any(r.startswith("Cython") for r in build) and any(r.startswith("setuptools") for r in build)


def test_pip_install_of_the_wheel_in_a_clean_venv(dist, tmp_path, monkeypatch):
    bin_dir = clean_venv(tmp_path / "venv")
    run([bin_dir / "python", "-m", "pip", "install", "--quiet", dist["wheel"]])
    check_installed(bin_dir, tmp_path)
    # the installed server serves the page it carries (no checkout, no Node)
    monkeypatch.delenv("PYTHONPATH", raising=False)
    monkeypatch.setenv("STICH_TEST_SERVER_PYTHON", str(bin_dir / "python"))
    monkeypatch.chdir(tmp_path)
    with zipfile.ZipFile(dist["wheel"]) as whl:
        packaged = {n[len("service/web"):]: whl.read(n) for n in whl.namelist() if n.startswith("service/web/")}
    packaged["/"] = packaged["/index.html"]
    with ServerProcess(None) as server:
        assert "not built" not in server.output, server.output
        conn = http.client.HTTPConnection(server.http_address, timeout=10)
        for path, body in sorted(packaged.items()):            # the page and every file it loads
            conn.request("GET", path)
            r = conn.getresponse()
            assert (r.status, r.read()) == (200, body), path
            if path == "/":
                assert r.getheader("content-type").startswith("text/html"), r.getheader("content-type")
        conn.close()



def test_the_versions_agree():
    import engine_core
    import stich_client
    assert engine_core.__version__ == VERSION and stich_client.__version__ == CLIENT_VERSION
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")
    assert (CLIENT / "LICENSE").read_text() == (ROOT / "LICENSE").read_text()


def test_make_run_installs_what_serving_needs_and_make_test_the_dev_extra(tmp_path):
    """`make run` on a fresh machine: stich without any extra (Ray alone is 245 MB); `make test`
    adds the dev extra's requirements on top, without building the extensions again."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("MAKE")}
    venv = tmp_path / "venv"
    run_recipe = run(["make", "-n", f"VENV={venv}", "run"], cwd=ROOT, env=env).stdout
    test_recipe = run(["make", "-n", f"VENV={venv}", "test"], cwd=ROOT, env=env).stdout
    installs = [line for line in run_recipe.splitlines() if " pip install" in line]
    assert any(line.endswith("-e ./clients/python -e .") for line in installs), installs
    assert not [line for line in installs if "[" in line or "requirements" in line], installs
    assert "-m service" in run_recipe and "dev-requirements" not in run_recipe
    dev = [line for line in test_recipe.splitlines() if "dev-requirements" in line]
    assert any("['optional-dependencies']['dev']" in line for line in dev) and \
        any("pip install --quiet -r" in line for line in dev), test_recipe
    assert test_recipe.count("-e ./clients/python -e .") == 1       # the extensions are built once

