"""Typed views: every key of every game's view and result (all option sets, every phase, every
seat and the spectator) has its field in stich.v1, and the client's dicts give back what the
engine said (null, absent and empty being the same on the wire)."""
from __future__ import annotations

import random

import pytest

from engine_core import games
from service import convert as server_convert
from stich_client import convert

_EMPTY = (None, [], "")


def _norm(v):
    """What survives the wire: no null or empty keys in objects."""
    if isinstance(v, dict):
        return {k: _norm(x) for k, x in v.items() if x not in _EMPTY}
    if isinstance(v, list):
        return [_norm(x) for x in v]
    return v


# an option whose value another one must allow (its OptionError says so): set with it
NEEDS = {"red_blitz": {"blitz": True}}


def option_sets(game: str) -> list[dict]:
    out = [{}]
    for o in games.spec_of(game).options:
        s = o.schema()
        if s["status"] != "supported":
            continue
        if s["type"] == "bool":
            out.append({**NEEDS.get(s["name"], {}), s["name"]: not s["default"]})
        elif s["type"] == "choice":
            out.extend({s["name"]: a} for a in s.get("allowed", []) if a != s["default"])
    return out


def table_view(game, state, seat) -> dict:
    return {"table_id": "t_x", "version": 7, "game": game.name, "seat": seat,
            "seats": ["human", "open", "bot:hard"] + ["bot"] * (game.seats - 3),
            "status": "in_deal", "deal_number": 1, "deals_counted": 0, "deals_per_match": 4,
            "match_scores": [0] * game.seats, "options": game.options.as_dict(),
            "settings": {"bot_delay_ms": 250, "hints_disabled": True}, "deal": state.view(seat)}


@pytest.mark.parametrize("name", games.available())
def test_views_and_results_round_trip(name):
    shown = set()
    for options in option_sets(name):
        game = games.get(name, options)
        for seed in range(2):
            state = game.deal(seed=seed)
            rng = random.Random(seed)
            while True:
                for seat in [*range(game.seats), None]:
                    engine = table_view(game, state, seat)
                    got = convert.view_dict(server_convert.view_msg(engine))
                    deal = dict(engine["deal"])
                    public = {k: v for k, v in deal.items() if k not in (
                        "game", "seat", "dealer", "phase", "to_act", "hand", "legal", "actions",
                        "trick", "tricks", "contract", "result", "order", "points", "sides", "hidden")}
                    shown |= set(public)
                    assert _norm(got["public"]) == _norm(public)
                    for k in ("hand", "legal", "actions", "trick", "tricks", "contract", "phase",
                              "to_act", "dealer", "order", "points", "sides", "hidden"):
                        assert _norm(got[k]) == _norm(deal.get(k)), k
                    assert got["seats"][:3] == ["human", "open", "bot:hard"]
                    assert got["settings"] == {"bot_delay_ms": 250, "hints_disabled": True}
                    if deal.get("result") is not None:
                        assert _norm(got["result"]) == _norm(deal["result"])
                if state.is_over():
                    break
                state.apply(rng.choice(state.legal_actions()))
            for seat in [*range(game.seats), None]:
                r = state.result_for(seat)
                assert _norm(convert.result_dict(server_convert.result_msg(r))) == _norm(r)
    assert "tricks_won" in shown


def test_a_key_without_a_field_is_refused():
    with pytest.raises(ValueError, match="no field for key 'surprise'"):
        server_convert.result_msg({"contract": {"type": "x", "surprise": 1}})


def test_versions_and_scores_are_json_numbers():
    """A JSON client (Connect, a browser) gets numbers, not the strings of 64-bit integers."""
    from google.protobuf import json_format
    msg = server_convert.result_msg({"scores": [180, -540], "card_points": [15, 105],
                                     "breakdown": [{"item": "total", "value": 180}]})
    d = json_format.MessageToDict(msg)
    assert d["scores"] == [180, -540] and d["breakdown"][0]["value"] == 180
    from stich_client.gen.stich.v1 import tables_pb2
    assert json_format.MessageToDict(tables_pb2.TableView(version=12))["version"] == 12


def test_each_view_has_options_of_its_own():
    """The client keeps a table's options by their bytes: every view still gets a dict it may
    change, and options with nested values are converted afresh each time."""
    from google.protobuf import struct_pb2

    from stich_client.gen.stich.v1 import tables_pb2
    msg = tables_pb2.TableView()
    server_convert.fill_struct(msg.options, {"tarif": 20, "laufende": True, "name": "x"})
    first = convert.view_dict(msg)["options"]
    first["tarif"] = 99
    assert convert.view_dict(msg)["options"] == {"tarif": 20, "laufende": True, "name": "x"}
    nested = struct_pb2.Struct()
    nested.update({"tarifs": [10, 20]})
    msg.options.CopyFrom(nested)
    convert.view_dict(msg)["options"]["tarifs"].append(30)
    assert convert.view_dict(msg)["options"] == {"tarifs": [10, 20]}
