"""Doppelkopf's words, as ListGames serves them (docs/adding-a-game.md, "Words"): French suits,
the reservations, announcements and Armut exchanges in three forms, the contract as a
sentence, the teams, the breakdown items and the phases; in English, German (the game's own
terms: gesund, Hochzeit, Armut, Damensolo, keine 90, Fuchs, Karlchen), Dutch and Urdu (the
terms of the Urdu rules: صحت مند، شادی، غربت، لومڑی، چارلی)."""
from ..words import FRENCH_DE, FRENCH_EN, FRENCH_NL, FRENCH_UR, call

# the contract's `solo` field holds the trumps' word; each language names that solo
SOLOS = ("diamonds", "hearts", "spades", "clubs", "queens", "jacks", "aces")


def _solo(what: str, article: str = "a", nickname: str = "") -> dict:
    extra = f" ({nickname})" if nickname else ""
    return call(f"{what} solo{extra}", f"plays {article} {what} solo{extra}", f"play {article} {what} solo{extra}")


def _solo_field(names: dict) -> dict:
    """The solo played, as the head of the contract's sentence (its type's own head is empty)."""
    return {"field": "solo", "text": "{solo}", "values": {s: names[s] for s in SOLOS}}


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
            "solo": "",
        },
        "contract_fields": [
            _solo_field({s: f"{s} solo" for s in SOLOS}),
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
    "de": {
        "cards": FRENCH_DE,
        "calls": {
            "bid": {
                "healthy": call("gesund", "ist gesund", "bist gesund"),
                "hochzeit": call("Hochzeit", "hat eine Hochzeit", "hast eine Hochzeit"),
                "armut": call("Armut", "hat eine Armut", "hast eine Armut"),
                "solo_diamonds": call("Karo-Solo", "spielt ein Karo-Solo", "spielst ein Karo-Solo"),
                "solo_hearts": call("Herz-Solo", "spielt ein Herz-Solo", "spielst ein Herz-Solo"),
                "solo_spades": call("Pik-Solo", "spielt ein Pik-Solo", "spielst ein Pik-Solo"),
                "solo_clubs": call("Kreuz-Solo", "spielt ein Kreuz-Solo", "spielst ein Kreuz-Solo"),
                "solo_queens": call("Damensolo", "spielt ein Damensolo", "spielst ein Damensolo"),
                "solo_jacks": call("Bubensolo", "spielt ein Bubensolo", "spielst ein Bubensolo"),
                "solo_aces": call("Fleischloser", "spielt einen Fleischlosen", "spielst einen Fleischlosen"),
                "accept": call("Armut mitnehmen", "nimmt die Armut mit", "nimmst die Armut mit"),
                "decline": call("Armut ablehnen", "lehnt die Armut ab", "lehnst die Armut ab"),
            },
            "announce": {
                "re": call("Re", "sagt Re an", "sagst Re an"),
                "kontra": call("Kontra", "sagt Kontra an", "sagst Kontra an"),
                "no_90": call("keine 90", "sagt keine 90 ab", "sagst keine 90 ab"),
                "no_60": call("keine 60", "sagt keine 60 ab", "sagst keine 60 ab"),
                "no_30": call("keine 30", "sagt keine 30 ab", "sagst keine 30 ab"),
                "schwarz": call("schwarz", "sagt schwarz ab", "sagst schwarz ab"),
            },
            "exchange": {
                "armut_give": call("abgeben", "gibt dem Armut-Partner {cards:cards}",
                                    "gibst dem Armut-Partner {cards:cards}"),
                "armut_return": call("zurückgeben", "gibt {cards:cards} zurück", "gibst {cards:cards} zurück"),
            },
        },
        "contracts": {
            "none": "kein Spiel",
            "normal": "Normalspiel",
            "silent_solo": "stilles Solo",
            "hochzeit": "Hochzeit",
            "armut": "Armut",
            "solo": "",
        },
        "contract_fields": [
            _solo_field({"diamonds": "Karo-Solo", "hearts": "Herz-Solo", "spades": "Pik-Solo",
                         "clubs": "Kreuz-Solo", "queens": "Damensolo", "jacks": "Bubensolo", "aces": "Fleischloser"}),
            {"field": "declarer", "text": "Spieler: {declarer:seat}", "join": ", "},
            {"field": "acceptor", "text": "mitgenommen von: {acceptor:seat}", "join": ", "},
            {"field": "partner", "text": "Partner: {partner:seat}", "join": ", "},
            {"field": "redeal", "text": "neu gegeben"},
        ],
        "teams": {"re": "Re", "kontra": "Kontra"},
        "items": {
            "won": "gewonnen", "against_the_old": "gegen die Alten", "re_announced": "Re angesagt",
            "kontra_announced": "Kontra angesagt", "below_90": "keine 90", "no_90_announced": "keine 90 abgesagt",
            "no_90_failed_by_losers": "keine 90 der Verlierer verfehlt", "below_60": "keine 60",
            "no_60_announced": "keine 60 abgesagt", "no_60_failed_by_losers": "keine 60 der Verlierer verfehlt",
            "below_30": "keine 30", "no_30_announced": "keine 30 abgesagt",
            "no_30_failed_by_losers": "keine 30 der Verlierer verfehlt", "schwarz": "schwarz",
            "schwarz_announced": "schwarz abgesagt", "schwarz_failed_by_losers": "schwarz der Verlierer verfehlt",
            "doppelkopf": "Doppelkopf", "fox_caught": "Fuchs gefangen", "karlchen": "Karlchen gemacht",
            "karlchen_caught": "Karlchen gefangen",
        },
        "phases": {"reservation": "Vorbehalte", "armut_give": "Armut abgeben", "armut_offer": "Armut anbieten",
                   "armut_return": "Armut zurückgeben", "play": "Spiel", "over": "Ende"},
    },
    "nl": {
        "cards": FRENCH_NL,
        "calls": {
            "bid": {
                "healthy": call("gezond (gesund)", "is gezond (gesund)", "bent gezond (gesund)"),
                "hochzeit": call("Hochzeit (huwelijk)", "heeft een Hochzeit (huwelijk)", "hebt een Hochzeit (huwelijk)"),
                "armut": call("Armut (armoede)", "heeft een Armut (armoede)", "hebt een Armut (armoede)"),
                "solo_diamonds": call("ruitensolo", "speelt een ruitensolo", "speelt een ruitensolo"),
                "solo_hearts": call("hartensolo", "speelt een hartensolo", "speelt een hartensolo"),
                "solo_spades": call("schoppensolo", "speelt een schoppensolo", "speelt een schoppensolo"),
                "solo_clubs": call("klaverensolo", "speelt een klaverensolo", "speelt een klaverensolo"),
                "solo_queens": call("vrouwensolo (Damensolo)", "speelt een vrouwensolo (Damensolo)",
                                     "speelt een vrouwensolo (Damensolo)"),
                "solo_jacks": call("boerensolo (Bubensolo)", "speelt een boerensolo (Bubensolo)",
                                    "speelt een boerensolo (Bubensolo)"),
                "solo_aces": call("azensolo (Fleischloser)", "speelt een azensolo (Fleischloser)",
                                   "speelt een azensolo (Fleischloser)"),
                "accept": call("de Armut aannemen", "neemt de Armut aan", "neemt de Armut aan"),
                "decline": call("de Armut weigeren", "weigert de Armut", "weigert de Armut"),
            },
            "announce": {
                "re": call("Re", "kondigt Re aan", "kondigt Re aan"),
                "kontra": call("Kontra", "kondigt Kontra aan", "kondigt Kontra aan"),
                "no_90": call("geen 90", "kondigt geen 90 aan", "kondigt geen 90 aan"),
                "no_60": call("geen 60", "kondigt geen 60 aan", "kondigt geen 60 aan"),
                "no_30": call("geen 30", "kondigt geen 30 aan", "kondigt geen 30 aan"),
                "schwarz": call("schwarz (zwart)", "kondigt schwarz aan", "kondigt schwarz aan"),
            },
            "exchange": {
                "armut_give": call("geven", "geeft de Armut-partner {cards:cards}", "geeft de Armut-partner {cards:cards}"),
                "armut_return": call("teruggeven", "geeft {cards:cards} terug", "geeft {cards:cards} terug"),
            },
        },
        "contracts": {
            "none": "geen spel",
            "normal": "normaal spel",
            "silent_solo": "stille solo",
            "hochzeit": "Hochzeit",
            "armut": "Armut",
            "solo": "",
        },
        "contract_fields": [
            _solo_field({"diamonds": "ruitensolo", "hearts": "hartensolo", "spades": "schoppensolo",
                         "clubs": "klaverensolo", "queens": "vrouwensolo", "jacks": "boerensolo", "aces": "azensolo"}),
            {"field": "declarer", "text": "speler: {declarer:seat}", "join": ", "},
            {"field": "acceptor", "text": "aangenomen door: {acceptor:seat}", "join": ", "},
            {"field": "partner", "text": "partner: {partner:seat}", "join": ", "},
            {"field": "redeal", "text": "opnieuw gedeeld"},
        ],
        "teams": {"re": "Re", "kontra": "Kontra"},
        "items": {
            "won": "gewonnen", "against_the_old": "tegen de oudjes", "re_announced": "Re aangekondigd",
            "kontra_announced": "Kontra aangekondigd", "below_90": "onder 90", "no_90_announced": "geen 90 aangekondigd",
            "no_90_failed_by_losers": "geen 90 van de verliezers mislukt", "below_60": "onder 60",
            "no_60_announced": "geen 60 aangekondigd", "no_60_failed_by_losers": "geen 60 van de verliezers mislukt",
            "below_30": "onder 30", "no_30_announced": "geen 30 aangekondigd",
            "no_30_failed_by_losers": "geen 30 van de verliezers mislukt", "schwarz": "schwarz (zwart)",
            "schwarz_announced": "schwarz aangekondigd", "schwarz_failed_by_losers": "schwarz van de verliezers mislukt",
            "doppelkopf": "Doppelkopf (slag van 40+)", "fox_caught": "vos gevangen", "karlchen": "Karlchen",
            "karlchen_caught": "Karlchen gevangen",
        },
        "phases": {"reservation": "voorbehoud", "armut_give": "Armut geven", "armut_offer": "Armut aanbieden",
                   "armut_return": "Armut teruggeven", "play": "spelen", "over": "afgelopen"},
    },
    "ur": {
        "cards": FRENCH_UR,
        "calls": {
            "bid": {
                "healthy": call("صحت مند", "صحت مند ہے", "صحت مند ہیں"),
                "hochzeit": call("شادی (Hochzeit)", "شادی کا اعلان کرتا ہے", "شادی کا اعلان کرتے ہیں"),
                "armut": call("غربت (Armut)", "غربت کا اعلان کرتا ہے", "غربت کا اعلان کرتے ہیں"),
                "solo_diamonds": call("اینٹ سولو", "اینٹ سولو کھیلتا ہے", "اینٹ سولو کھیلتے ہیں"),
                "solo_hearts": call("پان سولو", "پان سولو کھیلتا ہے", "پان سولو کھیلتے ہیں"),
                "solo_spades": call("حکم سولو", "حکم سولو کھیلتا ہے", "حکم سولو کھیلتے ہیں"),
                "solo_clubs": call("چڑیا سولو", "چڑیا سولو کھیلتا ہے", "چڑیا سولو کھیلتے ہیں"),
                "solo_queens": call("بیگم سولو", "بیگم سولو کھیلتا ہے", "بیگم سولو کھیلتے ہیں"),
                "solo_jacks": call("غلام سولو", "غلام سولو کھیلتا ہے", "غلام سولو کھیلتے ہیں"),
                "solo_aces": call("یکہ سولو (بغیر ترپ)", "یکہ سولو کھیلتا ہے", "یکہ سولو کھیلتے ہیں"),
                "accept": call("غربت قبول کریں", "غربت قبول کرتا ہے", "غربت قبول کرتے ہیں"),
                "decline": call("غربت رد کریں", "غربت رد کرتا ہے", "غربت رد کرتے ہیں"),
            },
            "announce": {
                "re": call("Re", "Re کا اعلان کرتا ہے", "Re کا اعلان کرتے ہیں"),
                "kontra": call("Kontra", "Kontra کا اعلان کرتا ہے", "Kontra کا اعلان کرتے ہیں"),
                "no_90": call("90 نہیں", "90 نہیں کا اعلان کرتا ہے", "90 نہیں کا اعلان کرتے ہیں"),
                "no_60": call("60 نہیں", "60 نہیں کا اعلان کرتا ہے", "60 نہیں کا اعلان کرتے ہیں"),
                "no_30": call("30 نہیں", "30 نہیں کا اعلان کرتا ہے", "30 نہیں کا اعلان کرتے ہیں"),
                "schwarz": call("شوارز", "شوارز کا اعلان کرتا ہے", "شوارز کا اعلان کرتے ہیں"),
            },
            "exchange": {
                "armut_give": call("دیں", "غربت کے ساتھی کو {cards:cards} دیتا ہے", "غربت کے ساتھی کو {cards:cards} دیتے ہیں"),
                "armut_return": call("واپس دیں", "{cards:cards} واپس دیتا ہے", "{cards:cards} واپس دیتے ہیں"),
            },
        },
        "contracts": {
            "none": "کوئی کھیل نہیں",
            "normal": "عام کھیل",
            "silent_solo": "خاموش سولو",
            "hochzeit": "شادی",
            "armut": "غربت",
            "solo": "",
        },
        "contract_fields": [
            _solo_field({"diamonds": "اینٹ سولو", "hearts": "پان سولو", "spades": "حکم سولو", "clubs": "چڑیا سولو",
                         "queens": "بیگم سولو", "jacks": "غلام سولو", "aces": "یکہ سولو"}),
            {"field": "declarer", "text": "کھلاڑی: {declarer:seat}", "join": "، "},
            {"field": "acceptor", "text": "قبول کرنے والا: {acceptor:seat}", "join": "، "},
            {"field": "partner", "text": "ساتھی: {partner:seat}", "join": "، "},
            {"field": "redeal", "text": "دوبارہ بانٹا گیا", "join": "؛ "},
        ],
        "teams": {"re": "Re", "kontra": "Kontra"},
        "items": {
            "won": "جیت", "against_the_old": "بوڑھیوں کے خلاف", "re_announced": "Re کا اعلان",
            "kontra_announced": "Kontra کا اعلان", "below_90": "90 سے کم", "no_90_announced": "90 نہیں کا اعلان",
            "no_90_failed_by_losers": "ہارنے والوں کا 90 نہیں پورا نہ ہوا", "below_60": "60 سے کم",
            "no_60_announced": "60 نہیں کا اعلان", "no_60_failed_by_losers": "ہارنے والوں کا 60 نہیں پورا نہ ہوا",
            "below_30": "30 سے کم", "no_30_announced": "30 نہیں کا اعلان",
            "no_30_failed_by_losers": "ہارنے والوں کا 30 نہیں پورا نہ ہوا", "schwarz": "شوارز",
            "schwarz_announced": "شوارز کا اعلان", "schwarz_failed_by_losers": "ہارنے والوں کا شوارز پورا نہ ہوا",
            "doppelkopf": "Doppelkopf (40 یا زیادہ کی چال)", "fox_caught": "لومڑی پکڑی", "karlchen": "چارلی",
            "karlchen_caught": "چارلی پکڑا",
        },
        "phases": {"reservation": "ریزرویشن", "armut_give": "غربت دینا", "armut_offer": "غربت کی پیشکش",
                   "armut_return": "غربت واپس دینا", "play": "کھیل", "over": "ختم"},
    },
}
