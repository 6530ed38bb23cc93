"""The harness of stich's tests, tools and benchmarks, one installed package that tests/,
tools/ and bench/ import as any other (none of them edits sys.path):

- `ServerProcess` (service.process): `python -m service` on a free loopback port;
- `free_port`, `wait_until`, `serving`: a free port, a condition awaited, a gRPC health check
  awaited;
- `service.testing.postgres`: PostgreSQL databases made fresh for a test or a run;
- `service.testing.hidden`: the hidden-card rule as a checker (`Mirror`, `card_strings`).

    >>> from service.testing import ServerProcess, wait_until
"""
from __future__ import annotations

import socket
import time

from ..process import LOOPBACK, ServerProcess

__all__ = ["LOOPBACK", "ServerProcess", "free_port", "serving", "wait_until"]


def free_port() -> int:
    """A loopback port free at this moment (the OS's choice)."""
    with socket.socket() as s:
        s.bind((LOOPBACK, 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float = 10.0, step: float = 0.02) -> bool:
    """True as soon as `predicate()` is; after `timeout` seconds, its last answer."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


def serving(address: str, deadline: float) -> bool:
    """Whether the gRPC health check at `address` answers SERVING before `deadline`
    (time.monotonic())."""
    import grpc
    from grpc_health.v1 import health_pb2, health_pb2_grpc
    with grpc.insecure_channel(address) as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        while time.monotonic() < deadline:
            try:
                answer = stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=2)
                if answer.status == health_pb2.HealthCheckResponse.SERVING:
                    return True
            except grpc.RpcError:
                time.sleep(0.1)
    return False
