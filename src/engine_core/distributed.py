"""Batch work on a Ray cluster (`--ray ADDRESS|local`): the one module of stich that knows Ray.

It never computes an answer itself. The commands cut their input into ordered chunks and hand
`ordered_map` the same per-chunk function the single-machine loop calls (cli.evaluate_chunk,
cli.solve_chunk, cli.analyze_chunk, bots.tournament.play_deals); each chunk becomes one Ray
task, and the results come back in chunk order, so the output is the local output byte for
byte. Plain Ray tasks rather than ray.data: the driver reads the input (a file or standard
input, with its line numbers, which are the default ids), so no worker needs to see the file,
and the `ray[data]` extra (pandas, pyarrow, numpy) would more than double the install for
nothing the commands need (docs/batch.md has the figures).

Ray is imported by `cluster` only, when a command was given --ray: `import engine_core.cli`
never loads it, and stich works without it.
"""
from __future__ import annotations

import collections
import logging
import os
import socket
import sys
import tempfile
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

RAY_MISSING = "ray is not installed: pip install 'stich[ray]'"
CONNECT_TIMEOUT = 10.0      # seconds for the TCP check of an address before Ray is asked to join


class RayUnavailable(Exception):
    """Ray cannot be used (not installed, the cluster cannot be reached): nothing was done.
    The command line reports the message in one line and exits with status 2."""


class ClusterFailed(Exception):
    """The cluster failed during the run (a node or worker lost beyond Ray's retries): one
    line and exit status 1; the answers before the failure were written."""


def _import_ray():
    try:
        import ray
    except ImportError:
        raise RayUnavailable(RAY_MISSING) from None
    return ray


def _host_port(address: str) -> tuple[str, int] | None:
    """(host, port) of `HOST:PORT` or `ray://HOST:PORT`; None for what Ray resolves itself
    (`auto`, a bare host)."""
    rest = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = rest.rpartition(":")
    if not sep or not port.isdigit():
        return None
    return host.strip("[]") or "127.0.0.1", int(port)


def check_reachable(address: str, timeout: float = CONNECT_TIMEOUT) -> None:
    """Fail at once when nothing answers at the address: Ray itself retries a dead GCS address
    for minutes (and the client for 30 s) before it gives up."""
    target = _host_port(address)
    if target is None:
        return
    try:
        with socket.create_connection(target, timeout=timeout):
            pass
    except OSError as err:
        reason = err.strerror or str(err) or type(err).__name__
        raise RayUnavailable(f"cannot reach the Ray cluster at {address}: {reason}") from None


@contextmanager
def _stderr_kept_on_success():
    """Standard error (the file descriptor: Ray's C++ core writes there) held back for the block
    and written out only if it succeeds: a refused connection is retried for 20 s or more with a
    log line a second, which the one line of the error replaces."""
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        try:
            yield
        except BaseException:
            sys.stderr.flush()
            os.dup2(saved, 2)
            raise
        else:
            sys.stderr.flush()
            os.dup2(saved, 2)
            held.seek(0)
            text = held.read()
            if text:
                os.write(2, text)
        finally:
            os.close(saved)


CLIENT_ATTEMPTS = 3     # ray:// joins: the Ray Client's server for a new client dies at times as it
                        # starts (ray-project/ray#63202), and a new attempt gets a new one


def _join(ray, address: str) -> None:
    """ray.init of a running cluster, as one readable RayUnavailable when it refuses."""
    attempts = CLIENT_ATTEMPTS if address.startswith("ray://") else 1
    for attempt in range(1, attempts + 1):
        try:
            with _stderr_kept_on_success():
                ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
            return
        except (ConnectionError, RuntimeError, ValueError) as err:
            lines = [line.strip() for line in str(err).splitlines() if line.strip()]
            if attempt < attempts and "Initialization failure from server" in str(err):
                continue
            last = lines[-1][:300] if lines else type(err).__name__
            raise RayUnavailable(f"cannot connect to the Ray cluster at {address}: {last} (a cluster "
                                 f"with token authentication also needs RAY_AUTH_MODE=token and its "
                                 f"token here: docs/batch.md)") from None


@contextmanager
def cluster(address: str):
    """Ray connected for the block. `local` starts a Ray of this machine's cores in this process
    (on the loopback address) and stops it afterwards; any other address (`HOST:6379`,
    `ray://HOST:10001`, `auto`) joins a running cluster and disconnects afterwards (`local`
    ignores RAY_ADDRESS: it always means a new Ray of this machine). A Ray that
    this process had already initialised (a test, a notebook) is used as it is and left running.
    Workers' output stays in the cluster's logs (log_to_driver=False): Ray would otherwise copy
    a worker's stdout into this process's, where only the answers may go."""
    ray = _import_ray()
    if ray.is_initialized():
        yield ray
        return
    if address == "local":
        ray.init(address="local", num_cpus=os.cpu_count() or 2, include_dashboard=False, logging_level=logging.ERROR,
                 _node_ip_address="127.0.0.1", log_to_driver=False)
    else:
        check_reachable(address)
        _join(ray, address)
    try:
        yield ray
    finally:
        ray.shutdown()


def cpus() -> int:
    """The CPUs of the connected cluster (at least 1): what sizes the chunks and the window."""
    ray = _import_ray()
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ordered_map(fn: Callable, chunks: Iterable, *args: Any, window: int | None = None) -> Iterator:
    """fn(chunk, *args) for every chunk as Ray tasks, yielded in chunk order. At most `window`
    tasks (default: twice the cluster's CPUs) are in flight, so a long input streams through
    the driver instead of being queued whole. When reading the input fails, the chunks read
    before are still answered, then the error is raised, as in the local loop. A task that
    raises gives its exception, as the local call would; a lost worker or node (after Ray's
    retries) gives ClusterFailed."""
    ray = _import_ray()
    from ray import exceptions as rx
    task = ray.remote(fn)
    window = window or 2 * cpus()
    shared = [ray.put(a) for a in args]           # sent to the object store once, not per task
    pending: collections.deque = collections.deque()

    def result(ref):
        try:
            return ray.get(ref)
        except rx.RayTaskError as err:            # the function raised: that exception
            cause = getattr(err, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise
        except rx.RayError as err:
            raise ClusterFailed(f"the Ray cluster failed: {str(err).splitlines()[0] if str(err) else type(err).__name__}") from None

    source = iter(chunks)
    try:
        while True:
            try:
                chunk = next(source)
            except StopIteration:
                break
            except Exception:
                while pending:                    # answered what was read, then the read error
                    yield result(pending.popleft())
                raise
            pending.append(task.remote(chunk, *shared))
            if len(pending) >= window:
                yield result(pending.popleft())
        while pending:
            yield result(pending.popleft())
    finally:
        if pending and ray.is_initialized():      # the reader went away or a task failed
            for ref in pending:
                ray.cancel(ref)
