"""A league's standings embed and its posts stay within Discord's limits however large the
league: the embed stops with "and N more", a long round post is cut into messages that
ping each player once and nobody else."""

from __future__ import annotations

import re

from bot.discord_app import formatting, league_posts
from bot.tables.bot_users import bot_user
from bot.tables.leagues.standings import SideRecord, Standing


def _standing(rank: int, player: str, *, withdrawn: bool = False) -> Standing:
    return Standing(
        rank=rank,
        player=player,
        points=12.5,
        buchholz=117.25,
        sonneborn_berger=88.75,
        head_to_head=0.0,
        rating=25.0,
        first=SideRecord(10, 1, 2),
        second=SideRecord(9, 2, 3),
        byes=1,
        withdrawn=withdrawn,
    )


def _user(n: int) -> str:
    return str(10**17 + n)  # an 18-digit snowflake, as long as real ones


def _embed_size(embed: dict) -> int:
    fields = embed.get("fields", [])
    return (
        len(embed.get("title", ""))
        + len(embed.get("description", "") or "")
        + len(embed.get("footer", {}).get("text", ""))
        + sum(len(f["name"]) + len(f["value"]) for f in fields)
    )


def test_a_large_tables_embed_stays_within_discords_limits_and_counts_the_rest() -> None:
    standings = [_standing(i + 1, _user(i), withdrawn=i % 7 == 0) for i in range(1000)]
    sides = ("Union", "Confederacy")
    embed = league_posts.standings_embed("Big Swiss", standings, sides, picture=True).to_dict()
    fields = embed["fields"]
    assert len(fields) <= league_posts.FIELDS_MAX
    assert all(len(f["value"]) <= formatting.FIELD_MAX for f in fields)
    assert _embed_size(embed) <= league_posts.EMBED_TOTAL_MAX
    shown = sum(f["value"].count("\n") + 1 for f in fields[:-1])
    more = re.fullmatch(
        r"and (\d+) more \(the whole table is in /league export\)", fields[-1]["value"]
    )
    assert more and shown + int(more[1]) == 1000
    assert embed["image"]["url"] == "attachment://standings.png"
    # each field is named by the rank it starts at
    assert fields[0]["name"] == "Standings" and fields[1]["name"].startswith("From ")
    assert (
        f"**1.** <@{_user(0)}> (withdrawn): **12.5** · Bch 117.25 · SB 88.75" in fields[0]["value"]
    )


def test_a_small_tables_embed_shows_everyone_and_names_dispatch_by_level() -> None:
    standings = [_standing(1, _user(1)), _standing(2, bot_user("easy"))]
    embed = league_posts.standings_embed("Small", standings, ("A", "B"), picture=False).to_dict()
    text = "\n".join(f["value"] for f in embed["fields"])
    assert "**2.** Dispatch (easy): **12.5**" in text and "A 10-1-2 · B 9-2-3" in text
    assert "image" not in embed and all(f["name"] != "More" for f in embed["fields"])


def test_a_long_round_post_pings_each_player_once_and_nobody_else() -> None:
    players = [_user(i) for i in range(600)]
    lines = [
        f"Board {b + 1}: <@{players[2 * b]}> (Union) v <@{players[2 * b + 1]}> (Conf.): <#{b}>"
        for b in range(300)
    ]
    lines.append(f"Board 301: {bot_user('easy')} v <@{_user(999)}>")  # named, not to ping
    sent = league_posts.messages("Round 2 of Big Swiss", lines, players)
    assert len(sent) > 1 and sent[0].content.startswith("Round 2 of Big Swiss")
    assert all(len(m.content) <= formatting.CONTENT_MAX for m in sent)
    assert all(len(m.pings) <= league_posts.USERS_PER_MESSAGE for m in sent)
    pinged = [u for m in sent for u in m.pings]
    assert sorted(pinged) == sorted(players)  # each once
    for message in sent:  # a ping is only ever of a user that message names
        assert all(f"<@{u}>" in message.content for u in message.pings)
    assert "\n".join(m.content for m in sent) == "\n".join(["Round 2 of Big Swiss", *lines])


def test_a_player_to_ping_whom_no_line_names_is_named_at_the_end() -> None:
    sent = league_posts.messages("Final standings", ["1. someone"], [_user(1), bot_user()])
    [message] = sent
    assert message.content.endswith(f"<@{_user(1)}>") and message.pings == (_user(1),)
    mentions = message.allowed_mentions().to_dict()
    assert mentions == {"parse": [], "users": [int(_user(1))]}
