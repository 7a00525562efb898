"""Build INTERACTION_CREATE payloads the way Discord does, from the synced commands."""

from __future__ import annotations

import secrets
from typing import TYPE_CHECKING, Any

from .payloads import (
    attachment_payload,
    channel_payload,
    member_payload,
    message_payload,
    role_payload,
    user_payload,
)
from .state import DEFAULT_UPLOAD_LIMIT, Attachment, Channel, Guild, Message, Role, User

if TYPE_CHECKING:
    from .server import EmulatorServer

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER = 3, 4, 5, 6, 7, 8, 9, 10
ATTACHMENT = 11
ATTACHMENT_SIZE_LIMIT = DEFAULT_UPLOAD_LIMIT


class CommandError(LookupError):
    """The test asked for a command or option that Discord would not offer to the user."""


def base_payload(
    emu: EmulatorServer, *, kind: int, user: User, channel: Channel, data: dict[str, Any]
) -> dict[str, Any]:
    world = emu.world
    guild = world.channel_guild(channel)
    payload: dict[str, Any] = {
        "id": str(world.snowflake()),
        "application_id": str(emu.application_id),
        "type": kind,
        "data": data,
        "token": "emu-" + secrets.token_urlsafe(24),
        "version": 1,
        "channel_id": str(channel.id),
        "locale": "en-US",
        "entitlements": [],
        "attachment_size_limit": guild.upload_limit if guild else ATTACHMENT_SIZE_LIMIT,
    }
    if guild is not None:
        member = guild.members.get(user.id)
        if member is None:
            raise CommandError(f"user {user.name} is not a member of guild {guild.name}")
        payload["guild_id"] = str(guild.id)
        payload["guild"] = {"id": str(guild.id), "locale": "en-US", "features": []}
        payload["guild_locale"] = "en-US"
        payload["channel"] = channel_payload(channel, world, for_user=user.id)
        payload["member"] = member_payload(member, guild, permissions=True)
        app = guild.permissions_of(emu.bot_user.id) & ~world.bot_denied_in(channel)
        payload["app_permissions"] = str(app)
        payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        payload["context"] = 0
    else:
        payload["channel"] = channel_payload(channel, world)
        payload["user"] = user_payload(user)
        payload["app_permissions"] = "0"
        payload["authorizing_integration_owners"] = {"0": "0"}
        payload["context"] = 1
    return payload


def find_command(emu: EmulatorServer, guild: Guild | None, name: str) -> dict[str, Any]:
    world = emu.world
    candidates = list(world.guild_commands.get(guild.id, [])) if guild else []
    candidates += world.global_commands
    for cmd in candidates:
        if cmd["name"] == name and cmd.get("type", 1) == 1:
            contexts = cmd.get("contexts")
            if guild is None and (
                cmd.get("dm_permission") is False or (contexts and 1 not in contexts)
            ):
                raise CommandError(f"/{name} is not available in DMs")
            if guild is not None and contexts and 0 not in contexts:
                raise CommandError(f"/{name} is not available in guilds")
            return cmd
    synced = sorted(c["name"] for c in candidates)
    raise CommandError(f"no synced slash command /{name}; the bot synced {synced}")


def command_data(
    emu: EmulatorServer,
    *,
    user: User,
    channel: Channel,
    path: str,
    options: dict[str, Any],
    focused: str | None = None,
) -> dict[str, Any]:
    """The ``data`` object of an application-command (or autocomplete) interaction."""
    guild = emu.world.channel_guild(channel)
    words = path.split()
    cmd = find_command(emu, guild, words[0])
    required = cmd.get("default_member_permissions")
    if (
        guild is not None
        and required is not None
        and guild.permissions_of(user.id) & int(required) != int(required)
    ):
        raise CommandError(f"{user.name} lacks permissions {required} for /{words[0]}")
    resolved: dict[str, dict[str, Any]] = {}
    defs = cmd.get("options") or []
    top: list[dict[str, Any]] = []
    target = top
    for word in words[1:]:
        match = next(
            (
                o
                for o in defs
                if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
            ),
            None,
        )
        if match is None:
            subs = [o["name"] for o in defs if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
            raise CommandError(f"/{path}: no subcommand {word!r}; choices are {subs}")
        node: dict[str, Any] = {"name": word, "type": match["type"], "options": []}
        target.append(node)
        target, defs = node["options"], match.get("options") or []
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in defs):
        raise CommandError(f"/{path} needs a subcommand: {[o['name'] for o in defs]}")
    known = {o["name"]: o for o in defs}
    unknown = set(options) - set(known)
    if unknown:
        raise CommandError(f"/{path}: unknown options {sorted(unknown)}; has {sorted(known)}")
    for opt in defs:
        name = opt["name"]
        if name not in options:
            if opt.get("required") and focused is None:
                raise CommandError(f"/{path}: missing required option {name!r}")
            continue
        entry: dict[str, Any] = {"name": name, "type": opt["type"]}
        if name == focused:
            entry["value"] = str(options[name])
            entry["focused"] = True
        else:
            entry["value"] = _option_value(emu, guild, opt, options[name], resolved)
        target.append(entry)
    data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": top}
    if "guild_id" in cmd:
        data["guild_id"] = cmd["guild_id"]
    if resolved:
        data["resolved"] = resolved
    return data


def _option_value(
    emu: EmulatorServer,
    guild: Guild | None,
    opt: dict[str, Any],
    value: Any,
    resolved: dict[str, Any],
) -> Any:
    kind = opt["type"]
    if kind == STRING:
        value = str(value)
    elif kind == INTEGER:
        value = int(value)
    elif kind == NUMBER:
        value = float(value)
    elif kind == BOOLEAN:
        value = bool(value)
    elif kind in (USER, MENTIONABLE) and isinstance(value, User):
        resolve_user(guild, value, resolved)
        return str(value.id)
    elif kind in (ROLE, MENTIONABLE) and isinstance(value, Role):
        resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        return str(value.id)
    elif kind == CHANNEL and isinstance(value, Channel):
        data = channel_payload(value, emu.world)
        if guild is not None:
            data["permissions"] = str(guild.permissions_of(emu.bot_user.id))
        resolved.setdefault("channels", {})[str(value.id)] = data
        return str(value.id)
    elif kind == ATTACHMENT and isinstance(value, Attachment):
        if value.size > ATTACHMENT_SIZE_LIMIT:
            raise CommandError(f"option {opt['name']!r}: the file is over the upload limit")
        emu.world.command_attachments[value.id] = value
        data = attachment_payload(value, emu.base_url)
        resolved.setdefault("attachments", {})[str(value.id)] = data
        return str(value.id)
    else:
        raise CommandError(f"option {opt['name']!r} (type {kind}) cannot take {value!r}")
    choices = opt.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise CommandError(f"option {opt['name']!r}: {value!r} not in choices {choices}")
    return value


def resolve_user(guild: Guild | None, user: User, resolved: dict[str, Any]) -> None:
    resolved.setdefault("users", {})[str(user.id)] = user_payload(user)
    member = guild.members.get(user.id) if guild else None
    if member is not None and guild is not None:
        data = member_payload(member, guild, with_user=False, permissions=True)
        resolved.setdefault("members", {})[str(user.id)] = data


def component_data(
    emu: EmulatorServer, msg: Message, custom_id: str, values: list[Any] | None
) -> dict[str, Any]:
    """The ``data`` object of a component interaction, checked against the message."""
    comp = msg.component(custom_id)
    if comp.get("disabled"):
        raise CommandError(f"component {custom_id!r} on message {msg.id} is disabled")
    kind = comp["type"]
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
    if kind == 2:
        if values is not None:
            raise CommandError(f"{custom_id!r} is a button; it takes no values")
        return data
    values = list(values or [])
    lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
    if not lo <= len(values) <= hi:
        raise CommandError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
    guild = emu.world.guilds.get(msg.guild_id) if msg.guild_id else None
    if kind == 3:
        allowed = [o["value"] for o in comp.get("options", [])]
        bad = [v for v in values if v not in allowed]
        if bad:
            raise CommandError(f"select {custom_id!r}: {bad} not among options {allowed}")
        data["values"] = values
        return data
    resolved: dict[str, Any] = {}
    ids = []
    for value in values:
        if isinstance(value, User):
            resolve_user(guild, value, resolved)
        elif isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = role_payload(value)
        elif isinstance(value, Channel):
            resolved.setdefault("channels", {})[str(value.id)] = channel_payload(value, emu.world)
        ids.append(str(getattr(value, "id", value)))
    data["values"] = ids
    data["resolved"] = resolved
    return data


def message_for_interaction(emu: EmulatorServer, msg: Message) -> dict[str, Any]:
    return message_payload(msg, emu.world, emu.base_url)


def modal_submit_data(modal: dict[str, Any], values: dict[str, str]) -> dict[str, Any]:
    """The ``data`` of a MODAL_SUBMIT for a modal the bot opened, checked as Discord would:
    only its own text inputs, required ones filled, lengths within their bounds."""
    rows: list[dict[str, Any]] = []
    known: set[str] = set()
    for row in modal.get("components") or []:
        inputs = row.get("components") or ([row.get("component")] if row.get("component") else [])
        out = []
        for comp in inputs:
            if comp.get("type") != 4:
                continue
            cid = comp["custom_id"]
            known.add(cid)
            value = str(values.get(cid, comp.get("value") or ""))
            if comp.get("required", True) and not value:
                raise CommandError(f"modal input {cid!r} is required")
            if value and len(value) < int(comp.get("min_length") or 0):
                raise CommandError(f"modal input {cid!r} is shorter than min_length")
            if len(value) > int(comp.get("max_length") or 4000):
                raise CommandError(f"modal input {cid!r} is longer than max_length")
            out.append({"type": 4, "custom_id": cid, "value": value})
        if out:
            rows.append({"type": 1, "components": out})
    unknown = set(values) - known
    if unknown:
        raise CommandError(f"the modal has no inputs {sorted(unknown)}")
    return {"custom_id": modal["custom_id"], "components": rows}
