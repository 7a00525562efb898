"""Leagues and tournaments: the pairing and standings core, pure (no store, no Discord).

``entrants`` holds the vocabulary (an entrant, a pairing, a result, a round); the formats
are ``round_robin`` (single or double, circle method), ``swiss`` (a round paired by
networkx's maximum-weight matching, its weights in ``swiss_weights``) and ``elimination``
(seeded by rating); ``standings`` ranks the players by points, then the tiebreaks of
``tiebreaks``. The rules and the reasons: docs/leagues.md.

Around that pure core: the desk (``desk``, mounted as ``manager.leagues``) and what it
calls: ``spec`` and ``entry`` (opening and entering), ``pairing`` and ``play`` (a round
paired, a result recorded and the round advanced once, under the league's lock),
``opening`` (each pairing's game opened in its thread), ``deadlines``, ``moderation``,
``posts`` and ``port`` (what the league says, and the room it says it in), ``table``
(standings kept per change), ``reading`` and ``export``.
"""
