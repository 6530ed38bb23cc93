# cython: language_level=3
"""Sheepshead's rule hooks (typed, nogil) over card masks, five-handed: the sizes below, then the
rules written once for every seat count (`_rules.pxi`, which includes the shared engine
`_engine.pxi` at its end; rules3/rules4/rules6.pyx compile the same rules for 3, 4 and 6 seats,
docs/rules/sheepshead.md 13). Five-handed Milwaukee called-ace game, 32 cards: the rules
of ../shared/rules/sheepshead.md (seed 003 the default; seed 004's differences are options).

Deal: 6 cards each in packets 3-2-3 (the 2 go to the blind; the packets are the declaration's).
Pick: from the dealer's left each seat once picks or passes; the first pick takes the blind and
buries 2 (their points are the picker's). Call (bury first, then call): a fail ace the picker
lacks (hand or bury) with a kept card of its suit; a ten when his 8 cards hold all three fail
aces; the "unknown" ace when no ace is callable and his fail cards are only aces (or he has
none; `unknown_broad` drops that condition), with one card of his hand set aside face down;
alone (forced when nothing else is allowed). `partner: jack_of_diamonds` calls the JD holder
instead; with option call_up a picker who holds JD may call up the next highest jack he does not
hold (JH, JS, JC) instead of going alone; `partner: none` is always alone. With option call_own_ace the picker may
also call a fail ace in his hand and play secretly alone. Cracking (option): the seats after the picker may
crack (not the partner, who gets a forced pass turn so that nothing gives him away), the picker
may then re-crack. Blitzing (option): before the crack round every seat in turn from eldest may
show both black queens (QC QS) from its hand, doubling the stakes; with option red_blitz also
both red queens (QH QD), doubling again (x4 with both blitzes); a blitz keeps the turn while the
other colour's is still open; every seat is asked, the others can only pass, so that the turn
order gives nothing away; the shown queens are public.
Everybody passes: leaster (fewest points among seats with a trick wins), a doubler (thrown in,
next deal x2, up to the `multiplier` option's maximum) or, with `forced_pick`, the dealer must
pick.
Play: 14 trumps (Q, J, diamonds) form one suit (with option spitz 7D ranks second, below QC:
ORDER_SPITZ, chosen by g_order); follow suit, no duty to trump. Until the called
suit is first led the partner may lead that suit only with the called card and may not discard
it; when it is first led he must play it; the picker keeps a card of the called suit (his only
one, or the unknown card, which counts as a card of the called suit and never wins a trick).
Scoring: 61 wins, 60-60 loses; schneider (defenders <= 29, or team <= 30), no trick; losses
doubled on the bump; the picker's share is 2x the partner's, or 4x a defender's alone.

Hidden information (`public`, `redact`, `redact_result`), decided once in `_sees_face_down`:
* The blind and the buried cards are the picker's alone: every other seat and a spectator see
  the bury with its cards as "??" (two of them), and `contract.buried` as "??", never the
  codes, also after the deal.
* The unknown card is set aside and played face down: every seat but the picker, spectators
  included, sees the unknown exchange, its play, the card in the trick in play and in the
  tricks, and `contract.unknown_card`, as "??", also in the finished deal's result. The record
  keeps its real code.
* The partner is shown (`contract.partner`) only to himself until the called card has been
  played, and to everybody when the deal is over. Legal actions are the acting seat's only, so
  his forced choices (the crack-round pass, the called ace) are never broadcast.
* A blitz shows the black (or, red_blitz, the red) queens: the view's `shown_hands` (a list of
  {"seat", "cards"}, one per blitzing seat) lists those still in the blitzers' hands to every
  seat and to spectators; `shown` is its first entry (the one face-up hand of other games).
"""

from engine_core.cards import PIQUET

DECK = PIQUET

cdef enum:
    G_SEATS = 5
    G_HAND = 6
    G_BLIND = 2
    G_DECK = 32
    G_FACES = 32
    G_COPIES = 1
    G_MAX_ACTIONS = 56          # 5 picks, bury, call, unknown, 5+1 blitz-round calls, 5 crack-round calls, 30 cards
    G_BIDS = 1                  # uniform only
    SS_LEGAL = 32               # the most legal actions: the bury's 28 pairs of 8 cards
    # the `multiplier` option's maximum, where a run of doublers stops doubling: no score of a
    # deal exceeds 384 x 2^20 (4 shares x no trick 3 x bump 2 x blitz 2 x red blitz 2 x crack 2 x re-crack 2 x M)
    MULTIPLIER_CAP = 1048576

include "_rules.pxi"
