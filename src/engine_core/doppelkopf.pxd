from ._core cimport u64, i64, int8_t, Order, Rng
from .playout cimport PlayoutStats

cdef enum:
    DK_MAX_ACTIONS = 72     # 4 bids + give + 3 offers + return + 48 cards + 10 announcements
    DK_MAX_ANN = 10         # 5 levels per team
    DK_MAX_ITEMS = 48

cdef struct DkOpts:
    bint second_heart_ten, solo_player_leads, charlie_only_when_winning

cdef struct DkState:
    u64 hand[4]
    u64 dealt[4]
    u64 won[4]
    u64 given, returned         # Armut: the poor player's 3 cards, the acceptor's 3 back
    int8_t n_won[4]
    int8_t bids[4]              # reservation call by seat, -1 before speaking
    int8_t dealer, to_act, phase, n_spoken
    int8_t contract, solo, order
    int8_t declarer, partner, acceptor
    int8_t clarified            # Hochzeit: trick (1-based) that decided it; 0 undecided
    int8_t reduction            # announcement thresholds lowered by this (Hochzeit)
    int8_t re_mask              # seats of the Re team (bit per seat)
    int8_t redeal               # void Armut
    int8_t level[2]             # announcement level of Re [0] and Kontra [1]
    int8_t n_ann
    int8_t ann_seat[DK_MAX_ANN]
    int8_t ann_level[DK_MAX_ANN]
    int8_t ann_hand[DK_MAX_ANN]
    int8_t ann_trick[DK_MAX_ANN]
    int8_t trick_no, n_in_trick, leader
    int8_t trick[12][4]
    int8_t trick_leader[12]
    int8_t trick_winner[12]

cdef struct DkScore:
    int card_points[4]
    int scores[4]
    int team_points[2]          # Re, Kontra
    int team_tricks[2]
    int winner                  # 0 Re, 1 Kontra, -1 nobody
    int value                   # game value V credited to the winner
    int extras[2]
    int net_re
    bint solo_scoring
    int n_items
    int8_t item[DK_MAX_ITEMS]
    int8_t item_team[DK_MAX_ITEMS]
    int8_t item_value[DK_MAX_ITEMS]

cdef void dk_init(DkState* s, const u64* hands, int dealer) noexcept nogil
cdef int dk_legal(const DkState* s, const DkOpts* o, i64* out) noexcept nogil
cdef u64 dk_legal_play(const DkState* s) noexcept nogil
cdef int dk_next_announcement(const DkState* s, int seat) noexcept nogil
cdef void dk_apply(DkState* s, const DkOpts* o, i64 code) noexcept nogil
cdef void dk_score(const DkState* s, const DkOpts* o, DkScore* out) noexcept nogil
cdef int dk_winner(int level_re, int level_kontra, int re_points, int re_tricks) noexcept nogil
cdef void dk_deal(Rng* r, int dealer, u64* hands) noexcept nogil
cdef void dk_random_playout(DkState* s, const DkOpts* o, Rng* r) noexcept nogil
cdef int dk_opts(object options, DkOpts* out) except -1
cdef void dk_playout(Rng* r, int dealer, int bids, const DkOpts* o, PlayoutStats* st,
                     i64* trace) noexcept nogil
