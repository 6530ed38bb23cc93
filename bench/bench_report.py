"""Smoke test of `make bench-report` (bench/report.py): every row is produced and rendered, at
the smallest size (two solver deals, the shortest measurements): the full report is a command,
not a test. Timings are not asserted; `make bench` skips this (it has no benchmark fixture)."""
import importlib.util
from pathlib import Path


def _report_module():
    spec = importlib.util.spec_from_file_location("stich_bench_report", Path(__file__).with_name("report.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def bench_report_runs(capsys):
    report = _report_module()
    assert report.main(["--seconds", "0.01", "--reps", "1", "--solver-deals", "2", "--json"]) == 0
    out = capsys.readouterr().out
    for row in ("schafkopf batch playouts, bids=uniform", "schafkopf batch playouts, bids=cheapest",
                "schafkopf step API from Python", "schafkopf batch.evaluate",
                "schafkopf CLI evaluate line path", "OpenSpiel",
                "schafkopf evaluate process / orjson-only process", "evaluate process / orjson-only process (doppelkopf)",
                "gRPC Play round trip p50 (schafkopf, 1 human + 3 bots)",
                "gRPC Play round trip p99 (schafkopf, 4 human seats)",
                "gRPC EvaluateRecords (schafkopf, complete deals)", "gRPC Simulate (schafkopf)",
                "grpcio unary echo p50 (reference)", "grpcio unary echo, one client (reference)",
                "grpcio unary echo, 16 concurrent (reference)", "Play p50 / echo p50",
                "grpc.aio unary echo p50 (the service's server class)", "Play p50 / grpc.aio echo p50"):
        assert row in out
    for key in ("grpc.play.bots.p50", "grpc.evaluate", "grpc.simulate", "grpc.echo.concurrent", "grpc.echo_aio.p50"):
        assert f'"{key}"' in out
    assert '"schafkopf.playouts.cheapest"' in out


def bench_report_with_c_reference(capsys):
    """With the C yardstick beside the project (../shared/reference), its rows and our ratio
    appear; skipped where it is absent (the project never depends on it). The solver, gRPC
    and Node rows are left out here: bench_report_runs has them."""
    import shutil
    import pytest
    source = Path(__file__).resolve().parents[2] / "shared" / "reference" / "playout_limit.c"
    if not source.exists() or not shutil.which("gcc"):
        pytest.skip("no C reference beside the project, or no gcc")
    report = _report_module()
    assert report.main(["--seconds", "0.01", "--reps", "1", "--c-reference", str(source),
                        "--skip", "solver_rows", "--skip", "grpc_rows", "--skip", "node_rows"]) == 0
    out = capsys.readouterr().out
    assert "C yardstick schafkopf_ruf_dealplay" in out and "stich / C deals/s" in out
    assert "C / stich CPU ns per card, deal + card play (schafkopf, bids=cheapest)" in out
    assert "schafkopf ns per deal: deal / calls / play / scoring, bids=cheapest" in out
