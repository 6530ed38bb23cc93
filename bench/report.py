"""`make bench-report`: one table of stich's throughput beside reference rows measured in the
same run.

    python bench/report.py [--c-reference PATH/playout_limit.c] [--seconds 0.5] [--reps 5] [--json]

Rows: batch playouts (deals/s on 1 and 2 threads, ns per card) for every game whose batch
playouts this build has; the Python step API (µs per step, playouts/s); record evaluation
(records/s, as dicts and as JSON lines through the CLI path). Reference rows: OpenSpiel's Skat
and Hearts random playouts driven from Python when `pyspiel` is importable (`pip install
.[bench]`), and the C yardstick (compiled here with gcc -O2 into a temporary directory) when
its source is given. Each figure is the best of --reps interleaved repetitions (the machine
may be shared: best-of estimates what it can do, and both sides are measured the same way).
gRPC rows: the service over loopback against a server this run starts, beside a bare
grpcio unary echo (service.benchmark). More row providers plug in through ROWS.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from engine_core import batch, games, records

ROOT = Path(__file__).resolve().parent.parent
RANDOM_LINES = ROOT / "tests" / "conformance" / "{game}" / "random.jsonl"


class Table:
    """Rows of (name, 1-thread value, 2-thread value, unit, note)."""

    def __init__(self):
        self.rows: list[tuple] = []
        self.figures: dict = {}

    def add(self, key, name, one, two=None, unit="", note=""):
        self.rows.append((name, one, two, unit, note))
        self.figures[key] = {"1": one, "2": two, "unit": unit}

    def render(self) -> str:
        head = ("measure", "1 thread", "2 threads", "unit", "note")
        body = [(n, _fmt(a), _fmt(b), u, note) for n, a, b, u, note in self.rows]
        widths = [max(len(str(r[i])) for r in [head, *body]) for i in range(5)]
        line = lambda r: "| " + " | ".join(str(c).ljust(w) for c, w in zip(r, widths)) + " |"
        sep = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
        return "\n".join([line(head), sep, *map(line, body)])


def _fmt(v):
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if v >= 1000:
        return f"{v:,.0f}"
    if v >= 10:
        return f"{v:.1f}"
    return f"{v:.3f}"


def best_of(reps, fn):
    return max(fn() for _ in range(reps))


# ---- stich -------------------------------------------------------------------------------------
def batch_games() -> list[str]:
    return games.available()


def playout_rate(game, threads, seconds, bids):
    """deals/s and ns per card of one batch run sized to take about `seconds`."""
    probe = batch.playouts(game, None, 20_000, seed=1, threads=threads, bids=bids)
    n = max(20_000, int(probe["deals_per_s"] * seconds))
    st = batch.playouts(game, None, n, seed=2, threads=threads, bids=bids)
    return st["deals_per_s"], st["ns_per_card"], st["cards"] / st["n"]


def playout_cpu(game, bids, seconds):
    """One thread, CPU time: (ns per card of the whole deal, the timed run's phase split in ns
    per deal, its ns per card of the deal and the card play alone)."""
    probe = batch.playouts(game, None, 20_000, seed=1, bids=bids)
    n = max(20_000, int(probe["deals_per_s"] * seconds))
    c0 = time.process_time()
    st = batch.playouts(game, None, n, seed=3, bids=bids)
    whole = (time.process_time() - c0) * 1e9 / st["cards"]
    timed = batch.playouts(game, None, n, seed=3, bids=bids, timed=True)
    phase = timed["phase_ns_per_deal"]
    return whole, phase, (phase["deal"] + phase["play"]) * timed["n"] / timed["cards"]


# How the Python loops pick a random legal action: "choice" = random.choice (the usual idiom,
# a Python-level function costing ~0.3 µs itself); "bits" = legal[getrandbits(32) * len >> 32]
# (multiply-shift on one C call: the loop then measures mostly the engine and its binding).
# Both engines are always driven with the same chooser.
CHOOSERS = ("choice", "bits")


def step_api_rate(game_name, seconds, chooser="choice"):
    """Random deals driven from Python through the step API, `legal = core.advance(pick(legal))`
    until the deal is over: CPU µs per step (the loop only, from the dealt position: every step
    is a decision, dealing is not timed)."""
    game = games.get(game_name)
    rng = random.Random(1)
    choice, bits = rng.choice, rng.getrandbits
    steps = deals = 0
    step_time = 0.0
    t_end = time.perf_counter() + seconds
    while time.perf_counter() < t_end:
        core = game.deal(rng.getrandbits(63), deals % game.seats).core
        t0 = time.process_time()
        legal = core.legal_list()
        if chooser == "choice":
            while legal:
                legal = core.advance(choice(legal))
                steps += 1
        else:
            while legal:
                legal = core.advance(legal[bits(32) * len(legal) >> 32])
                steps += 1
        step_time += time.process_time() - t0
        deals += 1
    return step_time / steps * 1e6


def step_playouts_rate(game_name, seconds):
    """Complete random deals from Python per second, Game.deal (validated hands) included."""
    game = games.get(game_name)
    rng = random.Random(2)
    choice = rng.choice
    deals = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        core = game.deal(rng.getrandbits(63), deals % game.seats).core
        legal = core.legal_list()
        while legal:
            legal = core.advance(choice(legal))
        deals += 1
    return deals / (time.perf_counter() - t0)


def evaluate_rates(game_name, seconds):
    """records/s for complete deals: batch.evaluate on dicts, the CLI line path (JSON line in,
    JSON line out) and, as a reference for the hand-written scanner, parsing the same lines
    with orjson and with msgspec alone (no rule applied, no answer written)."""
    from engine_core import cli
    path = Path(str(RANDOM_LINES).format(game=game_name))
    if not path.exists():
        return None, None, None
    with path.open(encoding="utf-8") as f:
        recs = [json.loads(line)["record"] for line in f if line.strip()]
    recs = [r for r in recs if "result" in records.evaluate(r)]
    lines = [json.dumps(r, separators=(",", ":")).encode() for r in recs]

    def dicts():
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            batch.evaluate(recs)
            n += len(recs)
        return n / (time.perf_counter() - t0)

    def cli_lines():
        n, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for i, line in enumerate(lines, 1):
                cli.evaluate_line_bytes(line, i)
            n += len(lines)
        return n / (time.perf_counter() - t0)

    def parse_only():
        import orjson
        try:
            import msgspec
            decode = msgspec.json.decode
        except ImportError:
            decode = orjson.loads
        best = {}
        for name, fn in (("orjson", orjson.loads), ("msgspec", decode)):
            n, t0 = 0, time.perf_counter()
            while time.perf_counter() - t0 < seconds / 2:
                for line in lines:
                    fn(line)
                n += len(lines)
            best[name] = n / (time.perf_counter() - t0)
        return best
    return dicts, cli_lines, parse_only


ORJSON_ONLY = """
import sys, orjson
with open(sys.argv[1], "rb") as f:
    for line in f:
        if line.strip():
            orjson.loads(line)
"""


def process_cpu(argv) -> float:
    """CPU seconds (user + system) of a child process run to its end, its output discarded."""
    import resource
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def evaluate_process_rows(table, reps, secs):
    """`python -m engine_core evaluate FILE` as a whole process (startup, reading, numbering,
    evaluating, writing) beside a process that only parses the same file's lines with orjson:
    records per CPU second of each child, interleaved, best of reps."""
    with tempfile.TemporaryDirectory(prefix="stich-evaluate-") as tmp:
        for game in games.available():
            path = Path(str(RANDOM_LINES).format(game=game))
            if not path.exists():
                continue
            with path.open(encoding="utf-8") as f:
                lines = [json.dumps(json.loads(line)["record"], separators=(",", ":")) for line in f if line.strip()]
            n = max(2000, int(40_000 * secs))
            data = os.path.join(tmp, f"{game}.jsonl")
            with open(data, "w", encoding="utf-8") as f:
                f.write("\n".join((lines * (n // len(lines) + 1))[:n]) + "\n")
            ours, ref = [], []
            for _ in range(reps):
                ours.append(process_cpu([sys.executable, "-m", "engine_core", "evaluate", data]))
                ref.append(process_cpu([sys.executable, "-c", ORJSON_ONLY, data]))
            table.add(f"{game}.evaluate_process", f"{game} evaluate process / orjson-only process",
                      n / min(ours), n / min(ref), "records/s",
                      f"{n} lines, CPU time of each whole process (2nd column: orjson only)")
            table.add(f"ratio.{game}.evaluate_process", f"evaluate process / orjson-only process ({game})",
                      min(ref) / min(ours), None, "x", "records per CPU second; target >= 0.9")


# ---- references --------------------------------------------------------------------------------
def openspiel_rate(name, seconds, chooser="choice"):
    """OpenSpiel random playouts driven from Python, like for like with step_api_rate: the
    deal (OpenSpiel's chance steps) is played untimed, then every decision is a step and only
    the decisions are timed (CPU time): (µs per decision, playouts/s with the deal included,
    µs per apply_action counting the chance steps too, as this row used to)."""
    import pyspiel
    game = pyspiel.load_game(name)
    rng = random.Random(1)
    choice, bits = rng.choice, rng.getrandbits
    steps = chance = deals = 0
    step_time = 0.0
    t0 = time.perf_counter()
    c0 = time.process_time()
    while time.perf_counter() - t0 < seconds:
        state = game.new_initial_state()
        while state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[bits(32) * len(outcomes) >> 32][0])
            chance += 1
        s0 = time.process_time()
        if chooser == "choice":
            while not state.is_terminal():
                state.apply_action(choice(state.legal_actions()))
                steps += 1
        else:
            while not state.is_terminal():
                legal = state.legal_actions()
                state.apply_action(legal[bits(32) * len(legal) >> 32])
                steps += 1
        step_time += time.process_time() - s0
        deals += 1
    cpu = time.process_time() - c0
    return step_time / steps * 1e6, deals / cpu, cpu / (steps + chance) * 1e6


class CReference:
    """The C yardstick compiled with gcc -O2 in a temporary directory: as it is (its own
    harness, wall-clock rates) and under bench/c_yardstick_cpu.c (the same source unchanged,
    timed in CPU time like the stich rows, for the ratios on a shared machine)."""

    def __init__(self, source: str):
        self.dir = tempfile.mkdtemp(prefix="stich-cref-")
        self.exe = os.path.join(self.dir, "playout_limit")
        self.cpu_exe = os.path.join(self.dir, "yardstick_cpu")
        subprocess.run(["gcc", "-O2", "-o", self.exe, source, "-lpthread"], check=True)
        subprocess.run(["gcc", "-O2", f"-DYARDSTICK=\"{os.path.abspath(source)}\"", "-o", self.cpu_exe,
                        str(ROOT / "bench" / "c_yardstick_cpu.c"), "-lpthread"], check=True)

    def run_cpu(self, deals) -> dict:
        """CPU ns per card of each deal+play mode, `deals` deals each."""
        out = subprocess.run([self.cpu_exe, str(deals)], check=True, capture_output=True, text=True).stdout
        return {r["mode"]: r["ns_per_card"] for r in json.loads(out)["results"]}

    def run(self, millis=300, threads=2) -> dict:
        out = subprocess.run([self.exe, "1", str(millis), str(threads)], check=True,
                             capture_output=True, text=True).stdout
        return {(r["mode"], r["threads"]): r for r in json.loads(out)["results"]}

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


# ---- the report --------------------------------------------------------------------------------
# the C yardstick's mode to compare each (game, bids) playout row with
C_MODES = {("schafkopf", "cheapest"): ("schafkopf_ruf_dealplay", 32),
           ("doppelkopf", "uniform"): ("doppelkopf_dealplay", 48),
           ("doppelkopf", "cheapest"): ("doppelkopf_dealplay", 48)}
# the playout rows with a throughput target against the C yardstick (stich / C deals/s per core)
C_TARGETS = {("schafkopf", "cheapest"): 0.7, ("doppelkopf", "cheapest"): 0.7}


def playout_rows(table, reps, secs, cref):
    """Batch playouts of every game and bids mode, on 1 and 2 threads, interleaved with the C
    yardstick's runs; best of reps each. Then, per card in CPU time (one thread), the games
    the yardstick plays beside it, interleaved: the whole deal, and the deal with the card play
    alone, its auction and scoring shown apart (a timed run's phase split)."""
    runs = [(game, bids) for game in batch_games() for bids in games.get(game).rules.BIDS]
    ours = {run: ([], []) for run in runs}
    cres = []
    for _ in range(reps):
        for run in runs:
            ours[run][0].append(playout_rate(run[0], 1, secs, run[1]))
            ours[run][1].append(playout_rate(run[0], 2, secs, run[1]))
        if cref:
            cres.append(cref.run(int(secs * 1000), 2))
    for game, bids in runs:
        b1, b2 = max(ours[(game, bids)][0]), max(ours[(game, bids)][1])
        table.add(f"{game}.playouts.{bids}", f"{game} batch playouts, bids={bids}", b1[0], b2[0],
                  "deals/s", f"{b1[2]:.1f} cards/deal; 2 threads = {b2[0] / b1[0]:.2f}x 1 thread")
        table.add(f"{game}.ns_per_card.{bids}", f"{game} ns per card, bids={bids}", b1[1], b2[1], "ns",
                  "wall time / cards, whole deal incl. auction+scoring")
        mode = C_MODES.get((game, bids))
        if not cres or not mode:
            continue
        cb1 = max((r[(mode[0], 1)] for r in cres), key=lambda r: r["playouts_per_s"])
        cb2 = max((r[(mode[0], 2)] for r in cres), key=lambda r: r["playouts_per_s"])
        if f"c.{mode[0]}" not in table.figures:
            table.add(f"c.{mode[0]}", f"C yardstick {mode[0]} (gcc -O2)", cb1["playouts_per_s"],
                      cb2["playouts_per_s"], "deals/s", f"{mode[1]} cards/deal; 2 threads = "
                      f"{cb2['playouts_per_s'] / cb1['playouts_per_s']:.2f}x")
            table.add(f"c.{mode[0]}.ns_per_card", "C yardstick ns per card", cb1["ns_per_card"],
                      cb2["ns_per_card"], "ns", "")
        target = C_TARGETS.get((game, bids))
        suffix = "" if target else f".{bids}"
        table.add(f"ratio.{game}.deals{suffix}", f"stich / C deals/s ({game}, bids={bids})",
                  b1[0] / cb1["playouts_per_s"], b2[0] / cb2["playouts_per_s"], "x",
                  f"target >= {target}" if target else "no target")
        table.add(f"ratio.{game}.ns_per_card{suffix}", f"C / stich ns per card ({game}, bids={bids})",
                  cb1["ns_per_card"] / b1[1], cb2["ns_per_card"] / b2[1], "x", "per card, same work measure")
    if cref:
        cpu_rows(table, reps, secs, cref)


def cpu_rows(table, reps, secs, cref):
    """Per card in CPU time, one thread, interleaved with the C yardstick under the CPU driver:
    the whole deal (auction and scoring included), and the deal with the card play alone (the
    yardstick's work: it has no auction and no scoring), the phases shown apart."""
    runs = [run for run in C_MODES if run[0] in batch_games()]
    ours = {run: [] for run in runs}
    cres = []
    for _ in range(reps):
        cres.append(cref.run_cpu(max(20_000, int(300_000 * secs))))
        for run in runs:
            ours[run].append(playout_cpu(run[0], run[1], secs))
    for game, bids in runs:
        mode = C_MODES[(game, bids)][0]
        c = min(r[mode] for r in cres)
        whole = min(r[0] for r in ours[(game, bids)])
        play = min(r[2] for r in ours[(game, bids)])
        phase = min(ours[(game, bids)], key=lambda r: r[2])[1]
        if f"c.cpu.{mode}" not in table.figures:
            table.add(f"c.cpu.{mode}", f"C yardstick {mode}, CPU ns per card", c, None, "ns",
                      "bench/c_yardstick_cpu.c over the unchanged source; deal + card play")
        table.add(f"{game}.cpu_ns_per_card.{bids}", f"{game} CPU ns per card, whole deal, bids={bids}",
                  whole, None, "ns", "deal, auction, card play, scoring, statistics")
        table.add(f"{game}.play_ns_per_card.{bids}", f"{game} CPU ns per card, deal + card play, bids={bids}",
                  play, None, "ns", "timed run: (deal + card play) / cards")
        table.add(f"{game}.phase_ns.{bids}", f"{game} ns per deal: deal / calls / play / scoring, bids={bids}",
                  " / ".join(f"{phase[k]:.0f}" for k in batch.PHASES), None, "ns",
                  "timed run (clock reads taken off); calls = auction and announcements before the first card")
        table.add(f"ratio.{game}.cpu_card.{bids}", f"C / stich CPU ns per card, whole deal ({game}, bids={bids})",
                  c / whole, None, "x", "target >= 0.85")
        table.add(f"ratio.{game}.cpu_play_card.{bids}",
                  f"C / stich CPU ns per card, deal + card play ({game}, bids={bids})",
                  c / play, None, "x", "the yardstick's own work; target >= 0.85")


def node_rows(table, args):
    """Play round trips from Node over gRPC and over Connect, and from the browser page
    (headless Chromium, Connect JSON over its fetch), each beside a bare echo over the same
    transport measured interleaved in the same run (clients/ts/bench/latency.mjs,
    clients/web/test/bench.mjs; 4 human seats, one card per call). Needs Node.js with
    `npm ci` done in clients/ and, for the browser row, /usr/bin/chromium."""
    import json
    import os
    import pathlib
    import shutil
    import subprocess

    from service import benchmark as bm
    clients = pathlib.Path(__file__).resolve().parent.parent / "clients"
    if not shutil.which("node") or not (clients / "node_modules").is_dir():
        table.add("node", "Node / browser rows", "n/a", None, "", "needs node and `npm ci` in clients/")
        return
    subprocess.run(["npm", "run", "build", "-w", "ts"], cwd=clients, check=True, capture_output=True)
    results = {}
    with bm.ServerProcess() as server, bm.EchoProcess() as echo, bm.HttpEchoProcess() as http_echo:
        env = dict(os.environ, STICH_GRPC=server.address, STICH_HTTP=f"http://{server.http_address}",
                   ECHO_GRPC=echo.address, ECHO_HTTP=http_echo.address, STICH_URL=f"http://{server.http_address}",
                   BENCH_SECONDS=str(args.seconds))
        done = subprocess.run(["node", "bench/latency.mjs"], cwd=clients / "ts", env=env, capture_output=True,
                              text=True, timeout=600)
        if done.returncode:
            raise RuntimeError(done.stderr[-300:])
        results.update(json.loads(done.stdout.strip().splitlines()[-1]))
        if os.path.exists("/usr/bin/chromium") and (clients / "web" / "dist" / "index.html").exists():
            done = subprocess.run(["node", "test/bench.mjs"], cwd=clients / "web", env=env, capture_output=True,
                                  text=True, timeout=600)
            if done.returncode:
                raise RuntimeError(done.stderr[-300:])
            results.update(json.loads(done.stdout.strip().splitlines()[-1]))
    names = {"grpc": "Node → gRPC door (connect-node gRPC, HTTP/2)",
             "connect": "Node → HTTP door (connect-node Connect binary, HTTP/1.1)",
             "browser": "Chromium page → HTTP door (Connect JSON over fetch)"}
    echo_of = {"grpc": "bare grpcio echo", "connect": "bare uvicorn echo", "browser": "bare uvicorn echo, same fetch"}
    for key, r in results.items():
        table.add(f"{key}.play.p50", f"Play p50 / p99, {names[key]}", r["play"]["p50_us"], r["play"]["p99_us"], "µs",
                  f"{r['play']['calls']} calls, schafkopf, 4 human seats, one card per call")
        table.add(f"{key}.echo.p50", f"echo p50 / p99, same transport ({echo_of[key]})", r["echo"]["p50_us"],
                  r["echo"]["p99_us"], "µs", f"{r['echo']['calls']} calls, 32-byte message, interleaved with the plays")
        table.add(f"ratio.{key}.play", f"Play p50 / echo p50 ({key})", r["play"]["p50_us"] / r["echo"]["p50_us"],
                  None, "x", "service cost over a bare round trip on that transport")


def report(args) -> Table:
    table = Table()
    reps, secs = args.reps, args.seconds
    cref = CReference(args.c_reference) if args.c_reference else None
    try:
        playout_rows(table, reps, secs, cref)
        step_rows(table, games.available(), reps, secs)
        for game in games.available():
            dicts, cli_lines, parse_only = evaluate_rates(game, secs)
            if dicts:
                table.add(f"{game}.evaluate", f"{game} batch.evaluate, complete deals (dicts)",
                          best_of(reps, dicts), None, "records/s", "one codec: encode, replay, result")
                table.add(f"{game}.evaluate_cli", f"{game} CLI evaluate line path (JSON in/out)",
                          best_of(reps, cli_lines), None, "records/s",
                          "JSON line in, UTF-8 JSON line out (cli.evaluate_line_bytes); target >= 100k")
                parsed = parse_only()
                table.add(f"{game}.parse_only", f"{game} parse only, orjson / msgspec (reference)",
                          parsed["orjson"], parsed["msgspec"], "records/s",
                          "the same lines parsed to Python objects, nothing else (2nd column: msgspec)")
        evaluate_process_rows(table, reps, secs)
        for provider in ROWS:
            if provider.__name__ in args.skip:
                continue
            try:
                provider(table, args)
            except Exception as err:          # a row provider's failure is a row, not a lost report
                table.add(provider.__name__, provider.__name__, "failed", None, "", f"{type(err).__name__}: {err}"[:160])
    finally:
        if cref:
            cref.close()
    return table


def have_openspiel() -> bool:
    try:
        import pyspiel  # noqa: F401
    except ImportError:
        return False
    return True


def step_rows(table, game_names, reps, secs):
    """The step API of every game beside OpenSpiel's Skat and Hearts, measured interleaved
    (the same loop shape and chooser; best of reps each)."""
    have_os = have_openspiel()
    names = ("skat", "hearts") if have_os else ()
    ours = {(g, c): [] for g in game_names for c in CHOOSERS}
    refs = {(n, c): [] for n in names for c in CHOOSERS}
    for _ in range(reps):
        for c in CHOOSERS:
            for game in game_names:
                ours[(game, c)].append(step_api_rate(game, secs, c))
            for name in names:
                refs[(name, c)].append(openspiel_rate(name, secs, c))
    how = {"choice": "random.choice", "bits": "getrandbits multiply-shift"}
    for game in game_names:
        for c in CHOOSERS:
            table.add(f"{game}.step_us.{c}", f"{game} step API from Python ({c})", min(ours[(game, c)]), None,
                      "µs/step", f"legal = core.advance(pick(legal)), pick: {how[c]}")
        table.add(f"{game}.step_playouts", f"{game} random deals from Python",
                  max(step_playouts_rate(game, secs) for _ in range(reps)), None, "deals/s",
                  "random.choice, incl. Game.deal (validated hands)")
    if not have_os:
        table.add("openspiel", "OpenSpiel (pyspiel)", "n/a", None, "", "pip install '.[bench]'")
        return
    for name in names:
        for c in CHOOSERS:
            table.add(f"openspiel.{name}.step_us.{c}", f"OpenSpiel {name} from Python ({c})",
                      min(refs[(name, c)])[0], None, "µs/step",
                      "decisions only, from a dealt position (CPU); the deal's chance steps untimed")
            table.add(f"openspiel.{name}.apply_us.{c}", f"OpenSpiel {name} per apply_action, chance steps counted ({c})",
                      min(r[2] for r in refs[(name, c)]), None, "µs/step",
                      "the old (flattering) count: dealing steps are cheap and many")
        table.add(f"openspiel.{name}.playouts", f"OpenSpiel {name} playouts from Python",
                  max(r[1] for r in refs[(name, "choice")]), None, "deals/s", "random.choice")
    for game in game_names:
        for c in CHOOSERS:
            table.add(f"ratio.step.{game}.{c}", f"OpenSpiel Skat µs/step / {game} µs/step ({c})",
                      table.figures[f"openspiel.skat.step_us.{c}"]["1"] / table.figures[f"{game}.step_us.{c}"]["1"],
                      None, "x", "like for like: decisions only, both from a dealt position; target >= 3.5")


# ---- the gRPC service over loopback -----------------------------------------------------------
GRPC_GAME = "schafkopf"
ECHO_CONCURRENCY = 16


def _clamp(x, lo, hi):
    return max(lo, min(hi, int(x)))


def grpc_rows(table, args):
    """The service against a real server it starts (`python -m service --memory`, a child
    process on a free 127.0.0.1 port, stopped with SIGTERM), beside a bare grpcio unary echo
    (also a child process) measured interleaved in the same run: Play round trips (p50/p99 of
    every rep's calls pooled), EvaluateRecords and Simulate throughput, echo latency and
    requests/s (best of reps). Every measurement is bounded in count, and in seconds once it has
    its minimum of calls (a Play loop's is `min_plays`); the code is service.benchmark's, which
    tools/bench_service.py runs too."""
    try:
        from service import benchmark as bm
        from stich_client import StichClient
    except ImportError as err:
        table.add("grpc", "gRPC service", "n/a", None, "", f"not importable here: {err}")
        return
    reps, secs = args.reps, args.seconds
    game = GRPC_GAME
    lines = _complete_lines(game) or bm.finished_records(game, 300)
    n_eval = _clamp(secs * 15_000, 200, 20_000)
    n_sim = _clamp(secs * 2_000_000, 10_000, 1_000_000)
    # timed Plays per loop and rep, whatever --seconds says (a loop's calls are mostly the
    # deals, bids and views around its Plays: ~35 timed Plays a second here)
    min_plays = _clamp(secs * 200, 10, 200)
    plays = {True: [], False: []}
    bare = {True: [], False: []}
    evals, sims, echo1, echo_n, echo_aio = [], [], [], [], []
    with bm.EchoProcess() as echo, bm.AioEchoProcess() as aio_echo, bm.ServerProcess() as server, \
            StichClient(server.address, timeout=30) as client:
        bm.evaluate_rate(client, lines, min(200, n_eval))          # warm up both sides
        bm.echo_one_client(echo.address, 50, 0.05)
        bm.echo_one_client(aio_echo.address, 50, 0.05)
        for _ in range(reps):
            echo1.append(bm.echo_one_client(echo.address, 20_000, secs))
            echo_aio.append(bm.echo_one_client(aio_echo.address, 20_000, secs))
            echo_n.append(bm.echo_concurrent(echo.address, ECHO_CONCURRENCY, 50_000, secs))
            for bots in (True, False):
                plays[bots] += bm.play_latency(client, game, 2_000, bots, secs, bare=bare[bots],
                                               at_least=min_plays)
            evals.append(bm.evaluate_rate(client, lines, n_eval))
            sims.append(bm.simulate_rate(client, game, n_sim))
    e1 = max(echo1, key=lambda r: r["per_s"])
    e_p50 = min(r["p50_us"] for r in echo1)
    where = "server: child process, memory store, 127.0.0.1"
    for bots in (True, False):
        p = bm.percentiles(plays[bots])
        who = "1 human + 3 bots" if bots else "4 human seats"
        what = ("the human's card, then the bots' moves up to its next turn" if bots
                else "one card per call")
        tag = "bots" if bots else "humans"
        table.add(f"grpc.play.{tag}.p50", f"gRPC Play round trip p50 ({game}, {who})", p["p50_us"], None,
                  "µs", f"{len(plays[bots])} calls: {what}; {where}")
        table.add(f"grpc.play.{tag}.p99", f"gRPC Play round trip p99 ({game}, {who})", p["p99_us"], None,
                  "µs", "same calls")
        b = bm.percentiles(bare[bots])
        table.add(f"grpc.bare.{tag}.p50", f"gRPC bare call in a Play's place p50 ({who})", b["p50_us"], None, "µs",
                  f"{len(bare[bots])} Health/Check calls to the same server over the same channel, each where a "
                  "Play would be (every other card; that card's Play untimed)")
    best_eval = max(evals, key=lambda r: r["per_s"])
    cli_rate = table.figures.get(f"{game}.evaluate_cli", {}).get("1")
    table.add("grpc.evaluate", f"gRPC EvaluateRecords ({game}, complete deals)", best_eval["per_s"], None,
              "records/s", f"{best_eval['records']} records, one stream, 64 per message, client decodes every "
              "answer (JSON line + typed result)" + (f"; = {best_eval['per_s'] / cli_rate:.2f}x CLI line path"
                                                     if isinstance(cli_rate, float) else ""))
    best_sim = max(sims, key=lambda r: r["per_s"])
    playout_rate_1 = table.figures.get(f"{game}.playouts.uniform", {}).get("1")
    table.add("grpc.simulate", f"gRPC Simulate ({game})", best_sim["per_s"], None, "deals/s",
              f"{best_sim['deals']:,} deals in one call, engine {best_sim['engine']}, server-side "
              f"{best_sim['server_per_s']:,.0f}/s" + (f"; = {best_sim['per_s'] / playout_rate_1:.2f}x batch "
                                                      "playouts (uniform, 1 thread)" if playout_rate_1 else ""))
    table.add("grpc.echo.p50", "grpcio unary echo p50 (reference)", e_p50, None, "µs",
              "bare grpcio server, 32-byte bytes message, one client, child process, 127.0.0.1")
    aio_p50 = min(r["p50_us"] for r in echo_aio)
    table.add("grpc.echo_aio.p50", "grpc.aio unary echo p50 (the service's server class)", aio_p50, None, "µs",
              "bare grpc.aio server, one event loop, the same message and client, interleaved with the above")
    table.add("grpc.echo.one", "grpcio unary echo, one client (reference)", e1["per_s"], None, "req/s",
              "one call at a time")
    table.add("grpc.echo.concurrent", f"grpcio unary echo, {ECHO_CONCURRENCY} concurrent (reference)",
              max(r["per_s"] for r in echo_n), None, "req/s",
              f"{ECHO_CONCURRENCY} client threads over one channel")
    for tag, who in (("bots", "1 human + 3 bots"), ("humans", "4 human seats")):
        table.add(f"ratio.grpc.play.{tag}", f"Play p50 / echo p50 ({who})",
                  table.figures[f"grpc.play.{tag}.p50"]["1"] / e_p50, None, "x",
                  "service cost over a bare RPC made back to back")
        table.add(f"ratio.grpc.play.{tag}.aio", f"Play p50 / grpc.aio echo p50 ({who})",
                  table.figures[f"grpc.play.{tag}.p50"]["1"] / aio_p50, None, "x",
                  "service cost over a bare RPC on the service's own server class, back to back")
        table.add(f"ratio.grpc.play.{tag}.in_place", f"Play p50 / bare call in its place p50 ({who})",
                  table.figures[f"grpc.play.{tag}.p50"]["1"] / table.figures[f"grpc.bare.{tag}.p50"]["1"], None,
                  "x", "service cost over a bare RPC made where the Play is made")
    table.add("ratio.grpc.evaluate", "EvaluateRecords records/s / echo req/s (one client)",
              best_eval["per_s"] / e1["per_s"], None, "x", "records per bare round trip's time")


def _complete_lines(game):
    """The JSON lines of the complete deals of the game's random conformance file (the CLI
    line-path row's input), or None."""
    path = Path(str(RANDOM_LINES).format(game=game))
    if not path.exists():
        return None
    with path.open(encoding="utf-8") as f:
        recs = [json.loads(line)["record"] for line in f if line.strip()]
    return [json.dumps(r) for r in recs if "result" in records.evaluate(r)] or None


# ---- the solver -------------------------------------------------------------------------------
class SolverProbe:
    """The C solver probe compiled with gcc -O2 in a temporary directory."""

    def __init__(self, source: str):
        self.dir = tempfile.mkdtemp(prefix="stich-probe-")
        self.exe = os.path.join(self.dir, "solver_probe")
        subprocess.run(["gcc", "-O2", "-o", self.exe, source], check=True)

    def run(self, game, n, start_trick=1, mode="solve", env=None) -> dict:
        out = subprocess.run([self.exe, game, str(n), "1", str(start_trick), "aotebsl", mode], check=True,
                             capture_output=True, text=True, env={**os.environ, **(env or {})}).stdout
        rows = [line.split(",") for line in out.splitlines() if line and line[0].isdigit()]
        return {"ms": [float(r[3]) / 1000 for r in rows], "nodes": [int(r[2]) for r in rows],
                "values": [int(r[1]) for r in rows]}

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def _stats(xs):
    xs = sorted(xs)
    return xs[len(xs) // 2], xs[min(len(xs) - 1, int(len(xs) * 0.9))], xs[-1]


def timed_solves(states, fn):
    ms, nodes, values = [], [], []
    for state in states:
        t0 = time.perf_counter()
        answer = fn(state)
        ms.append((time.perf_counter() - t0) * 1000)
        nodes.append(getattr(answer, "nodes", 0))
        values.append(getattr(answer, "value", answer))
    return {"ms": ms, "nodes": nodes, "values": values}


def reach61(state):
    """reaches(state, 61) with its node count (the probe's win=61 mode prints 0/1)."""
    from engine_core import solver
    answer, nodes = state.game.rules.reaches_core(
        state.core, solver._solver_for(state.game.rules), solver.objective_of(state).mask, 0, True, 61, 0)

    class Answer:
        pass
    out = Answer()
    out.value, out.nodes = int(answer), nodes
    return out


def solver_rows(table, args):
    """Solver times per full deal (median, p90, max) over seeded deals; where the C probe covers
    the game, on the probe's own deals (bench/probe_deals.py rebuilds them) beside the probe's
    times in the same run."""
    from engine_core import solver
    import probe_deals                  # bench/probe_deals.py: beside this script, so on its path
    n = args.solver_deals
    probe = SolverProbe(args.solver_probe) if args.solver_probe else None
    try:
        for game, what, fn in (("ruf", "Rufspiel exact from the first card", solver.solve),
                               ("ruf", "Rufspiel: do the declarers reach 61?", reach61),
                               ("wenz", "Wenz exact from the first card", solver.solve)):
            states = list(probe_deals.states(game, n))
            ours = timed_solves(states, fn)
            med, p90, top = _stats(ours["ms"])
            key = f"solver.{game}.{'reach61' if 'reach' in what else 'exact'}"
            table.add(key, f"solver: {what}", med, p90, "ms",
                      f"median | p90 (2nd column), max {top:.1f} ms, median nodes {_stats(ours['nodes'])[0]:,}, {n} probe deals")
            if probe:
                ref = probe.run(game, n, mode="win=61" if "reach" in what else "solve")
                rmed, rp90, rtop = _stats(ref["ms"])
                agree = sum(1 for a, b in zip(ours["values"], ref["values"]) if int(a) == int(b))
                table.add(key + ".probe", f"C probe: {what}", rmed, rp90, "ms",
                          f"max {rtop:.1f} ms, median nodes {_stats(ref['nodes'])[0]:,}; values agree on {agree}/{n}")
                table.add("ratio." + key, f"stich / probe median time ({what})", med / rmed, None, "x",
                          "target <= 1.5" if key == "solver.ruf.exact" else "")
        for start in (6, 4):
            states = list(probe_deals.doko_states(n if start == 6 else max(1, n // 5), start))
            ours = timed_solves(states, solver.solve)
            med, p90, top = _stats(ours["ms"])
            key = f"solver.doppelkopf.trick{start}"
            target = {6: "target median <= 10 ms", 4: "target median <= 500 ms"}[start]
            table.add(key, f"solver: Doppelkopf exact from trick {start}", med, p90, "ms",
                      f"median | p90, max {top:.1f} ms, median nodes {_stats(ours['nodes'])[0]:,}, "
                      f"{len(states)} probe deals; {target}")
            if probe:
                ref = probe.run("doko", len(states), start_trick=start)
                rmed, rp90, rtop = _stats(ref["ms"])
                table.add(key + ".probe", f"C probe: Doppelkopf exact from trick {start}", rmed, rp90, "ms",
                          f"max {rtop:.1f} ms, median nodes {_stats(ref['nodes'])[0]:,}")
        for game, options, what, target in (("sheepshead", {}, "Sheepshead exact from the first card", "<= 5 ms"),
                                            ("klaverjas", {}, "Klaverjas exact from the first card (roem on)", "<= 50 ms")):
            states = first_card_states(game, options, n)
            ours = timed_solves(states, solver.solve)
            med, p90, top = _stats(ours["ms"])
            table.add(f"solver.{game}.exact", f"solver: {what}", med, p90, "ms",
                      f"median | p90, max {top:.1f} ms, median nodes {_stats(ours['nodes'])[0]:,}, "
                      f"{len(states)} seeded deals (batch.playout_record); target median {target}")
        states = list(probe_deals.doko_states(max(10, n // 10), 1))
        budget = 2_000_000
        bounded = timed_solves(states, lambda s: solver.solve(s, budget=budget))
        widths = sorted(a.upper - a.lower for a in (solver.solve(s, budget=budget) for s in states))
        table.add("solver.doppelkopf.full", f"solver: Doppelkopf full deal, budget {budget:,} nodes",
                  _stats(bounded["ms"])[0], None, "ms", f"proven bounds, median width {widths[len(widths) // 2]} "
                  f"card points over {len(states)} deals")
        states = list(probe_deals.states("ruf", max(20, n // 2)))
        one = timed_solves([states], lambda ss: solver.solve_many(ss, threads=1))["ms"][0]
        two = timed_solves([states], lambda ss: solver.solve_many(ss, threads=2))["ms"][0]
        table.add("solver.solve_many", f"solve_many over {len(states)} Rufspiel deals", one, two, "ms",
                  f"2 threads = {one / two:.2f}x 1 thread; target close to 2x")
    finally:
        if probe:
            probe.close()


def first_card_states(game, options, n):
    """The position at the first card of n seeded deals played out with the batch's random
    calls (played deals only)."""
    from engine_core import batch, records
    g = games.get(game, options)
    bids = "cheapest" if "cheapest" in g.rules.BIDS else "uniform"
    out = []
    k = 0
    while len(out) < n and k < 20 * n:
        record = batch.playout_record(game, options, seed=1, k=k, bids=bids)
        k += 1
        state = records.new_state(record)
        for action in record["actions"]:
            if action["type"] == "play":
                break
            state.apply(action)
        if not state.is_over() and state.core.legal_mask():
            out.append(state)
    return out


# More row providers: callables (table, args) -> None. They run after the built-in rows.
ROWS: list = [solver_rows, grpc_rows, node_rows]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--c-reference", metavar="PATH", help="playout_limit.c to compile and run")
    parser.add_argument("--seconds", type=float, default=0.5, help="time per measurement")
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions (best is shown)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON too")
    parser.add_argument("--solver-probe", metavar="PATH", help="solver_probe.c to compile and run beside the solver")
    parser.add_argument("--solver-deals", type=int, default=100, help="deals per solver row")
    parser.add_argument("--skip", action="append", default=[], choices=["solver_rows", "grpc_rows", "node_rows"],
                        help="leave out a group of rows (repeatable)")
    args = parser.parse_args(argv)
    if args.c_reference and not shutil.which("gcc"):
        print("bench-report: gcc not found, cannot build the C reference", file=sys.stderr)
        return 2
    table = report(args)
    print(f"stich bench-report ({os.cpu_count()} CPUs, {sys.platform}, Python {sys.version.split()[0]})")
    print(table.render())
    if args.json:
        print(json.dumps(table.figures, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
