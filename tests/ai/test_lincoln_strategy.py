"""The automated Lincoln player: always a listed action, whole games to an end, and the
few judgements its docstring claims."""

from __future__ import annotations

from rules.lincoln import GAME
from rules.lincoln.strategy import choose
from tests.lincoln_helpers import act, card, confederate_turn, empty_board, flag, hand, put


def test_the_automated_player_only_takes_listed_actions_and_finishes_games() -> None:
    for seed in range(8):
        state = GAME.setup(seed=seed)
        for _ in range(5_000):
            if GAME.outcome(state) is not None:
                break
            role = GAME.active_roles(state)[0]
            view = GAME.view(state, role)
            verb, arg = choose(GAME, view)
            legal = view["actions"][verb]
            assert legal is True or arg in legal, (seed, verb, arg)
            state = GAME.act(state, role, verb, arg, record_undo=False)
        assert GAME.outcome(state) is not None, seed


def test_ruling_23_the_automated_player_never_passes_with_a_full_hand() -> None:
    full = 0
    for seed in range(4):
        state = GAME.setup(seed=seed)
        while GAME.outcome(state) is None:
            role = GAME.active_roles(state)[0]
            view = GAME.view(state, role)
            verb, arg = choose(GAME, view)
            if view["step"] == "turn" and len(view["hand"]) >= view["hand_size"]:
                full += 1
                assert verb != "pass", (seed, view["turn"])
            state = GAME.act(state, role, verb, arg, record_undo=False)
    assert full > 100


def test_ruling_23_it_discards_rather_than_pass_with_a_full_hand_and_nothing_to_do() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "richmond", "confederate", 3)
    confederate_turn(state)
    useless = ["Bread Riots", "Inflation", "Desertion", "Shortages", "Fall of Vicksburg"]
    hand(state, "confederate", useless)
    view = GAME.view(state, "confederate")
    assert len(view["hand"]) == view["hand_size"] and "pass" in view["actions"]
    assert choose(GAME, view) == ("discard", None)
    state["piles"]["confederate"]["hand"].pop()  # one short: the pass draws a card
    assert choose(GAME, GAME.view(state, "confederate")) == ("pass", None)


def test_it_retakes_washington_at_any_cost() -> None:
    state = empty_board()
    put(state, "harpers_ferry", "union", 2)
    put(state, "washington", "confederate", 3)
    flag(state, "washington", "confederate")
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["Irish Brigade", "Franz Sigel"])
    assert choose(GAME, GAME.view(state, "union"))[0] == "move"
    act(state, "union", *choose(GAME, GAME.view(state, "union")))
    assert choose(GAME, GAME.view(state, "union")) == ("from", "harpers_ferry")


def test_it_keeps_a_garrison_in_its_capital_next_to_the_enemy() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 1)
    put(state, "manassas", "confederate", 2)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["Irish Brigade", "Franz Sigel"])
    while state["turn"]["player"] == "union" and GAME.outcome(state) is None:
        role = GAME.active_roles(state)[0]
        state = GAME.act(state, role, *choose(GAME, GAME.view(state, role)))
    garrison = sum(u["strength"] for half in state["board"]["washington"] for u in half)
    assert garrison >= 2 + 3  # the enemy next door plus a card and a margin


def test_it_withdraws_from_a_hopeless_fight_but_never_from_its_capital() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "harpers_ferry", "union", 3)
    put(state, "harpers_ferry", "union", 3)
    put(state, "front_royal", "confederate", 1)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["Irish Brigade", "Iron Brigade"])
    hand(state, "confederate", ["Bread Riots"])
    act(state, "union", "move", hand(state, "union", ["Irish Brigade", "Iron Brigade"])[0])
    act(state, "union", "from", "harpers_ferry")
    act(state, "union", "to", "front_royal")
    act(state, "union", "army", "army3")
    act(state, "union", "army", "army3")
    act(state, "union", "card", hand(state, "union", ["Iron Brigade"])[0])
    assert choose(GAME, GAME.view(state, "confederate"))[0] == "withdraw"

    state = empty_board()
    put(state, "washington", "union", 1)
    put(state, "manassas", "confederate", 3)
    put(state, "manassas", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    state["turn"].update(player="confederate", actions_left=2)
    hand(state, "union", ["Franz Sigel"])
    act(
        state,
        "confederate",
        "move",
        hand(state, "confederate", ["Richard Ewell", "Robert E. Lee"])[0],
    )
    act(state, "confederate", "from", "manassas")
    act(state, "confederate", "to", "washington")
    act(state, "confederate", "army", "army3")
    act(state, "confederate", "army", "army3")
    act(state, "confederate", "card", hand(state, "confederate", ["Robert E. Lee"])[0])
    assert choose(GAME, GAME.view(state, "union"))[0] in ("card", "fight")


def test_it_sails_only_what_a_port_can_spare() -> None:
    state = empty_board()
    put(state, "washington", "union", 3)
    put(state, "manassas", "confederate", 3)
    put(state, "richmond", "confederate", 1)
    hand(state, "union", ["USS Monitor"])
    assert choose(GAME, GAME.view(state, "union"))[0] != "naval"  # Washington would fall
    put(state, "washington", "union", 3)
    put(state, "washington", "union", 3)  # 6 stay against Manassas' 3 and its card; 3 spare
    assert choose(GAME, GAME.view(state, "union")) == ("naval", card("USS Monitor"))
    act(state, "union", "naval", card("USS Monitor"))
    assert choose(GAME, GAME.view(state, "union")) == ("army", "washington:army3")
