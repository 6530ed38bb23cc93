"""stich's rules engine: card ranking, legal moves, tricks, bidding and scoring for
Schafkopf, Doppelkopf, Sheepshead and Klaverjas over integer card masks in Cython."""
from . import games, records
from .cards import CardSet, Deck
from .errors import IllegalActionError, InvalidRecordError, OptionError, StichError
from .games import Game, daily_seed
from .state import State

__all__ = ["games", "records", "CardSet", "Deck", "Game", "State", "daily_seed",
           "IllegalActionError", "InvalidRecordError", "OptionError", "StichError"]
__version__ = "0.1.0"
