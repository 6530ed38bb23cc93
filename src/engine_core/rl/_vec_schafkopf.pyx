# cython: language_level=3
# The tensors and the vectorised environment (_vec.pxi) compiled over this game's rule hooks:
# the game's rules.pyx (with the engine) included again so that its hooks inline into the
# step loop; engine_core.rl finds this module by the game's name.
include "../games/schafkopf/rules.pyx"
include "_vec.pxi"
