"""Klaverjas's words, as ListGames serves them (docs/adding-a-game.md, "Words"): French suits,
the trump choice in three forms, the contract as a sentence, the breakdown items (roem among
them) and the phases; in English, German, Dutch (the game's own terms: troef, roem, stuk, nat,
pit/mars) and Urdu (the terms of the Urdu rules: ترپ، رُوم، اسٹُک، ناٹ، پِٹ)."""
from ..words import FRENCH_DE, FRENCH_EN, FRENCH_NL, FRENCH_UR, call

# the Drents auction's bids (rules 12): the points 80..160 in tens, one call each
BIDS = range(80, 161, 10)
_UR_DIGITS = str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹")


def _bids(name, said, you, pit):
    """The calls points_80 .. points_160 and pit, from templates with {n} for the number."""
    out = {f"points_{n}": call(name.format(n=n), said.format(n=n), you.format(n=n)) for n in BIDS}
    out["pit"] = call(*pit)
    return out


def _bid_values(pit):
    """The contract's `bid` (the winning call) in words: the number, or the pit."""
    return {**{f"points_{n}": str(n) for n in BIDS}, "pit": pit}


def _bids_ur():
    out = _bids("{n}", "{n} کی بولی دیتا ہے", "{n} کی بولی دیتے ہیں",
                ("پِٹ", "پِٹ کی بولی دیتا ہے", "پِٹ کی بولی دیتے ہیں"))
    return {k: {f: t.translate(_UR_DIGITS) for f, t in v.items()} for k, v in out.items()}


WORDS = {
    "en": {
        "cards": FRENCH_EN,
        "calls": {
            "bid": {
                "pass": call("pass", "passes", "pass"),
                "trump": call("{suit:name} as trump", "plays with {suit:name} as trump",
                               "play with {suit:name} as trump"),
                **_bids("{n}", "bids {n}", "bid {n}", ("pit", "bids pit (every trick)", "bid pit (every trick)")),
            },
            "announce": {"stuk": call("stuk", "says stuk", "say stuk"),
                         "roem": call("claim roem", "claims the roem", "claim the roem"),
                         "pass": call("no claim", "lets the roem go", "let the roem go")},
        },
        "contracts": {"trump": "{trump:name} trump"},
        "contract_fields": [
            {"field": "declarer", "text": "by {declarer:seat}", "join": " "},
            {"field": "forced", "text": "forced to play"},
            {"field": "bid", "text": "bid {bid}", "values": _bid_values("pit")},
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
        "presets": {"rotterdam": "Rotterdam (always trump and overtrump)", "utrecht": "Utrecht (eldest must name trumps)",
                    "to_1500": "to 1,500 points (instead of 16 deals)"},
        "phases": {"bidding": "bidding", "play": "play", "over": "over", "point_auction": "point auction", "claim": "claim roem"},
    },
    "de": {
        "cards": FRENCH_DE,
        "calls": {
            "bid": {
                "pass": call("passen", "passt", "passt"),
                "trump": call("{suit:name} ist Trumpf", "macht {suit:name} zu Trumpf", "machst {suit:name} zu Trumpf"),
                **_bids("{n}", "bietet {n}", "bietest {n}", ("Pit", "bietet Pit (alle Stiche)", "bietest Pit (alle Stiche)")),
            },
            "announce": {"stuk": call("Stuk", "sagt Stuk", "sagst Stuk"),
                         "roem": call("Roem melden", "meldet die Roem", "meldest die Roem"),
                         "pass": call("nicht melden", "lässt die Roem verfallen", "lässt die Roem verfallen")},
        },
        "contracts": {"trump": "{trump:name} ist Trumpf"},
        "contract_fields": [
            {"field": "declarer", "text": "Spieler: {declarer:seat}", "join": ", "},
            {"field": "forced", "text": "musste spielen", "join": ", "},
            {"field": "bid", "text": "Gebot {bid}", "join": ", ", "values": _bid_values("Pit")},
            {"field": "outcome", "text": "{outcome}", "join": ", ",
             "values": {"made": "geschafft", "nat": "nass (die Spieler verlieren alles)", "half_nat": "halb nass",
                        "pit": "Pit (alle Stiche)"}},
        ],
        "teams": {},
        "items": {
            "cards": "Augen", "last_trick": "letzter Stich", "roem_run3": "Roem: Dreierfolge",
            "roem_run4": "Roem: Viererfolge", "roem_four_of_a_kind": "Roem: vier Gleiche",
            "roem_four_jacks": "Roem: vier Buben", "roem_stuk": "Roem: Stuk (Trumpf-König und -Dame)", "pit": "Pit",
            "total": "Summe", "nat": "nass", "half_nat": "halb nass", "score": "Punkte",
        },
        "presets": {"rotterdam": "Rotterdam (immer stechen und überstechen)", "utrecht": "Utrecht (Vorhand muss Trumpf bestimmen)",
                    "to_1500": "bis 1500 Punkte (statt 16 Spielen)"},
        "phases": {"bidding": "Trumpfwahl", "play": "Spiel", "over": "Ende", "point_auction": "Reizen", "claim": "Roem melden"},
    },
    "nl": {
        "cards": FRENCH_NL,
        "calls": {
            "bid": {
                "pass": call("passen", "past", "past"),
                "trump": call("{suit:name} troef", "maakt {suit:name} troef", "maakt {suit:name} troef"),
                **_bids("{n}", "biedt {n}", "biedt {n}", ("pit", "biedt pit (alle slagen)", "biedt pit (alle slagen)")),
            },
            "announce": {"stuk": call("stuk", "meldt stuk", "meldt stuk"),
                         "roem": call("roem melden", "meldt de roem", "meldt de roem"),
                         "pass": call("niet melden", "laat de roem lopen", "laat de roem lopen")},
        },
        "contracts": {"trump": "{trump:name} is troef"},
        "contract_fields": [
            {"field": "declarer", "text": "speler: {declarer:seat}", "join": ", "},
            {"field": "forced", "text": "verplicht gespeeld", "join": ", "},
            {"field": "bid", "text": "bod {bid}", "join": ", ", "values": _bid_values("pit")},
            {"field": "outcome", "text": "{outcome}", "join": ", ",
             "values": {"made": "gehaald", "nat": "nat (de spelers gaan nat)", "half_nat": "half nat",
                        "pit": "pit/mars (alle slagen)"}},
        ],
        "teams": {},
        "items": {
            "cards": "kaartpunten", "last_trick": "laatste slag", "roem_run3": "roem: drie op een rij",
            "roem_run4": "roem: vier op een rij", "roem_four_of_a_kind": "roem: vier gelijke kaarten",
            "roem_four_jacks": "roem: vier boeren", "roem_stuk": "roem: stuk (heer en vrouw van troef)", "pit": "pit",
            "total": "totaal", "nat": "nat", "half_nat": "half nat", "score": "score",
        },
        "presets": {"rotterdam": "Rotterdams (altijd troeven en overtroeven)", "utrecht": "Utrechts (verplicht troef maken)",
                    "to_1500": "tot 1500 punten (in plaats van 16 potjes)"},
        "phases": {"bidding": "troef kiezen", "play": "spelen", "over": "afgelopen", "point_auction": "bieden", "claim": "roem melden"},
    },
    "ur": {
        "cards": FRENCH_UR,
        "calls": {
            "bid": {
                "pass": call("پاس", "پاس کرتا ہے", "پاس کرتے ہیں"),
                "trump": call("{suit:name} ترپ", "{suit:name} کو ترپ بناتا ہے", "{suit:name} کو ترپ بناتے ہیں"),
                **_bids_ur(),
            },
            "announce": {"stuk": call("اسٹُک", "اسٹُک کہتا ہے", "اسٹُک کہتے ہیں"),
                         "roem": call("رُوم کا دعویٰ", "رُوم کا دعویٰ کرتا ہے", "رُوم کا دعویٰ کرتے ہیں"),
                         "pass": call("دعویٰ نہیں", "رُوم چھوڑ دیتا ہے", "رُوم چھوڑ دیتے ہیں")},
        },
        "contracts": {"trump": "{trump:name} ترپ"},
        "contract_fields": [
            {"field": "declarer", "text": "ترپ چننے والا: {declarer:seat}", "join": "، "},
            {"field": "forced", "text": "مجبوراً چنا", "join": "، "},
            {"field": "bid", "text": "بولی {bid}", "join": "، ",
             "values": {k: v.translate(_UR_DIGITS) for k, v in _bid_values("پِٹ").items()}},
            {"field": "outcome", "text": "{outcome}", "join": "؛ ",
             "values": {"made": "پورا کیا", "nat": "ناٹ (ترپ چننے والے سب کچھ ہار گئے)", "half_nat": "آدھا ناٹ",
                        "pit": "پِٹ (ساری چالیں)"}},
        ],
        "teams": {},
        "items": {
            "cards": "پتوں کے پوائنٹ", "last_trick": "آخری چال", "roem_run3": "رُوم: تین کا سلسلہ",
            "roem_run4": "رُوم: چار کا سلسلہ", "roem_four_of_a_kind": "رُوم: ایک جیسے چار",
            "roem_four_jacks": "رُوم: چار غلام", "roem_stuk": "رُوم: اسٹُک (ترپ کا بادشاہ اور بیگم)", "pit": "پِٹ",
            "total": "کل", "nat": "ناٹ", "half_nat": "آدھا ناٹ", "score": "اسکور",
        },
        "presets": {"rotterdam": "روٹرڈیم (ہمیشہ ترپ اور اوپر ترپ)", "utrecht": "یوٹریکٹ (پہلا کھلاڑی لازماً ترپ چنتا ہے)",
                    "to_1500": "۱۵۰۰ پوائنٹ تک (۱۶ بازیوں کی بجائے)"},
        "phases": {"bidding": "ترپ کا انتخاب", "play": "کھیل", "over": "ختم", "point_auction": "بولی", "claim": "رُوم کا دعویٰ"},
    },
}
