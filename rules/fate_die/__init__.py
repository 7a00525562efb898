"""The Fate Die, shared by the games that use it.

The CDG Solo System's die (``faces``: its six faces and the slots each turns up) is used
by the system itself (``rules.solo``) and, as an opponent that runs one side's hand, by
our own Fort Sumter and Lincoln (``opponent``, with the playsheets Dispatch designed for
them in ``data/``). It lives here, beside the games and below them, so that no game
imports another game's package.
"""
