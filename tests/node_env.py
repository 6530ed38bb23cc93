"""The npm workspace of the front-end packages (clients/: ts, web) for the tests: `npm ci`
once per checkout (again when package-lock.json changes), then its scripts. Node.js 18+ and
npm must be on PATH; `make test` fails with a one-line reason if they are not."""
from __future__ import annotations

import pathlib
import shutil
import subprocess

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"


def npm() -> str:
    found = shutil.which("npm")
    if not found or not shutil.which("node"):
        raise RuntimeError("Node.js 18+ and npm are needed for the TypeScript and browser tests (apt-get install nodejs npm)")
    return found


def npm_ci() -> None:
    """`npm ci` in clients/ unless node_modules already matches package-lock.json."""
    lock = CLIENTS / "package-lock.json"
    installed = CLIENTS / "node_modules" / ".package-lock.json"     # npm writes it after installing
    if installed.exists() and installed.stat().st_mtime >= lock.stat().st_mtime:
        return
    subprocess.run([npm(), "ci", "--no-audit", "--no-fund"], cwd=CLIENTS, check=True,
                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT)


def run(*args: str, timeout: float = 300, env: dict | None = None) -> subprocess.CompletedProcess:
    npm_ci()
    return subprocess.run([npm(), *args], cwd=CLIENTS, text=True, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=timeout, env=env)
