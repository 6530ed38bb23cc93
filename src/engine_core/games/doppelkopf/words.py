"""Doppelkopf's words, as ListGames serves them (docs/adding-a-game.md, "Words"): French suits,
the reservations, announcements and Armut exchanges in three forms, the contract as a
sentence, the teams, the breakdown items and the phases."""
from ..words import FRENCH_EN, call


def _solo(what: str, article: str = "a", nickname: str = "") -> dict:
    extra = f" ({nickname})" if nickname else ""
    return call(f"{what} solo{extra}", f"plays {article} {what} solo{extra}", f"play {article} {what} solo{extra}")


WORDS = {
    "en": {
        "cards": FRENCH_EN,
        "calls": {
            "bid": {
                "healthy": call("healthy (gesund)", "is healthy (gesund)", "are healthy (gesund)"),
                "hochzeit": call("Hochzeit (marriage)", "has a Hochzeit (marriage)", "have a Hochzeit (marriage)"),
                "armut": call("Armut (poverty)", "has an Armut (poverty)", "have an Armut (poverty)"),
                "solo_diamonds": _solo("diamonds"),
                "solo_hearts": _solo("hearts"),
                "solo_spades": _solo("spades"),
                "solo_clubs": _solo("clubs"),
                "solo_queens": _solo("queens", nickname="Damensolo"),
                "solo_jacks": _solo("jacks", nickname="Bubensolo"),
                "solo_aces": _solo("aces", "an", "Fleischloser"),
                "accept": call("take the Armut", "takes the Armut", "take the Armut"),
                "decline": call("decline the Armut", "declines the Armut", "decline the Armut"),
            },
            "announce": {
                "re": call("Re", "announces Re", "announce Re"),
                "kontra": call("Kontra", "announces Kontra", "announce Kontra"),
                "no_90": call("no 90", "announces no 90", "announce no 90"),
                "no_60": call("no 60", "announces no 60", "announce no 60"),
                "no_30": call("no 30", "announces no 30", "announce no 30"),
                "schwarz": call("schwarz", "announces schwarz", "announce schwarz"),
            },
            "exchange": {
                "armut_give": call("give", "gives the Armut partner {cards:cards}",
                                    "give the Armut partner {cards:cards}"),
                "armut_return": call("give back", "returns {cards:cards}", "return {cards:cards}"),
            },
        },
        "contracts": {
            "none": "no game",
            "normal": "normal game",
            "silent_solo": "silent solo",
            "hochzeit": "Hochzeit",
            "armut": "Armut",
            "solo": "{solo} solo",
        },
        "contract_fields": [
            {"field": "declarer", "text": "by {declarer:seat}", "join": " "},
            {"field": "acceptor", "text": "taken by {acceptor:seat}"},
            {"field": "partner", "text": "partner {partner:seat}"},
            {"field": "redeal", "text": "dealt again"},
        ],
        "teams": {"re": "Re", "kontra": "Kontra"},
        "items": {
            "won": "won", "against_the_old": "against the old", "re_announced": "re announced",
            "kontra_announced": "kontra announced", "below_90": "below 90", "no_90_announced": "no 90 announced",
            "no_90_failed_by_losers": "no 90 failed by losers", "below_60": "below 60",
            "no_60_announced": "no 60 announced", "no_60_failed_by_losers": "no 60 failed by losers",
            "below_30": "below 30", "no_30_announced": "no 30 announced",
            "no_30_failed_by_losers": "no 30 failed by losers", "schwarz": "schwarz",
            "schwarz_announced": "schwarz announced", "schwarz_failed_by_losers": "schwarz failed by losers",
            "doppelkopf": "doppelkopf", "fox_caught": "fox caught", "karlchen": "karlchen",
            "karlchen_caught": "karlchen caught",
        },
        "phases": {"reservation": "reservation", "armut_give": "armut give", "armut_offer": "armut offer",
                   "armut_return": "armut return", "play": "play", "over": "over"},
    },
}
