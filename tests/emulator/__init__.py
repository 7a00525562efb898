"""A loopback Discord emulator for end-to-end tests with the real discord.py client.

Typical use::

    async with Emulator() as emu:
        guild = emu.add_guild()
        channel = emu.add_text_channel(guild, "games")
        alice = emu.add_member(guild, "alice")
        async with emu.running(make_bot()):
            result = await emu.slash(alice, channel, "ping")
            [reply] = await result.response()

It is as strict as Discord where a bot can go wrong: an interaction's first response
after 3 s answers 10062 and a followup after 15 minutes 50027, both measured on a clock
that leaves out the time other processes took from the test's (``deadlines.py`` says why),
so the deadline is enforced in every test and a loaded machine still cannot trip it. The
tests' own waits only guard against hangs (``state.PATIENCE_S``).

See README.md in this directory for the full API.
"""

from .actors import Emulator
from .builders import CommandError
from .results import InteractionResult
from .state import Attachment, Channel, Guild, Interaction, Member, Message, Role, User

__all__ = [
    "Attachment",
    "Channel",
    "CommandError",
    "Emulator",
    "Guild",
    "Interaction",
    "InteractionResult",
    "Member",
    "Message",
    "Role",
    "User",
]
