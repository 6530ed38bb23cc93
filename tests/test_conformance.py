"""Every line of the conformance files (../shared/conformance, copied here) must pass, and so
must the legal-action traces and illegal records of the project's own lines (own-*.jsonl: the
house rules' worked examples; their scenarios are checked beside each game's variants)."""
import pytest

from engine_core import records
from engine_core.errors import ActionError

from conftest import conformance_params

# The games this build implements that the reference covers; each one's conformance files must all pass.
IMPLEMENTED = ["schafkopf", "doppelkopf", "sheepshead", "klaverjas"]
# Sheepshead's seat variants (docs/rules/sheepshead.md 13): declared games with own lines only
SEAT_VARIANTS = ["sheepshead3", "sheepshead4", "sheepshead4c", "sheepshead6"]
# the games with lines of their own (tests/conformance/<game>/OWN.md)
OWN = ["schafkopf", "doppelkopf", "sheepshead", "klaverjas", *SEAT_VARIANTS]


def common(result: dict) -> dict:
    """The fields on which two implementations must agree (records.md, "Result")."""
    return {
        "contract": {k: result["contract"].get(k) for k in ("type", "declarer")},
        "teams": result["teams"],
        "tricks": result["tricks"],
        "card_points": result["card_points"],
        "scores": result["scores"],
    }


def test_implemented_games_are_registered():
    from engine_core import games
    assert games.available() == IMPLEMENTED + SEAT_VARIANTS


@pytest.mark.parametrize("game,line", conformance_params(IMPLEMENTED, "scenarios")
                         + conformance_params(IMPLEMENTED, "random"))
def test_result(game, line):
    state = records.replay(line["record"])
    assert state.is_over()
    assert common(state.result()) == common(line["result"])
    assert sum(state.result()["scores"]) == 0 or game == "klaverjas"


def _canon(action: dict):
    a = dict(action)
    if "cards" in a:
        a["cards"] = tuple(sorted(a["cards"]))
    return tuple(sorted(a.items()))


@pytest.mark.parametrize("game,line", conformance_params(IMPLEMENTED, "legal") + conformance_params(OWN, "own-legal"))
def test_legal_actions(game, line):
    legal = []
    records.replay(line["record"], legal)
    assert len(legal) == len(line["legal"])
    for i, (ours, theirs) in enumerate(zip(legal, line["legal"])):
        assert sorted(map(_canon, ours)) == sorted(map(_canon, theirs)), f"before actions[{i}]"


@pytest.mark.parametrize("game,line", conformance_params(IMPLEMENTED, "illegal") + conformance_params(OWN, "own-illegal"))
def test_illegal(game, line):
    record, index = line["record"], line["error_index"]
    if index == len(record["actions"]):
        state = records.replay(record)
        assert not state.is_over() and state.to_act() is not None
        out = records.evaluate(record)
        assert out["error"]["index"] == index and "not finished" in out["error"]["reason"]
    else:
        with pytest.raises(ActionError) as err:
            records.replay(record)
        assert err.value.index == index
        assert err.value.reason and err.value.reason_id
        if "reason_id" in line:                  # the own lines name the reason they expect
            assert err.value.reason_id == line["reason_id"]


def test_conformance_counts_tool_counts_every_own_line():
    """tools/conformance_counts.py (the per-variant counts of the closing notes): totals are the
    files' lines, and a variant's line counts under its option."""
    from pathlib import Path

    from conftest import tool
    root = Path(__file__).resolve().parent / "conformance" / "sheepshead6"
    total, by = tool("conformance_counts").counts(root)
    assert total == [sum(1 for line in (root / f"own-{k}.jsonl").read_text().splitlines() if line.strip())
                     for k in ("scenarios", "legal", "illegal")]
    assert by["dealer_sits_out=true"] == [1, 1, 2] and by["(defaults)"][0] >= 1
