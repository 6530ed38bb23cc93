"""The shared core: deal function (golden), daily seeds, cards and CardSet, options."""
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine_core import CardSet, _rng, games
from engine_core.cards import DOPPELKOPF, PIQUET
from engine_core.errors import InvalidRecordError, OptionError

M64 = (1 << 64) - 1


def reference_shuffle(seed: int, n: int) -> list[int]:
    """The documented deal function v1 in plain Python: SplitMix64 + Lemire + Fisher–Yates."""
    state = seed

    def next64():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & M64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        return z ^ (z >> 31)

    def below(bound):
        m = (next64() >> 32) * bound
        low = m & 0xFFFFFFFF
        if low < bound:
            t = ((1 << 32) - bound) % bound
            while low < t:
                m = (next64() >> 32) * bound
                low = m & 0xFFFFFFFF
        return m >> 32

    deck = list(range(n))
    for i in range(n - 1, 0, -1):
        j = below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63, M64, 0xDEADBEEF])
@pytest.mark.parametrize("n", [32, 48])
def test_shuffle_matches_the_documented_algorithm(seed, n):
    assert _rng.shuffle(seed, n) == reference_shuffle(seed, n)


# Golden hands: these must never change (deal function version 1).
GOLDEN = {
    0: [["KH", "QD", "QS", "7C", "7D", "AC", "9S", "JD"], ["9D", "8S", "QC", "7H", "8H", "JS", "AD", "KS"],
        ["TC", "AH", "TD", "8C", "7S", "KD", "9H", "9C"], ["8D", "TS", "JH", "TH", "QH", "JC", "AS", "KC"]],
    42: [["KD", "7S", "7C", "QD", "TS", "AS", "JC", "7H"], ["8H", "8C", "KC", "JS", "QC", "QS", "JD", "AD"],
         ["AH", "9H", "9S", "QH", "KS", "8D", "8S", "9D"], ["KH", "TD", "AC", "TH", "JH", "9C", "7D", "TC"]],
    M64: [["9C", "TC", "KC", "TD", "JS", "8C", "7D", "JD"], ["KS", "7S", "QD", "TH", "QS", "QC", "JH", "9H"],
          ["8S", "8D", "TS", "AS", "AH", "KD", "AC", "KH"], ["9S", "7H", "7C", "JC", "9D", "AD", "8H", "QH"]],
}


@pytest.mark.parametrize("seed", sorted(GOLDEN))
def test_golden_schafkopf_hands(seed):
    """The same seed deals the same hands in every release (a hand lists its cards in deck
    index order: C S H D, A T K Q J 9 8 7 within a suit)."""
    index = {c: i for i, c in enumerate(PIQUET.faces)}
    want = [sorted(h, key=index.get) for h in GOLDEN[seed]]
    assert games.get("schafkopf").deal(seed, dealer=0).hands == want


def test_golden_shuffle_48():
    assert _rng.shuffle(12345, 48)[:12] == [46, 43, 1, 21, 38, 41, 34, 8, 29, 39, 11, 18]


def test_packets_follow_the_dealer():
    """Packet k goes to seat (dealer + 1 + k) % 4: rotating the dealer rotates the hands."""
    game = games.get("schafkopf")
    base = game.deal(7, dealer=0).hands
    assert game.deal(7, dealer=1).hands == base[-1:] + base[:-1]


def test_daily_seed_is_stable_and_distinct():
    assert games.daily_seed("schafkopf", "2026-11-29") == 17545723613065388246
    assert games.daily_seed("schafkopf", "2026-11-29") != games.daily_seed("schafkopf", "2026-11-30")
    assert games.daily_seed("schafkopf", "2026-11-29") != games.daily_seed("doppelkopf", "2026-11-29")
    game = games.get("schafkopf")
    assert game.daily("2026-11-29").hands == game.deal(17545723613065388246).hands


@pytest.mark.parametrize("seed", [-1, 2**64, 1.5, "7", True])
def test_bad_seed(seed):
    with pytest.raises(InvalidRecordError, match="seed"):
        games.get("schafkopf").deal(seed)


def test_cardset():
    s = CardSet(["QC", "TH"])
    assert len(s) == 2 and "QC" in s and "7D" not in s and "XX" not in s
    assert list(s | CardSet(["7D"])) == ["QC", "TH", "7D"]
    assert list(s - CardSet(["QC"])) == ["TH"]
    assert CardSet(["QC"]) == CardSet(int(CardSet(["QC"])))
    with pytest.raises(ValueError, match="bad card code"):
        CardSet(["10H"])
    with pytest.raises(ValueError, match="more often"):
        CardSet(["QC", "QC"])


def test_doppelkopf_deck_has_two_copies():
    both = CardSet(["QC", "QC"], DOPPELKOPF)
    assert len(both) == 2 and list(both) == ["QC", "QC"]
    assert DOPPELKOPF.size == 48 and PIQUET.size == 32
    assert DOPPELKOPF.copies_of("QC") == [3, 27]


def test_unknown_game():
    with pytest.raises(OptionError, match="unknown game 'skat'"):
        games.get("skat")


@pytest.mark.parametrize("hands,field", [
    ("x", "hands"),
    ([["QC"] * 8] * 3, "hands"),
    ([GOLDEN[0][0][:7]] + GOLDEN[0][1:], "hands[0]"),
    ([["10H"] + GOLDEN[0][0][1:]] + GOLDEN[0][1:], "hands[0][0]"),
    ([GOLDEN[0][0], GOLDEN[0][0]] + GOLDEN[0][2:], "hands[1][0]"),
])
def test_bad_hands_name_the_field(hands, field):
    with pytest.raises(InvalidRecordError) as err:
        games.get("schafkopf").new_deal(hands, 0)
    assert err.value.field == field


def test_blind_refused_where_there_is_none():
    with pytest.raises(InvalidRecordError, match="blind"):
        games.get("schafkopf").new_deal(GOLDEN[0], 0, ["QC", "QS"])


@settings(max_examples=300, deadline=None)
@given(st.sampled_from([PIQUET, DOPPELKOPF]), st.data())
def test_deck_codes_reads_a_mask_bit_by_bit(deck, data):
    """Deck.codes (a byte-table read) lists the codes of a mask's cards, lowest index first,
    as reading the mask one bit at a time does."""
    mask = data.draw(st.integers(0, deck.full_mask))
    assert deck.codes(mask) == [deck.code(i) for i in range(deck.size) if mask >> i & 1]
