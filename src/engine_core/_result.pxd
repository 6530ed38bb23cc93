from ._game cimport Result, Score, Field

cdef class Names:
    """The strings a game's Result is rendered with, derived from its enums and deck."""
    cdef readonly tuple contracts, items, words, cards
    cdef readonly int seats

cdef dict render(const Result* r, Names names)
cdef dict render_contract(const Result* r, Names names)
cdef list seat_list(int mask)
cdef list score_list(const Score* sc, int seats)
