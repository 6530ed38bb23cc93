# Declarations shared by the games' nogil random-playout functions and engine_core.batch
# (declarations only: no module behind this file). A game implements
#     cdef void xx_playout(Rng* r, int dealer, int bids, const XxOpts* o, PlayoutStats* st,
#                          i64* trace) noexcept nogil
# in its own module (so its legal/apply functions inline there) and batch.pyx dispatches to it.
from ._core cimport i64

cdef enum:
    MAX_CONTRACTS = 16
    MAX_SEATS = 5
    HIST_BINS = 256

# how the random players call in auctions and announcement rounds (batch.BIDS names them)
cdef enum:
    BIDS_UNIFORM = 0     # every legal call equally likely
    BIDS_CHEAPEST = 1    # pass or (50:50) name the cheapest contract open to the speaker

# an optional trace of one playout (NULL in the hot loop): the dealt hands' masks (blind after
# them for games with one), the number of actions, then every action code
cdef enum:
    TRACE_HANDS = 0      # [0, 6): up to 5 seats + the blind
    TRACE_COUNT = 6
    TRACE_CODES = 7
    TRACE_SIZE = 7 + 512

cdef struct PlayoutStats:
    i64 deals            # deals finished
    i64 played           # deals with card play (not thrown in, not ended in the auction)
    i64 cards            # cards played
    i64 calls            # bids, announcements and exchanges
    i64 with_declarer    # deals with a declaring side
    i64 declarer_won
    i64 contracts[MAX_CONTRACTS]    # by the game's CONTRACT_NAMES index
    i64 score_sum[MAX_SEATS]
    i64 seat_points[HIST_BINS]      # each seat's card points, per played deal
    i64 side_points[HIST_BINS]      # the declaring side's card points, per played deal

cdef inline void add_points(i64* hist, int points) noexcept nogil:
    if points < 0:
        points = 0
    elif points >= HIST_BINS:
        points = HIST_BINS - 1
    hist[points] += 1

cdef inline void book_deal(PlayoutStats* st, int contract, const int* scores, const int* card_points,
                           int seats, bint played) noexcept nogil:
    """Count one finished deal: its contract (if any), each seat's score and, when cards were
    played, each seat's card points."""
    cdef int i
    st.deals += 1
    if contract >= 0:
        st.contracts[contract] += 1
    for i in range(seats):
        st.score_sum[i] += scores[i]
    if played:
        st.played += 1
        for i in range(seats):
            add_points(st.seat_points, card_points[i])

cdef inline void book_side(PlayoutStats* st, bint won, int side_points, bint played) noexcept nogil:
    """Count the declaring side of a deal: whether it won and, when cards were played, its
    card points."""
    st.with_declarer += 1
    st.declarer_won += won
    if played:
        add_points(st.side_points, side_points)
