"""The Python client installs on its own: `pip install ./clients/python` into a clean virtual
environment (no engine, no server) gives `stich_client` and the `stich` command, which play
against a real server; and the client never imports the engine."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from service.testing import ServerProcess

ROOT = Path(__file__).resolve().parent.parent
CLIENT = ROOT / "clients" / "python"
OFFLINE = ("Could not find a version", "No matching distribution", "Failed to establish a new connection",
           "Temporary failure in name resolution", "Network is unreachable")

SCRIPT = textwrap.dedent("""
    import sys
    from stich_client import StichClient, IllegalActionError, StichError
    with StichClient(sys.argv[1]) as c:
        t = c.create_table("schafkopf", {}, 1, ["human", "bot:easy", "bot:easy", "bot:easy"], seed=1)
        c.deal(t.table_id, t.tokens[0])
        v = c.wait_turn(t.table_id, t.tokens[0])               # the bots act off the request path
        while v["status"] == "in_deal":
            c.act(t.table_id, t.tokens[0], v["legal"][0])
            v = c.wait_turn(t.table_id, t.tokens[0])
        try:
            c.play(t.table_id, t.tokens[0], "QC")
        except IllegalActionError as err:
            assert isinstance(err, StichError) and err.reason_id == "NO_DEAL", err.reason_id
        assert c.score(t.table_id, t.tokens[0])["match_over"]
    assert not any(m == "engine_core" or m.startswith(("engine_core.", "service")) for m in sys.modules), \\
        sorted(m for m in sys.modules if m.startswith(("engine_core", "service")))
    print("client ok")
""")


@pytest.fixture(scope="module")
def server():
    with ServerProcess(None) as srv:
        yield srv


def test_the_client_does_not_import_the_engine(server, tmp_path):
    """In this environment too: with engine_core and service made unimportable."""
    blocker = tmp_path / "sitecustomize.py"
    blocker.write_text(textwrap.dedent("""
        import sys
        class Block:
            def find_spec(self, name, path=None, target=None):
                if name.split(".")[0] in ("engine_core", "service"):
                    raise ImportError(f"{name} must not be imported by the client")
        sys.meta_path.insert(0, Block())
    """))
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    run = subprocess.run([sys.executable, "-c", SCRIPT, server.address], env=env, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 0 and "client ok" in run.stdout, run.stdout + run.stderr


def test_pip_install_clients_python_in_a_clean_venv(server, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    run = subprocess.run([str(py), "-m", "pip", "install", "--quiet", str(CLIENT)], capture_output=True,
                         text=True, timeout=600)
    if run.returncode != 0 and any(s in run.stdout + run.stderr for s in OFFLINE):
        pytest.skip("no package index reachable: " + (run.stderr.strip().splitlines() or ["?"])[-1])
    assert run.returncode == 0, run.stdout + run.stderr
    check = subprocess.run([str(py), "-c", "import importlib.util as u; print(u.find_spec('engine_core'), "
                            "u.find_spec('service'))"], capture_output=True, text=True, timeout=60)
    assert check.stdout.split() == ["None", "None"], check.stdout + check.stderr
    run = subprocess.run([str(py), "-c", SCRIPT, server.address], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "client ok" in run.stdout, run.stdout + run.stderr
    games = subprocess.run([str(venv / "bin" / "stich"), "--server", server.address, "games"],
                           capture_output=True, text=True, timeout=60)
    assert games.returncode == 0 and '"schafkopf"' in games.stdout, games.stderr
