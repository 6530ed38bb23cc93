from ._core cimport u64, i64, int8_t, int16_t, Order, Rng

cdef enum:
    KJ_MAX_ACTIONS = 40      # at most 5 bids + 32 cards

# roem items of one trick, as bit flags (rules 5.2)
cdef enum:
    R_RUN3 = 1
    R_RUN4 = 2
    R_FOUR = 4               # four Kings, Queens, Aces or Tens
    R_FOUR_JACKS = 8
    R_STUK = 16

cdef struct KjOpts:
    bint rotterdam           # Rotterdam trumping (else Amsterdam, also for Utrecht)
    bint compulsory          # eldest must name trumps at once
    bint roem
    bint half_nat            # tie_rule half_nat
    bint nat_roem_own        # nat: the playing team's roem is dropped, not handed over
    int pit_bonus

cdef struct KjState:
    u64 hand[4]
    u64 dealt[4]
    u64 won[4]
    int8_t n_won[4]
    int8_t dealer, to_act, phase, n_passes
    int8_t trump, maker, forced
    int8_t trick_no, n_in_trick, leader
    int8_t trick[8][4]
    int8_t trick_leader[8]
    int8_t trick_winner[8]
    int8_t trick_roem_items[8]   # R_* flags of each completed trick (0 with roem off)
    int16_t trick_roem[8]        # roem value of each completed trick

cdef struct KjScore:
    int card_points[4]       # per seat, the last trick's 10 included
    # per team, index 0 = playing team (the maker's), 1 = defenders
    int cards[2]             # card points without the last-trick 10
    int last[2]
    int roem[2]
    int pit[2]
    int total[2]
    int score[2]
    int outcome              # 0 made, 1 nat, 2 half_nat
    int scores[4]

cdef int kj_trick_roem(const int8_t* cards, int trump, int* items) noexcept nogil
cdef void kj_init(KjState* s, const KjOpts* o, const u64* hands, int dealer) noexcept nogil
cdef u64 kj_legal_play(const KjState* s, const KjOpts* o) noexcept nogil
cdef int kj_legal(const KjState* s, const KjOpts* o, i64* out) noexcept nogil
cdef void kj_apply(KjState* s, const KjOpts* o, i64 code) noexcept nogil
cdef void kj_score(const KjState* s, const KjOpts* o, KjScore* out) noexcept nogil
cdef void kj_deal(Rng* r, int dealer, const int8_t* packets, int n_packets, u64* hands) noexcept nogil
cdef void kj_random_deal(Rng* r, const KjOpts* o, int dealer, const int8_t* packets, int n_packets,
                         KjState* s, KjScore* out) noexcept nogil
cdef int kj_opts(object options, KjOpts* o) except -1
cdef int kj_packets(object options, int8_t* packets) except -1
