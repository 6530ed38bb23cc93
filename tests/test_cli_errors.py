"""Every command line ends a mistake with one readable line on stderr and a non-zero exit
status, never a traceback: `python -m engine_core` / `stich-engine` (evaluate, solve, analyze,
demo), `python -m service` / `stich-server` (every flag and STICH_* variable, a port in use, a
data directory that cannot hold the database), and the client's `stich`. Real subprocesses."""
from __future__ import annotations

import json
import os
import socket
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from service.config import RANGES
from service.testing import free_port

BIN = Path(sys.executable).parent
ENGINE = [sys.executable, "-m", "engine_core"]
SERVER = [sys.executable, "-m", "service"]
CLIENT = [str(BIN / "stich")]
BROKEN_PIPE = 141


def one_line_error(argv, status=2, stdin="", env=None, cwd=None, timeout=60, **kw) -> str:
    """Run argv; it must exit with `status` and write exactly one line to stderr, no traceback."""
    run = subprocess.run([str(a) for a in argv], input=stdin, capture_output=True, text=True, timeout=timeout,
                         env=dict(os.environ, **(env or {})), cwd=cwd, **kw)
    lines = run.stderr.splitlines()
    assert run.returncode == status and len(lines) == 1 and "Traceback" not in run.stderr, \
        f"{argv}: status {run.returncode}\nstderr:\n{run.stderr}"
    return lines[0]


# ---- python -m engine_core ----------------------------------------------------------------------
ENGINE_MISTAKES = [
    (["demo", "--options", "[1]"], "must be a JSON object"),
    (["demo", "--options", "{x"], "not JSON"),
    (["demo", "--options", '{"kontra": 5}'], "kontra"),
    (["demo", "--options", '{"no_such_option": 1}'], "no_such_option"),
    (["demo", "--game", "skat"], "invalid choice"),
    (["demo", "--seed", "-1"], "0..2^64-1"),
    (["demo", "--seed", str(2 ** 64)], "0..2^64-1"),
    (["demo", "--seed", "x"], "0..2^64-1"),
    (["demo", "--deals", "0"], "1..10000"),
    (["demo", "--deals", "10001"], "1..10000"),
    (["evaluate", "no-such-file.jsonl"], "cannot read"),
    (["evaluate", "."], "cannot read"),
    (["evaluate", "--bogus"], "unrecognized arguments"),
    (["solve", "--budget", "0"], "positive"),
    (["solve", "--target", "bogus"], "must be a number or one of"),
    (["solve", "no-such-file.jsonl"], "cannot read"),
    (["analyze", "--budget", "-5"], "positive"),
    (["analyze", "no-such-file.jsonl"], "cannot read"),
    ([], "required"),
    (["play"], "invalid choice"),
]


@pytest.mark.parametrize("args,says", ENGINE_MISTAKES, ids=[" ".join(a) or "no command" for a, _ in ENGINE_MISTAKES])
def test_engine_flag_mistakes(args, says, tmp_path):
    line = one_line_error([*ENGINE, *args], cwd=tmp_path)
    assert line.startswith("python -m engine_core") and says in line, line


def test_the_console_script_names_itself():
    line = one_line_error([BIN / "stich-engine", "demo", "--deals", "x"])
    assert line.startswith("stich-engine demo: ") and "--help" in line, line


def closed_pipe_run(argv, stdin: bytes = b"", timeout=60) -> subprocess.CompletedProcess:
    """argv with a standard output whose reader is already gone (`| head` that has exited)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([str(a) for a in argv], stdout=write, stderr=subprocess.PIPE, input=stdin,
                              timeout=timeout)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [["demo", "--deals", "3"], ["evaluate", "-"], ["solve", "--budget", "1000"],
                                  ["analyze", "--budget", "1000"]], ids=lambda a: a[0])
def test_engine_closed_pipe(args):
    from engine_core import batch, games
    record = batch.playout_record("schafkopf", games.get("schafkopf").options, 5, 0, bids="cheapest")
    run = closed_pipe_run([*ENGINE, *args], stdin=(json.dumps(record) + "\n").encode())
    err = run.stderr.decode()
    assert run.returncode == BROKEN_PIPE and err.count("\n") == 1 and "broken pipe" in err, err


def test_engine_output_that_cannot_be_written():
    if not os.path.exists("/dev/full"):
        pytest.fail("/dev/full is needed")
    with open("/dev/full", "w") as full:
        run = subprocess.run([*ENGINE, "demo", "--deals", "2"], stdout=full, stderr=subprocess.PIPE,
                             text=True, timeout=60)
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "No space left" in run.stderr, run.stderr


def test_engine_version():
    from engine_core import __version__
    for argv in ([*ENGINE, "--version"], [BIN / "stich-engine", "--version"]):
        run = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and run.stdout == f"stich-engine {__version__}\n", run


# ---- python -m service ---------------------------------------------------------------------------
def server_mistakes():
    cases = [(["--address", "nonsense"], "HOST:PORT"), (["--address", "127.0.0.1:65536"], "0..65535"),
             (["--address", "127.0.0.1:-1"], "HOST:PORT"), (["--data-dir", ""], "--data-dir"),
             (["--bogus"], "unrecognized arguments"), (["--table-threads", "x"], "integer")]
    for name, (low, high) in RANGES.items():
        flag = "--" + name.replace("_", "-")
        below = low - 1 if isinstance(low, int) else low - 0.5
        above = high * 2 + 1 if isinstance(high, int) else high * 2
        cases += [([flag, str(below)], flag), ([flag, str(above)], flag)]
    cases.append((["--grace", "nan"], "--grace"))
    return cases


@pytest.mark.parametrize("args,says", server_mistakes(), ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_server_flag_mistakes(args, says):
    line = one_line_error([*SERVER, "--memory", *args] if "--data-dir" not in args else [*SERVER, *args])
    assert line.startswith("python -m service: ") and says in line, line


@pytest.mark.parametrize("variable,value", [("STICH_TABLE_THREADS", "0"), ("STICH_GRACE", "soon"),
                                            ("STICH_ADDRESS", "50051"), ("STICH_EVALUATE_PROCESSES", "100000"),
                                            ("STICH_DATABASE", "mysql://x")])
def test_server_environment_mistakes(variable, value):
    line = one_line_error([*SERVER, "--memory"], env={variable: value})
    assert line.startswith(f"python -m service: {variable}: "), line


def test_stich_server_names_itself():
    line = one_line_error([BIN / "stich-server", "--no-such-flag", "0"])
    assert line.startswith("stich-server: unrecognized arguments"), line


def test_server_port_in_use():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        address = f"127.0.0.1:{taken.getsockname()[1]}"
        line = one_line_error([*SERVER, "--memory", "--address", address], status=1)
    assert line == (f"python -m service: cannot listen on {address}: the port is in use (is another server "
                    f"running? choose another port with --address, or port 0 for a free one)"), line


def test_server_unknown_host():
    line = one_line_error([*SERVER, "--memory", "--address", "no-such-host.invalid:50051"], status=1)
    assert "no such host 'no-such-host.invalid'" in line, line


def test_server_data_dir_is_a_file(tmp_path):
    afile = tmp_path / "data"
    afile.write_text("not a directory")
    line = one_line_error([*SERVER, "--data-dir", afile, "--address", f"127.0.0.1:{free_port()}"], status=1)
    assert line == f"python -m service: --data-dir {afile} is a file, not a directory", line
    line = one_line_error([*SERVER, "--data-dir", afile / "below", "--address", "127.0.0.1:0"], status=1)
    assert line == f"python -m service: cannot create --data-dir {afile / 'below'}: Not a directory", line


def test_server_database_that_is_not_one(tmp_path):
    (tmp_path / "stich.sqlite3").write_text("garbage, not SQLite")
    line = one_line_error([*SERVER, "--data-dir", tmp_path, "--address", "127.0.0.1:0"], status=1)
    assert line.startswith("python -m service: cannot open the database ") and "not a database" in line, line


def lock(path: Path, locked: bool) -> None:
    """Make a directory unwritable, for root too: the immutable attribute as root (root may
    write anywhere else), the permission bits otherwise."""
    if os.geteuid() == 0:
        subprocess.run(["chattr", "+i" if locked else "-i", str(path)], check=True, timeout=30)
    else:
        path.chmod(0o555 if locked else stat.S_IRWXU)


def test_server_data_dir_without_permission(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir()
    lock(locked, True)
    try:
        line = one_line_error([*SERVER, "--data-dir", locked, "--address", "127.0.0.1:0"], status=1)
        assert line == f"python -m service: --data-dir {locked} is not writable (permission denied)", line
        line = one_line_error([*SERVER, "--data-dir", locked / "sub", "--address", "127.0.0.1:0"], status=1)
        assert line in (f"python -m service: cannot create --data-dir {locked / 'sub'}: {why}"
                        for why in ("Permission denied", "Operation not permitted")), line
    finally:
        lock(locked, False)


def test_server_version():
    from engine_core import __version__
    for argv in ([*SERVER, "--version"], [BIN / "stich-server", "--version"]):
        run = subprocess.run([str(a) for a in argv], capture_output=True, text=True, timeout=60)
        assert run.returncode == 0 and run.stdout == f"stich-server {__version__}\n", run


# ---- stich (the client) --------------------------------------------------------------------------
CLIENT_MISTAKES = [
    (["play", "schafkopf", "--options", "[1]"], "stich play: argument --options: must be a JSON object"),
    (["play", "schafkopf", "--options", "{x"], "stich play: argument --options: is not JSON"),
    (["play", "schafkopf", "--seed", "-1"], "stich play: argument --seed: must be an integer 0..2^64-1"),
    (["play", "schafkopf", "--seed", str(2 ** 64)], "stich play: argument --seed"),
    (["play", "schafkopf", "--deals", "1001"], "stich play: argument --deals: must be an integer 1..1000"),
    (["play", "schafkopf", "--deals", "0"], "stich play: argument --deals: must be an integer 1..1000"),
    (["play", "schafkopf", "--seat", "x"], "stich play: argument --seat"),
    (["play"], "stich play: the following arguments are required: game"),
    (["--timeout", "0", "games"], "stich: argument --timeout"),
    (["--timeout", "nan", "games"], "stich: argument --timeout"),
    (["--server", "", "games"], "stich: argument --server"),
    (["evaluate", "no-such-file.jsonl"], "stich evaluate: cannot read no-such-file.jsonl"),
    (["evaluate", "records.jsonl", "-o", "no-such-dir/answers.jsonl"], "stich evaluate: no-such-dir/answers.jsonl"),
    (["shuffle"], "stich: argument COMMAND: invalid choice"),
]


@pytest.mark.parametrize("args,says", CLIENT_MISTAKES, ids=[" ".join(a) for a, _ in CLIENT_MISTAKES])
def test_client_flag_mistakes(args, says, tmp_path):
    (tmp_path / "records.jsonl").write_text("{}\n")
    line = one_line_error([*CLIENT, "--server", f"127.0.0.1:{free_port()}", *args], cwd=tmp_path)
    assert line.startswith(says), line


def test_client_without_a_server():
    address = f"127.0.0.1:{free_port()}"
    line = one_line_error([*CLIENT, "--server", address, "--timeout", "2", "games"], status=1)
    assert line.startswith(f"stich games: cannot reach a stich server at {address}"), line


def test_client_closed_pipe_and_version():
    from stich_client import __version__
    from service.testing import ServerProcess
    with ServerProcess(None) as server:
        run = closed_pipe_run([*CLIENT, "--server", server.address, "games"])
    err = run.stderr.decode()
    assert run.returncode == BROKEN_PIPE and err == "stich games: output closed before the end (broken pipe)\n", err
    run = subprocess.run([*CLIENT, "--version"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and run.stdout == f"stich {__version__} (stich-client)\n", run
