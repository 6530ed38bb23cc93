"""Klaverjas's words, as ListGames serves them (docs/adding-a-game.md, "Words"): French suits,
the trump choice in three forms, the contract as a sentence, the breakdown items (roem among
them) and the phases."""
from ..words import FRENCH_EN, call


WORDS = {
    "en": {
        "cards": FRENCH_EN,
        "calls": {
            "bid": {
                "pass": call("pass", "passes", "pass"),
                "trump": call("{suit:name} as trump", "plays with {suit:name} as trump",
                               "play with {suit:name} as trump"),
            },
        },
        "contracts": {"trump": "{trump:name} trump"},
        "contract_fields": [
            {"field": "declarer", "text": "by {declarer:seat}", "join": " "},
            {"field": "forced", "text": "forced to play"},
            {"field": "outcome", "text": "{outcome}",
             "values": {"made": "made", "nat": "the makers went wet (nat)", "half_nat": "half nat",
                        "pit": "pit (all tricks)"}},
        ],
        "teams": {},
        "items": {
            "cards": "cards", "last_trick": "last trick", "roem_run3": "roem: run of three",
            "roem_run4": "roem: run of four", "roem_four_of_a_kind": "roem: four of a kind",
            "roem_four_jacks": "roem: four jacks", "roem_stuk": "roem: stuk (K+Q of trump)", "pit": "pit",
            "total": "total", "nat": "nat", "half_nat": "half nat", "score": "score",
        },
        "phases": {"bidding": "bidding", "play": "play", "over": "over"},
    },
}
