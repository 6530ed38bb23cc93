"""`--ray`: evaluate, solve, analyze and tournament on a local Ray give the single-machine output
byte for byte, in input order, for every game: malformed, blank and unfinished lines included.

One local Ray (two CPUs, loopback) serves the module; the commands run in this process through
cli.main (which uses a Ray already initialised as it is). One end-to-end run goes through a
subprocess with `--ray local`, which starts and stops its own Ray. The errors: ray missing,
an address where nothing listens, and that importing the CLI never imports ray.
"""
from __future__ import annotations

import io
import json
import logging
import random
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

ray = pytest.importorskip("ray", reason="the ray extra: pip install -e '.[dev]' (or '.[ray]')")

from engine_core import cli, distributed, games, records  # noqa: E402
from engine_core.bots import tournament  # noqa: E402
from service.testing import free_port  # noqa: E402

from conftest import GAMES, conformance_lines  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CONFORMANCE = ROOT / "tests" / "conformance"
ENGINE = [sys.executable, "-m", "engine_core"]
# the lines a batch must survive: each gets its error line and costs the others nothing
BAD_LINES = [b"not json", b'{"id": "\xc3\xa4-unclosed", "record": {', b"{}", b"[1, 2]",
             b'{"id": "empty", "record": {"game": "skat", "dealer": 0, "hands": [], "actions": []}}',
             b'{"id": null, "record": {"game": "schafkopf"}}']


@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """The module's one Ray: two CPUs, as CI has."""
    ray.init(address="local", num_cpus=2, include_dashboard=False, logging_level=logging.ERROR,
             _node_ip_address="127.0.0.1")
    yield
    ray.shutdown()


def run_cli(argv: list[str]) -> bytes:
    """cli.main in this process; its standard output as bytes (exit status 0 required)."""
    saved, out = sys.stdout, io.BytesIO()
    sys.stdout = wrapper = io.TextIOWrapper(out, encoding="utf-8")
    try:
        assert cli.main(argv) == 0
    finally:
        sys.stdout = saved
        wrapper.detach()                  # flushes, and leaves `out` open
    return out.getvalue()


def local_and_ray(argv: list[str]) -> tuple[bytes, bytes]:
    """The command's output here and with --ray (the module's Ray)."""
    return run_cli(argv), run_cli([argv[0], "--ray", "local", *argv[1:]])


def batch_file(tmp_path: Path, game: str) -> Path:
    """Every conformance line of the game, with bad lines, blank lines (which count in the line
    numbers, the default ids) and a CRLF ending mixed in."""
    lines: list[bytes] = []
    for name in ("scenarios", "legal", "illegal", "random"):
        path = CONFORMANCE / game / f"{name}.jsonl"
        if not path.exists():                       # a seat variant: its own lines
            path = CONFORMANCE / game / f"own-{name}.jsonl"
        lines += path.read_bytes().splitlines() if path.exists() else []
    while len(lines) < 420:                             # a seat variant's few lines, repeated
        lines += lines[:420]
    step = len(lines) // len(BAD_LINES)
    for i, bad in enumerate(BAD_LINES):
        lines.insert(i * step + 3, bad)
    lines.insert(10, b"")
    lines.insert(200, b"   ")
    lines[20] += b"\r"
    path = tmp_path / f"{game}.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_evaluate_on_ray_is_the_local_output(game, tmp_path, monkeypatch):
    path = str(batch_file(tmp_path, game))
    here, there = local_and_ray(["evaluate", path])
    assert here == there
    answers = [json.loads(line) for line in here.splitlines()]
    errors = [a for a in answers if "error" in a]
    assert len(answers) > 400 and any(a["error"]["reason_id"] == "MALFORMED_JSON" for a in errors)
    assert [a["id"] for a in answers if a["id"] == "empty"] and any("result" in a for a in answers)
    # many small tasks, more than the window of tasks in flight: still in input order
    monkeypatch.setitem(cli.CHUNK_LINES, "evaluate", (256, 7))
    assert run_cli(["evaluate", "--legal", "--ray", "local", path]) == run_cli(["evaluate", "--legal", path])


def positions_file(tmp_path: Path, game: str) -> Path:
    """Finished deals, positions two tricks before the end, one a few tricks in (searched with
    a budget, so bounds), one still in the auction, and bad lines."""
    finished = [line["record"] for line in conformance_lines(game, "random")[:4]]
    rng = random.Random(game)
    for seed in range(4 - len(finished)):      # a seat variant has one line: random deals beside it
        state = games.get(game).deal(seed)
        while not state.is_over():
            state.apply(rng.choice(state.legal_actions()))
        finished.append(state.record())
    lines = []
    for n, record in enumerate(finished):
        seats = records.new_state(record).game.seats
        lines.append(json.dumps({"id": f"{game}-{n}-end", "record": record}))
        lines.append(json.dumps({"id": f"{game}-{n}-two-tricks", "record":
                                 {**record, "actions": record["actions"][:-2 * seats]}}))
    lines.append(json.dumps({**finished[0], "actions": finished[0]["actions"][:-5 * records.new_state(finished[0]).game.seats]}))
    lines.append(json.dumps({**finished[1], "actions": finished[1]["actions"][:1]}))
    lines += [bad.decode() for bad in BAD_LINES]
    path = tmp_path / f"{game}-positions.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("game", GAMES)
def test_solve_on_ray_is_the_local_output(game, tmp_path):
    path = str(positions_file(tmp_path, game))
    here, there = local_and_ray(["solve", "--budget", "3000", path])
    assert here == there
    answers = [json.loads(line) for line in here.splitlines()]
    assert any(a.get("values") for a in answers) and sum("error" in a for a in answers) >= len(BAD_LINES)
    here, there = local_and_ray(["solve", "--target", "win", "--budget", "3000", path])
    assert here == there and here.count(b'"reaches"') >= 8


@pytest.mark.parametrize("game", GAMES)
def test_analyze_on_ray_is_the_local_output(game, tmp_path):
    path = str(positions_file(tmp_path, game))
    here, there = local_and_ray(["analyze", "--budget", "20000", path])
    assert here == there
    answers = [json.loads(line) for line in here.splitlines()]
    assert any(a.get("actions") for a in answers) and any("error" in a for a in answers)


def without_times(report: dict) -> dict:
    """The report less the decision times, which are wall-clock (every other figure depends on
    the seed and the deals only)."""
    return {**report, "bots": [{k: v for k, v in b.items() if not k.startswith("time_")} for b in report["bots"]]}


# each game's tournament: its bots and deals (a game not listed: easy against random, 4 deals)
TOURNAMENTS = {"schafkopf": ("normal,easy", 6), "doppelkopf": ("easy,random", 5),
               "sheepshead": ("easy,random", 4), "klaverjas": ("normal,random", 6)}


@pytest.mark.parametrize("game", GAMES)
def test_tournament_on_ray_is_the_local_run(game):
    bots, deals = TOURNAMENTS.get(game, ("easy,random", 4))
    argv = ["tournament", "--game", game, "--bots", bots, "--deals", str(deals), "--seed", "11", "--json"]
    here, there = (json.loads(out) for out in local_and_ray(argv))
    assert without_times(here) == without_times(there) and here["bots"][0]["decisions"] > 0
    # deal for deal, in several deals per task
    names = bots.split(",")
    chunks = [range(0, 3), range(3, deals)]
    remote = [deal for part in distributed.ordered_map(tournament.play_deals, chunks, game, names, 11, {}, {})
              for deal in part]
    local = tournament.play_deals(range(deals), game, names, 11, {}, {})
    assert [plays for plays, _, _ in remote] == [plays for plays, _, _ in local]
    assert [(len(a), len(b)) for _, a, b in remote] == [(len(a), len(b)) for _, a, b in local]


def test_tournament_threads_and_ray_do_not_go_together():
    run = subprocess.run([*ENGINE, "tournament", "--game", "schafkopf", "--bots", "easy,random",
                          "--threads", "2", "--ray", "local"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.count("\n") == 1 and "--threads" in run.stderr, run.stderr


def test_the_command_line_with_ray_local(tmp_path):
    """The whole path as a user runs it: a subprocess that starts its own local Ray and stops it."""
    path = batch_file(tmp_path, "schafkopf")
    here = subprocess.run([*ENGINE, "evaluate", str(path)], capture_output=True, timeout=60)
    there = subprocess.run([*ENGINE, "evaluate", "--ray", "local", str(path)], capture_output=True, timeout=120)
    assert there.returncode == 0 and b"Traceback" not in there.stderr, there.stderr.decode()[-3000:]
    assert there.stdout == here.stdout and here.stdout.count(b"\n") > 400


def one_line_error(argv, status, **kw) -> str:
    run = subprocess.run(argv, capture_output=True, text=True, timeout=60, **kw)
    assert run.returncode == status and run.stderr.count("\n") == 1 and "Traceback" not in run.stderr, \
        f"status {run.returncode}: {run.stderr}"
    return run.stderr.strip()


def test_without_ray_installed_one_line_and_status_2():
    hide_ray = ("import sys; sys.modules['ray'] = None; sys.argv[0] = '-c'; from engine_core.cli import main; "
                "raise SystemExit(main(sys.argv[1:]))")
    for argv in (["evaluate", "--ray", "local", "-"], ["tournament", "--game", "schafkopf", "--bots",
                                                       "easy,random", "--ray", "local"]):
        line = one_line_error([sys.executable, "-c", hide_ray, *argv], 2, input="")
        assert line == f"python -m engine_core {argv[0]}: ray is not installed: pip install 'stich[ray]'", line


@pytest.mark.parametrize("scheme", ["", "ray://"])
def test_an_address_where_nothing_listens(scheme):
    address = f"{scheme}127.0.0.1:{free_port()}"
    line = one_line_error([*ENGINE, "solve", "--ray", address, "-"], 2, input="{}\n")
    assert f"cannot reach the Ray cluster at {address}" in line, line


def test_an_empty_address_is_a_flag_mistake():
    line = one_line_error([*ENGINE, "evaluate", "--ray", " ", "-"], 2, input="")
    assert "--ray: must be local or a Ray address" in line, line


def test_a_missing_input_is_reported_before_ray_starts():
    line = one_line_error([*ENGINE, "analyze", "--ray", "local", "no-such-file.jsonl"], 2)
    assert "cannot read no-such-file.jsonl" in line, line


def test_ray_is_imported_only_when_asked_for():
    code = ("import sys, engine_core.cli, engine_core.distributed, engine_core.bots.tournament; "
            "assert 'ray' not in sys.modules, 'ray imported'")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_ray_is_an_extra_and_in_dev():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert not [d for d in project["dependencies"] if d.lower().startswith("ray")]
    extras = project["optional-dependencies"]
    assert any(d.startswith("ray") for d in extras["ray"]) and set(extras["ray"]) <= set(extras["dev"])


@pytest.fixture(scope="module")
def ray_head(tmp_path_factory):
    """A cluster as `ray start --head` makes one, in the foreground (--block) so that ending this
    one process stops it; on loopback, one CPU, without token authentication. (GCS port, Ray
    Client port)."""
    port, client = free_port(), free_port()
    log = tmp_path_factory.mktemp("ray-head") / "head.log"
    with open(log, "wb") as out:
        head = subprocess.Popen([Path(sys.executable).parent / "ray", "start", "--head", "--block", f"--port={port}",
                                 f"--ray-client-server-port={client}", "--node-ip-address=127.0.0.1", "--num-cpus=1",
                                 "--include-dashboard=false", "--disable-usage-stats"],
                                stdout=out, stderr=subprocess.STDOUT, env=dict(os.environ, **NO_AUTH))
    try:
        deadline = time.monotonic() + 90
        while b"Ray runtime started" not in log.read_bytes():
            assert head.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.5)
        yield port, client
    finally:
        head.terminate()
        try:
            head.wait(30)
        except subprocess.TimeoutExpired:
            head.kill()
            head.wait(10)


NO_AUTH = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}


def test_a_cluster_started_with_ray_start(ray_head, tmp_path):
    """An address as the docs give it: HOST:PORT of the head's GCS. (ray://HOST:10001 works
    too, but the Ray Client's server dies at times as it starts, ray-project/ray#63202: a
    test of it would fail now and then; its retries are tested below.)"""
    port, _ = ray_head
    address = f"127.0.0.1:{port}"
    path = str(batch_file(tmp_path, "sheepshead"))
    env = dict(os.environ, **NO_AUTH)
    here = subprocess.run([*ENGINE, "evaluate", path], capture_output=True, timeout=60)
    there = subprocess.run([*ENGINE, "evaluate", "--ray", address, path], capture_output=True, env=env, timeout=120)
    assert there.returncode == 0 and there.stdout == here.stdout, there.stderr.decode()[-3000:]
    argv = ["tournament", "--game", "klaverjas", "--bots", "easy,random", "--deals", "8", "--json"]
    local = json.loads(subprocess.run([*ENGINE, *argv], capture_output=True, timeout=60).stdout)
    remote = subprocess.run([*ENGINE, *argv, "--ray", address], capture_output=True, env=env, timeout=120)
    assert remote.returncode == 0, remote.stderr.decode()[-3000:]
    assert without_times(json.loads(remote.stdout)) == without_times(local)


def test_a_ray_client_join_is_tried_again_when_its_server_dies_starting(monkeypatch):
    calls, failures = [], [distributed.CLIENT_ATTEMPTS - 1]

    def init(address, **kw):
        """ray.init as it goes when the server of the client dies `failures` more times."""
        calls.append(address)
        if failures[0] > 0:
            failures[0] -= 1
            raise ConnectionAbortedError("Initialization failure from server:\n")

    monkeypatch.setattr(ray, "init", init)
    distributed._join(ray, "ray://127.0.0.1:10001")
    assert len(calls) == distributed.CLIENT_ATTEMPTS
    calls.clear()
    failures[0] = distributed.CLIENT_ATTEMPTS
    with pytest.raises(distributed.RayUnavailable, match=r"ray://127.0.0.1:10001: Initialization failure"):
        distributed._join(ray, "ray://127.0.0.1:10001")
    assert len(calls) == distributed.CLIENT_ATTEMPTS
    calls.clear()
    failures[0] = 1
    with pytest.raises(distributed.RayUnavailable, match="RAY_AUTH_MODE=token"):
        distributed._join(ray, "127.0.0.1:6379")           # a GCS address: once, no retry
    assert calls == ["127.0.0.1:6379"]


def test_worker_output_never_reaches_the_answers():
    """Ray copies a worker's stdout into the driver's unless told not to: stdout is the answers'."""
    code = ("import sys\nfrom engine_core import distributed\n"
            "def noisy(chunk):\n    print('worker noise'); print('worker noise', file=sys.stderr); return chunk\n"
            "with distributed.cluster('local'):\n"
            "    print(list(distributed.ordered_map(noisy, [[1], [2], [3]])))\n"
            "    import time; time.sleep(1.5)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout == "[[1], [2], [3]]\n", done.stdout + done.stderr[-2000:]
