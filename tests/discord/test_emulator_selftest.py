"""Self-test of the loopback Discord emulator against the real discord.py client.

The bot here is a throwaway defined in this file; it exercises slash commands
(with subcommands, subcommand groups, member options, autocomplete), deferral with a
file followup, a persistent DynamicItem button, a select menu and DMs.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

import aiohttp
import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.emulator import CommandError, Emulator
from tests.emulator.state import PATIENCE_S

CARDS = ["summit", "sumo", "surge", "blockade", "ceasefire"]


class JoinButton(discord.ui.DynamicItem[discord.ui.Button], template=r"join:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", custom_id=f"join:{game}", style=discord.ButtonStyle.primary
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} joined game {self.game}", view=None
        )
        await interaction.channel.send(f"Game {self.game} starts!")  # type: ignore[union-attr]


class FactionSelect(discord.ui.View):
    @discord.ui.select(
        custom_id="faction",
        options=[discord.SelectOption(label=f, value=f) for f in ("usa", "ussr", "china")],
        max_values=2,
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_message(
            f"you chose {', '.join(select.values)}", ephemeral=True
        )


def make_bot() -> commands.Bot:
    intents = discord.Intents.default()
    bot = commands.Bot(command_prefix="!", intents=intents)
    game = app_commands.Group(name="game", description="Games")
    admin = app_commands.Group(name="admin", description="Admin")
    config = app_commands.Group(name="config", description="Config", parent=admin)

    @game.command(name="new", description="Start a game")
    @app_commands.choices(game=[app_commands.Choice(name=n, value=n) for n in ("war", "twilight")])
    async def game_new(
        interaction: discord.Interaction, game: str, opponent: discord.Member, turns: int = 10
    ) -> None:
        assert isinstance(interaction.user, discord.Member)
        await interaction.response.send_message(
            f"{game}: {interaction.user.display_name} vs {opponent.display_name} ({turns} turns)",
            view=discord.ui.View(timeout=None).add_item(JoinButton(7)),
        )

    @game.command(name="secret", description="Ephemeral reply")
    async def game_secret(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("your hand: ace", ephemeral=True)

    @config.command(name="set", description="Set a key")
    async def config_set(interaction: discord.Interaction, key: str, value: str) -> None:
        await interaction.response.send_message(f"{key}={value}")

    @bot.tree.command(name="render", description="Deferred reply with a PNG")
    async def render(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        buf = io.BytesIO()
        Image.new("RGB", (8, 4), (200, 10, 10)).save(buf, format="PNG")
        buf.seek(0)
        await interaction.followup.send("the board", file=discord.File(buf, "board.png"))

    @bot.tree.command(name="count", description="Deferred ephemeral, edited original")
    async def count(interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.edit_original_response(content="counted 3")

    @bot.tree.command(name="factions", description="Select menu")
    async def factions(interaction: discord.Interaction) -> None:
        await interaction.response.send_message("pick", view=FactionSelect(timeout=30))

    @bot.tree.command(name="card", description="Autocomplete")
    async def card(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"card {name}")

    @card.autocomplete("name")
    async def card_complete(
        interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in CARDS if c.startswith(current)]

    @bot.tree.command(name="notify", description="DM a user")
    async def notify(interaction: discord.Interaction, user: discord.User) -> None:
        try:
            await user.send("You have been challenged")
        except discord.Forbidden as exc:
            await interaction.response.send_message(f"cannot DM: {exc.code}", ephemeral=True)
        else:
            await interaction.response.send_message("sent", ephemeral=True)

    @bot.tree.command(name="post", description="Post to the channel")
    async def post(interaction: discord.Interaction, text: str) -> None:
        try:
            await interaction.channel.send(text)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            await interaction.response.send_message(f"failed {exc.status}", ephemeral=True)
        else:
            await interaction.response.send_message("posted", ephemeral=True)

    bot.tree.add_command(game)
    bot.tree.add_command(admin)

    async def setup_hook() -> None:
        bot.add_dynamic_items(JoinButton)
        await bot.tree.sync()

    bot.setup_hook = setup_hook  # type: ignore[method-assign]
    return bot


@pytest.fixture(autouse=True)
def no_discord_errors(caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.INFO, logger="discord")
    yield
    errors = [r for r in caplog.records if r.name.startswith("discord") and r.levelno >= 40]
    assert not errors, [r.getMessage() for r in errors]


@pytest.fixture
async def emu():
    async with Emulator() as emu:
        yield emu


@pytest.fixture
def world(emu: Emulator) -> dict[str, Any]:
    guild = emu.add_guild("Wargames")
    channel = emu.add_text_channel(guild, "table")
    alice = emu.add_member(guild, "alice")
    bob = emu.add_member(guild, "bob")
    return {"guild": guild, "channel": channel, "alice": alice, "bob": bob}


async def test_login_sync_subcommand_member_option_and_button(emu, world) -> None:
    ch, alice, bob = world["channel"], world["alice"], world["bob"]
    async with emu.running(make_bot()) as bot:
        assert bot.get_channel(ch.id).guild.id == world["guild"].id
        names = {c["name"] for c in emu.all_commands()}
        assert {"game", "admin", "render", "card"} <= names

        result = await emu.slash(alice, ch, "game new", game="war", opponent=bob)
        [reply] = await result.response()
        assert reply.content == "war: alice vs bob (10 turns)"
        assert not reply.ephemeral and reply.custom_ids() == ["join:7"]
        assert result.record.ack_latency is not None and result.record.ack_latency < 3

        click = await emu.click(bob, reply, label="Join")
        await click.response()
        assert click.callback_type == 7
        assert reply.content == "bob joined game 7" and reply.components == []
        assert len(reply.versions) == 2
        [post] = await emu.wait_for_messages(ch, 1, after=reply)
        assert post.content == "Game 7 starts!"

        with pytest.raises(CommandError):
            await emu.slash(alice, ch, "game new", game="chess", opponent=bob)
        nested = await emu.slash(alice, ch, "admin config set", key="speed", value="fast")
        assert (await nested.response())[0].content == "speed=fast"
    assert emu.unknown_routes == []


async def test_persistent_button_survives_restart(emu, world) -> None:
    ch, alice, bob = world["channel"], world["alice"], world["bob"]
    async with emu.running(make_bot()):
        reply = (
            await (await emu.slash(alice, ch, "game new", game="war", opponent=bob)).response()
        )[0]
    assert not emu.gateway.connected
    async with emu.running(make_bot()):
        assert emu.gateway.identify_count == 2
        click = await emu.click(bob, reply, "join:7")
        await click.response()
        assert reply.content == "bob joined game 7"


async def test_ephemeral_and_deferred_edit(emu, world) -> None:
    ch, alice = world["channel"], world["alice"]
    async with emu.running(make_bot()):
        [secret] = await (await emu.slash(alice, ch, "game secret")).response()
        assert secret.ephemeral
        [counted] = await (await emu.slash(alice, ch, "count")).response()
        assert counted.content == "counted 3" and counted.ephemeral and not counted.loading
    assert [m.content for m in emu.ephemeral_replies(alice.id)] == ["your hand: ace", "counted 3"]
    assert emu.channel_messages(ch.id) == []
    assert "ace" not in emu.all_text_sent_to_channel(ch.id)


async def test_defer_then_followup_with_png(emu, world) -> None:
    ch, alice = world["channel"], world["alice"]
    async with emu.running(make_bot()) as bot:
        result = await emu.slash(alice, ch, "render")
        [msg] = await result.response()
        assert result.callback_type == 5
        assert msg.content == "the board" and not msg.loading
        [att] = msg.attachments
        assert att.filename == "board.png"
        assert Image.open(io.BytesIO(att.data)).size == (8, 4)
        url = f"{emu.base_url}/attachments/{att.id}/{att.filename}"
        assert await bot.http.get_from_cdn(url) == att.data  # what Attachment.read() does
        assert "board.png" in emu.all_text_sent_to_channel(ch.id)


async def test_select_and_autocomplete(emu, world) -> None:
    ch, alice, bob = world["channel"], world["alice"], world["bob"]
    async with emu.running(make_bot()):
        [menu] = await (await emu.slash(alice, ch, "factions")).response()
        choice = await emu.select(bob, menu, "faction", ["usa", "china"])
        [answer] = await choice.response()
        assert answer.content == "you chose usa, china" and answer.ephemeral
        assert emu.ephemeral_replies(bob.id) == [answer]
        with pytest.raises(CommandError):
            await emu.select(bob, menu, "faction", ["mars"])

        choices = await emu.autocomplete(alice, ch, "card", name="su")
        assert [c["value"] for c in choices] == ["summit", "sumo", "surge"]


async def test_dm_and_dm_failure(emu, world) -> None:
    ch, alice, bob = world["channel"], world["alice"], world["bob"]
    async with emu.running(make_bot()):
        [ok] = await (await emu.slash(alice, ch, "notify", user=bob)).response()
        assert ok.content == "sent"
        assert [m.content for m in emu.dms(bob.id)] == ["You have been challenged"]
        emu.fail_dm(alice.id)
        [failed] = await (await emu.slash(bob, ch, "notify", user=alice)).response()
        assert failed.content == "cannot DM: 50007"
        assert emu.dms(alice.id) == []
        dm_reply = await emu.slash(bob, None, "card", name="sumo")
        [in_dm] = await dm_reply.response()
        assert in_dm.content == "card sumo" and in_dm in emu.dms(bob.id)


async def test_rate_limit_retry_and_server_error(emu, world) -> None:
    ch, alice = world["channel"], world["alice"]
    async with emu.running(make_bot()):
        emu.rate_limit_next("POST /channels/*/messages", retry_after=0.05)
        [ack] = await (await emu.slash(alice, ch, "post", text="hello")).response()
        assert ack.content == "posted"
        posts = [r.status for r in emu.requests if r.method == "POST" and "/messages" in r.path]
        assert posts == [429, 200]
        assert [m.content for m in emu.channel_messages(ch.id)] == ["hello"]

        emu.fail_next("POST /channels/*/messages", status=503)
        [ack] = await (await emu.slash(alice, ch, "post", text="again")).response()
        assert ack.content == "failed 503"


async def test_resume_after_dropped_socket(emu, world) -> None:
    ch, alice = world["channel"], world["alice"]
    async with emu.running(make_bot()):
        await emu.disconnect_bot()
        await emu.world.wait_until(lambda: emu.gateway.resume_count == 1, PATIENCE_S, "resume")
        result = await emu.slash(alice, ch, "game secret")
        assert (await result.response())[0].content == "your hand: ace"
        assert emu.gateway.identify_count == 1


async def test_unknown_route_is_recorded_and_interaction_twice_rejected(emu, world) -> None:
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {emu.token}"}
        async with session.get(f"{emu.api_base}/voice/regions", headers=headers) as resp:
            assert resp.status == 404
        async with session.get(f"{emu.api_base}/users/@me") as resp:
            assert resp.status == 401
    assert emu.unknown_routes == [("GET", "/voice/regions")]


async def test_measure_click_latency_with_a_bare_client() -> None:
    from tests.emulator.latency import measure_click_latency

    class Ack(discord.Client):
        async def on_interaction(self, interaction: discord.Interaction) -> None:
            await interaction.response.defer()

    stats = await measure_click_latency(lambda: Ack(intents=discord.Intents.none()), 20, warmup=2)
    assert stats["clicks"] == 20 and stats["failures"] == 0
    assert 0 < stats["median_ms"] <= stats["p99_ms"] < 3000


def test_pinged_users_follow_discords_allowed_mentions_rules() -> None:
    from tests.emulator.messages import pinged_users

    content = "<@111111111111111111> and <@!222222222222222222> to act"
    both = [111111111111111111, 222222222222222222]
    assert pinged_users(content, None) == both
    assert pinged_users(content, {"parse": ["users"]}) == both
    assert pinged_users(content, {"parse": []}) == []
    assert pinged_users(content, {"users": ["222222222222222222"]}) == [222222222222222222]
    assert pinged_users("no mention", {"users": ["111111111111111111"]}) == []


async def test_a_body_breaking_discords_openapi_description_is_refused(emu, world) -> None:
    """The emulator agrees with Discord's published API description: a button label of 81
    characters (Discord allows 80) is refused as Discord refuses it, and recorded."""
    channel = world["channel"]
    url = f"{emu.api_base}/channels/{channel.id}/messages"
    good_button = {"type": 2, "style": 1, "label": "x" * 80, "custom_id": "ok"}
    bad_button = dict(good_button, label="x" * 81)
    async with aiohttp.ClientSession() as session:
        headers = {"Authorization": f"Bot {emu.token}"}
        for button, status in ((good_button, 200), (bad_button, 400)):
            body = {"content": "hi", "components": [{"type": 1, "components": [button]}]}
            async with session.post(url, json=body, headers=headers) as resp:
                assert resp.status == status
                if status == 400:
                    assert (await resp.json())["code"] == 50035
    assert [route for route, _ in emu.world.invalid_bodies] == ["create_message"]
    assert "longer than 80" in emu.world.invalid_bodies[0][1][0]
    assert len(emu.channel_messages(channel.id)) == 1


async def test_threads_and_forum_posts_conform_and_reach_the_client(emu, world) -> None:
    """Threads: a public thread without a message, one started from a
    message, and a forum's post (a thread with its first message) are created as Discord
    creates them, checked against its OpenAPI description like every other request, and
    reach discord.py's cache with their type (11, forums 15) and parent."""
    ch = world["channel"]
    forum = emu.add_forum_channel(world["guild"], "games-forum")
    async with emu.running(make_bot()) as bot:
        text = bot.get_channel(ch.id)
        assert isinstance(bot.get_channel(forum.id), discord.ForumChannel)
        thread = await text.create_thread(
            name="War · alice vs bob", type=discord.ChannelType.public_thread
        )
        assert thread.type == discord.ChannelType.public_thread and thread.parent_id == ch.id
        stored = emu.world.channels[thread.id]
        assert (stored.type, stored.parent_id) == (11, ch.id)
        await emu.world.wait_until(lambda: bot.get_channel(thread.id), PATIENCE_S, "THREAD_CREATE")
        renamed = await thread.edit(name="War · alice vs bob · #7")
        assert renamed.name == stored.name == "War · alice vs bob · #7"
        await thread.send("in the thread")
        assert [m.content for m in emu.channel_messages(thread.id)] == ["in the thread"]

        message = await text.send("lobby")
        from_message = await message.create_thread(name="from a message")
        assert from_message.id == message.id and from_message.parent_id == ch.id

        post = await bot.get_channel(forum.id).create_thread(name="A post", content="first")
        assert post.thread.parent_id == forum.id and post.message.content == "first"
        assert [m.content for m in emu.channel_messages(post.thread.id)] == ["first"]

        with pytest.raises(discord.HTTPException) as refused:
            await text.create_thread(name="x" * 101, type=discord.ChannelType.public_thread)
        assert refused.value.code == 50035
        assert [route for route, _ in emu.world.invalid_bodies] == ["create_thread"]

        emu.lock_thread(stored)
        with pytest.raises(discord.HTTPException) as archived:
            await thread.send("locked")
        assert archived.value.code == 50083
    assert emu.unknown_routes == []


async def test_thread_permissions_come_from_the_parent(emu, world) -> None:
    """An overwrite on a text channel reaches its threads: Create Public Threads taken
    refuses a new thread, Send Messages in Threads taken refuses a post in one, and the
    interactions from a thread carry ``app_permissions`` without it; Send Messages alone
    does not stop a thread."""
    from tests.emulator.state import (
        CREATE_PUBLIC_THREADS,
        SEND_MESSAGES,
        SEND_MESSAGES_IN_THREADS,
    )

    ch, alice = world["channel"], world["alice"]
    existing = emu.add_thread(ch, "old thread")
    async with emu.running(make_bot()) as bot:
        text = bot.get_channel(ch.id)
        emu.deny_bot(ch, CREATE_PUBLIC_THREADS)
        with pytest.raises(discord.Forbidden):
            await text.create_thread(name="no", type=discord.ChannelType.public_thread)
        emu.deny_bot(ch, SEND_MESSAGES)
        await bot.get_channel(existing.id).send("threads are not the channel")
        emu.deny_bot(ch, SEND_MESSAGES_IN_THREADS)
        with pytest.raises(discord.Forbidden):
            await bot.get_channel(existing.id).send("refused")
        result = await emu.slash(alice, existing, "game secret")
        perms = int(result.record.payload["app_permissions"])
        assert not perms & SEND_MESSAGES_IN_THREADS and perms & SEND_MESSAGES
        assert result.record.payload["channel"]["type"] == 11
        assert result.record.payload["channel"]["parent_id"] == str(ch.id)


# ---------------------------------------------------------------- shards


class ShardBot(discord.AutoShardedClient):
    """Answers /where with the shards it runs; identifies at once (no 5 s wait per shard)."""

    def __init__(self, shard_ids: list[int], shard_count: int) -> None:
        super().__init__(
            intents=discord.Intents.default(), shard_ids=shard_ids, shard_count=shard_count
        )
        self.tree = app_commands.CommandTree(self)
        label = ",".join(map(str, shard_ids))

        @self.tree.command(name="where", description="Which shards answered")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"shards {label}")

    async def setup_hook(self) -> None:
        await self.tree.sync()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        return None


def shard_events(emu: Emulator, shard: int, event: str) -> list[dict[str, Any]]:
    """The ``event`` dispatches the emulator sent to the session holding ``shard``."""
    import json

    frames = [json.loads(f) for _, f in emu.gateway.shards[shard].buffer]
    return [f["d"] for f in frames if f["t"] == event]


def test_shard_routing_is_discords_formula() -> None:
    from tests.emulator.gateway import event_guild, shard_of

    assert shard_of(None, 4) == 0  # DMs: shard 0
    assert shard_of(5 << 22, 4) == 1
    assert shard_of((6 << 22) | 0x3FFFFF, 4) == 2  # the low 22 bits do not count
    assert event_guild("GUILD_CREATE", {"id": "123"}) == 123
    assert event_guild("INTERACTION_CREATE", {"guild_id": "77", "id": "9"}) == 77
    assert event_guild("INTERACTION_CREATE", {"id": "9"}) is None
    assert event_guild("GUILD_MEMBERS_CHUNK", {"guild_id": "5"}) == 5


async def test_two_shard_clients_each_get_their_guilds_and_dms_go_to_shard_0() -> None:
    async with Emulator() as emu:
        home = emu.add_guild("Home", shard=(0, 2))
        away = emu.add_guild("Away", shard=(1, 2))
        home_ch = emu.add_text_channel(home, "games")
        away_ch = emu.add_text_channel(away, "games")
        alice = emu.add_member(home, "alice")
        bob = emu.add_member(away, "bob")
        zero, one = ShardBot([0], 2), ShardBot([1], 2)
        async with emu.running(zero), emu.running(one):
            assert emu.gateway.connected
            assert sorted(emu.gateway.identified) == [(0, 2), (1, 2)]
            # READY and GUILD_CREATE per shard: each client knows only its own guilds.
            assert [g.id for g in zero.guilds] == [home.id]
            assert [g.id for g in one.guilds] == [away.id]
            [ready0] = shard_events(emu, 0, "READY")
            assert ready0["shard"] == [0, 2]
            assert [g["id"] for g in ready0["guilds"]] == [str(home.id)]

            answer = await (await emu.slash(alice, home_ch, "where")).response()
            assert answer[0].content == "shards 0"
            answer = await (await emu.slash(bob, away_ch, "where")).response()
            assert answer[0].content == "shards 1"
            dm = await (await emu.slash(bob, None, "where")).response()
            assert dm[0].content == "shards 0"  # bob's guild is on shard 1; his DM is not

            got0 = {d.get("guild_id") for d in shard_events(emu, 0, "INTERACTION_CREATE")}
            got1 = {d.get("guild_id") for d in shard_events(emu, 1, "INTERACTION_CREATE")}
            assert got0 == {str(home.id), None} and got1 == {str(away.id)}


async def test_one_client_can_hold_several_shards_and_a_missing_shard_is_reported() -> None:
    async with Emulator() as emu:
        guilds = [emu.add_guild(f"G{i}", shard=(i, 3)) for i in range(3)]
        channels = [emu.add_text_channel(g, "games") for g in guilds]
        alice = emu.add_user("alice")
        for g in guilds:
            emu.add_member(g, alice)
        async with emu.running(ShardBot([0, 2], 3)) as bot:
            assert {g.id for g in bot.guilds} == {guilds[0].id, guilds[2].id}
            assert not emu.gateway.connected  # shard 1 is held by nobody
            answer = await (await emu.slash(alice, channels[2], "where")).response()
            assert answer[0].content == "shards 0,2"
            with pytest.raises(RuntimeError, match="shard 1"):
                await emu.slash(alice, channels[1], "where")
