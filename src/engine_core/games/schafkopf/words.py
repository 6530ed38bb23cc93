"""Schafkopf's words, as ListGames serves them (docs/adding-a-game.md, "Words"): German suits,
the calls in three forms, the contract as a sentence, the breakdown items and the phases."""
from ..words import GERMAN_EN, call


WORDS = {
    "en": {
        "cards": GERMAN_EN,
        "calls": {
            "bid": {
                "pass": call("pass (weiter)", "passes (weiter)", "pass (weiter)"),
                "rufspiel": call("Sauspiel with the {suit:name}-Sau", "plays a Sauspiel with the {suit:name}-Sau",
                                  "play a Sauspiel with the {suit:name}-Sau"),
                "wenz": call("Wenz", "plays a Wenz", "play a Wenz"),
                "farbsolo": call("{suit:name}-Solo", "plays {suit:a_name}-Solo", "play {suit:a_name}-Solo"),
                "wenz_tout": call("Wenz Tout", "plays a Wenz Tout", "play a Wenz Tout"),
                "solo_tout": call("{suit:name}-Solo Tout", "plays {suit:a_name}-Solo Tout",
                                   "play {suit:a_name}-Solo Tout"),
                "sie": call("Sie", "plays Sie", "play Sie"),
                "geier": call("Geier", "plays a Geier", "play a Geier"),
                "farbwenz": call("{suit:name}-Wenz", "plays {suit:a_name}-Wenz", "play {suit:a_name}-Wenz"),
                "farbgeier": call("{suit:name}-Geier", "plays {suit:a_name}-Geier", "play {suit:a_name}-Geier"),
                "bettel": call("Bettel", "plays a Bettel", "play a Bettel"),
                "bettel_ouvert": call("Bettel ouvert", "plays a Bettel ouvert", "play a Bettel ouvert"),
            },
            "announce": {
                "pass": call("no more", "says no more", "say no more"),
                "kontra": call("Kontra", "says Kontra", "say Kontra"),
                "re": call("Re", "says Re", "say Re"),
            },
        },
        "contracts": {
            "none": "no game",
            "rufspiel": "Sauspiel with the {suit:name}-Sau",
            "wenz": "Wenz",
            "farbsolo": "{suit:name}-Solo",
            "wenz_tout": "Wenz Tout",
            "solo_tout": "{suit:name}-Solo Tout",
            "sie": "Sie",
            "ramsch": "Ramsch",
            "thrown_in": "thrown in",
            "geier": "Geier",
            "farbwenz": "{suit:name}-Wenz",
            "farbgeier": "{suit:name}-Geier",
            "bettel": "Bettel",
            "bettel_ouvert": "Bettel ouvert",
            "leaster": "Leaster",
        },
        "contract_fields": [
            {"field": "declarer", "text": "by {declarer:seat}", "join": " "},
            {"field": "partner", "text": "partner {partner:seat}"},
            {"field": "kontra", "text": "Kontra by {kontra:seat}"},
            {"field": "re", "text": "Re by {re:seat}"},
        ],
        "teams": {},
        "items": {
            "game": "game", "laufende": "laufende", "tout": "tout", "schneider": "schneider",
            "schwarz": "schwarz", "sie": "sie", "kontra": "kontra", "re": "re", "ramsch": "ramsch",
            "jungfrau": "jungfrau", "durchmarsch": "durchmarsch", "total": "total",
            "bettel": "bettel", "ouvert": "ouvert", "leaster": "leaster",
        },
        "phases": {"auction": "auction", "kontra": "kontra", "re": "re", "play": "play", "over": "over"},
    },
}
