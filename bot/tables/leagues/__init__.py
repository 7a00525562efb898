"""Leagues and tournaments: the pairing and standings core, pure (no store, no Discord).

``entrants`` holds the vocabulary (an entrant, a pairing, a result, a round); the formats
are ``round_robin`` (single or double, circle method), ``swiss`` (a round paired by
networkx's maximum-weight matching, its weights in ``swiss_weights``) and ``elimination``
(seeded by rating); ``standings`` ranks the players by points, then the tiebreaks of
``tiebreaks``. The rules and the reasons: docs/leagues.md. The league's desk, statements
and commands will stand on these modules.
"""
