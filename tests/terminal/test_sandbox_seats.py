"""Seats that change hands in the sandbox: ``offer <player>``,
``accept``/``decline``, ``reseat <side> <player>``, ``handover [level]``, and bad input
of each refused with a sentence."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.terminal.test_sandbox import run_script

pytestmark = pytest.mark.usefixtures("toy_game")


async def test_an_offer_accepted_then_a_reseat_and_a_hand_over(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "new toy 3\noffer carol\nas carol\naccept\nas alice\nhand\n"
        "reseat south dave\nas dave\nhandover easy\nstatus\n",
    )
    assert "alice offers the North seat to carol" in text, text
    assert "carol now plays the North, in place of alice." in text
    assert "! The North seat is no longer yours: carol plays it now." in text
    assert "dave now plays the South, in place of bob." in text
    assert "Dispatch (easy) now plays the South, in place of dave." in text
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_bad_seat_commands_are_refused(tmp_path: Path) -> None:
    text = await run_script(
        tmp_path,
        "offer carol\nnew toy 3\noffer\noffer a b\noffer alice\noffer bob\n"
        "as carol\naccept\noffer dave\nhandover\nas alice\noffer carol\n"
        "as carol\naccept now\ndecline\naccept\nreseat\nreseat west dave\n"
        "reseat north alice\nas alice\nhandover grandmaster\nhandover a b\n",
    )
    for refusal in (
        "! No game yet",
        "! Offer your seat to whom? `offer <player>` (one name).",
        "! That seat is already yours",
        "! bob already plays the South seat of this game: one player, one seat.",
        "! No seat of game #1 is offered to carol.",
        "! You are not playing in this game.",
        "! `accept` takes nothing",
        "carol declined the North seat.",
        "! Give which seat to whom? `reseat <side> <player>`.",
        "is not a side in this game",
        "! alice already plays the North seat. Nothing changed.",
        "! Dispatch plays at levels",
        "! `handover` takes at most a level",
    ):
        assert refusal in text, (refusal, text)
    assert text.count("! No seat of game #1 is offered to carol.") == 2  # before and after
    assert "now plays" not in text
    assert "Traceback" not in text and "Something went wrong" not in text


async def test_whoever_is_at_the_keyboard_takes_the_first_side(tmp_path: Path) -> None:
    """`new` typed as bob seats bob first: a lobby's open seat then stays for alice,
    and a hot-seat game's second side is alice's."""
    text = await run_script(
        tmp_path,
        "as bob\nnew war open\ndispatch easy\nstatus\nnew fort_sumter\nstatus\n",
    )
    assert "New game of War Between the States: bob plays Union" in text
    assert "Only a player seated in this game" not in text
    assert "Dispatch (easy)" in text.split("status", 1)[1]
    assert "bob plays Unionist, alice plays Secessionist." in text
    last = text.rsplit("· version", 1)[1]
    assert "bob (you)" in last or "bob (to act, you)" in last
    assert "alice" in last
    assert "Traceback" not in text and "Something went wrong" not in text
