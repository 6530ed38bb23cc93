"""Sheepshead's words, as ListGames serves them (docs/adding-a-game.md, "Words"): French suits,
the picking, calling and cracking calls and the bury in three forms, the contract as a
sentence, the breakdown items and the phases."""
from ..words import FRENCH_EN, call


WORDS = {
    "en": {
        "cards": FRENCH_EN,
        "calls": {
            "bid": {
                "pick": call("pick up the blind", "picks up the blind", "pick up the blind"),
                "pass": call("pass", "passes", "pass"),
                "ace": call("ace of {suit:name}", "calls the ace of {suit:name}", "call the ace of {suit:name}"),
                "ten": call("ten of {suit:name}", "calls the ten of {suit:name}", "call the ten of {suit:name}"),
                "unknown_ace": call("ace of {suit:name} (playing an unknown card)",
                                     "calls the ace of {suit:name} (playing an unknown card)",
                                     "call the ace of {suit:name} (playing an unknown card)"),
                "jack_of_diamonds": call("jack of diamonds as partner", "plays with the jack of diamonds as partner",
                                          "play with the jack of diamonds as partner"),
                "alone": call("alone", "goes alone", "go alone"),
            },
            "announce": {
                "crack": call("crack (double)", "cracks (doubles)", "crack (doubles)"),
                "pass": call("no crack", "does not crack", "do not crack"),
                "recrack": call("re-crack (double again)", "re-cracks (doubles again)", "re-crack (doubles again)"),
            },
            "exchange": {
                "bury": call("bury", "buries {cards:cards}", "bury {cards:cards}"),
                "unknown": call("put under", "puts under as the unknown card {cards:cards}",
                                 "put under as the unknown card {cards:cards}"),
            },
        },
        "contracts": {
            "none": "no game",
            "ace": "called ace",
            "ten": "called ten",
            "unknown_ace": "called ace (unknown card)",
            "jack_of_diamonds": "jack of diamonds partner",
            "alone": "alone",
            "leaster": "Leaster",
            "doubler": "doubler (no picker)",
        },
        "contract_fields": [
            {"field": "picker", "text": "{picker:seat} picked", "join": ", "},
            {"field": "called_card", "text": "called card {called_card:card}"},
            {"field": "partner", "text": "partner {partner:seat}"},
            {"field": "forced_alone", "text": "forced alone"},
            {"field": "cracked_by", "text": "cracked by {cracked_by:seat}"},
            {"field": "recracked", "text": "re-cracked", "join": ", "},
            {"field": "multiplier", "text": "stakes ×{multiplier}", "values": {"1": ""}},
        ],
        "teams": {},
        "items": {
            "picker_team_points": "picker team points", "defender_points": "defender points",
            "picker_team_wins": "picker team wins", "picker_team_loses": "picker team loses", "game": "game",
            "schneider": "schneider", "no_trick": "no trick", "double_on_the_bump": "double on the bump",
            "crack": "crack", "recrack": "recrack", "multiplier": "multiplier", "per_defender": "per defender",
            "partner_exempt": "partner exempt", "picker_share": "picker share", "partner_share": "partner share",
            "blind_set_aside": "blind set aside", "blind_to_last_trick": "blind to last trick",
            "leaster_winner": "leaster winner", "leaster_tie": "leaster tie", "doubler": "doubler",
            "doubler_cap": "doubler cap",
        },
        "phases": {"pick": "pick", "bury": "bury", "call": "call", "unknown": "unknown", "crack": "crack",
                   "recrack": "recrack", "play": "play", "over": "over"},
    },
}
