from ._core cimport u64, i64, int8_t, Rng

cdef enum:
    SS_MAX_ACTIONS = 48

cdef struct SsOpts:
    int8_t partner_mode        # 0 called_ace, 1 jack_of_diamonds, 2 none
    int8_t no_pick             # 0 leaster, 1 doubler, 2 forced_pick
    bint blind_last_trick, bump, exempt, unknown_broad, dealer_leads, cracking
    int multiplier

cdef struct SsState:
    u64 hand[5]               # the picker's hand includes the unknown card while he holds it
    u64 won[5]                # cards of the tricks each seat won
    u64 blind, buried
    int8_t n_won[5]
    int8_t dealer, to_act, phase, n_spoken
    int8_t picker, partner, contract, called, called_suit, called_led, unknown
    int8_t forced_alone, cracked_by, recracked
    int8_t trick_no, n_in_trick, leader
    int8_t trick[6][5]
    int8_t trick_leader[6]
    int8_t trick_winner[6]

cdef struct SsScore:
    int card_points[5]
    int scores[5]
    int team_points, defender_points, team_tricks
    bint team_won, exempt
    int level, bump, mult, unit, picker_share, partner_share
    int blind_points, leaster_winner, leaster_low

cdef void ss_init(SsState* s, const u64* hands, u64 blind, int dealer) noexcept nogil
cdef int ss_legal(const SsState* s, const SsOpts* o, i64* out) noexcept nogil
cdef u64 ss_legal_play(const SsState* s) noexcept nogil
cdef void ss_apply(SsState* s, const SsOpts* o, i64 code) noexcept nogil
cdef void ss_score(const SsState* s, const SsOpts* o, SsScore* out) noexcept nogil
cdef void ss_deal(Rng* r, int dealer, u64* hands, u64* blind) noexcept nogil
cdef void ss_random_deal(Rng* r, const SsOpts* o, int dealer, SsState* s) noexcept nogil
cdef int ss_opts(object options, SsOpts* o) except -1
