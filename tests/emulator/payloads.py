"""Serialisation of the emulator model into Discord API JSON payloads."""

from __future__ import annotations

import datetime as dt
from typing import Any

from .state import DM, GUILD_FORUM, Attachment, Channel, Guild, Member, Message, Role, User, World


def iso(ts: float | None) -> str | None:
    if ts is None:
        return None
    return dt.datetime.fromtimestamp(ts, dt.UTC).isoformat()


def user_payload(user: User) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(user.id),
        "username": user.name,
        "global_name": user.global_name,
        "discriminator": "0",
        "avatar": None,
        "public_flags": 0,
        "flags": 0,
        "banner": None,
        "accent_color": None,
        "avatar_decoration_data": None,
    }
    if user.bot:
        data["bot"] = True
    return data


def role_payload(role: Role) -> dict[str, Any]:
    return {
        "id": str(role.id),
        "name": role.name,
        "permissions": str(role.permissions),
        "position": role.position,
        "color": 0,
        "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "icon": None,
        "unicode_emoji": None,
        "flags": 0,
    }


def member_payload(
    member: Member, guild: Guild, *, with_user: bool = True, permissions: bool = False
) -> dict[str, Any]:
    data: dict[str, Any] = {
        "roles": [str(r) for r in member.roles],
        "nick": member.nick,
        "avatar": None,
        "banner": None,
        "joined_at": member.joined_at,
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "pending": False,
        "flags": 0,
        "communication_disabled_until": None,
    }
    if with_user:
        data["user"] = user_payload(member.user)
    if permissions:
        data["permissions"] = str(guild.permissions_of(member.user.id))
    return data


def channel_payload(
    channel: Channel, world: World, *, for_user: int | None = None
) -> dict[str, Any]:
    if channel.type == DM:
        recipient = world.users[channel.recipient_id] if channel.recipient_id else None
        return {
            "id": str(channel.id),
            "type": DM,
            "last_message_id": None,
            "flags": 0,
            "recipients": [user_payload(recipient)] if recipient else [],
        }
    if channel.is_thread:
        data = thread_payload(channel)
        if for_user is not None:
            guild = world.guilds[channel.guild_id]  # type: ignore[index]
            data["permissions"] = str(guild.permissions_of(for_user))
        return data
    overwrites = []
    if channel.bot_denied and world.bot_user_id is not None:
        # The overwrite ``Emulator.deny_bot`` stands for: a member overwrite on the bot.
        overwrites.append(
            {"id": str(world.bot_user_id), "type": 1, "allow": "0", "deny": str(channel.bot_denied)}
        )
    data = {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "position": channel.position,
        "permission_overwrites": overwrites,
        "parent_id": None,
        "topic": None,
        "nsfw": False,
        "rate_limit_per_user": 0,
        "last_message_id": None,
        "flags": 0,
    }
    if channel.type == GUILD_FORUM:
        data.update(available_tags=[], default_reaction_emoji=None, default_sort_order=None)
        data.update(default_forum_layout=0, default_thread_rate_limit_per_user=0)
    if for_user is not None:
        guild = world.guilds[channel.guild_id]  # type: ignore[index]
        data["permissions"] = str(guild.permissions_of(for_user))
    return data


def guild_create_payload(guild: Guild, world: World) -> dict[str, Any]:
    return {
        "id": str(guild.id),
        "name": guild.name,
        "icon": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(guild.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role_payload(r) for r in guild.roles.values()],
        "emojis": [],
        "stickers": [],
        "features": [],
        "mfa_level": 0,
        "system_channel_id": None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "preferred_locale": "en-US",
        "public_updates_channel_id": None,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "joined_at": "2024-01-01T00:00:00.000000+00:00",
        "large": False,
        "unavailable": False,
        "member_count": len(guild.members),
        "members": [member_payload(m, guild) for m in guild.members.values()],
        "channels": [channel_payload(c, world) for c in guild.channels.values() if not c.is_thread],
        "threads": [thread_payload(c) for c in guild.channels.values() if c.is_thread],
        "presences": [],
        "voice_states": [],
        "stage_instances": [],
        "guild_scheduled_events": [],
        "soundboard_sounds": [],
    }


def attachment_payload(att: Attachment, base_url: str) -> dict[str, Any]:
    url = f"{base_url}/attachments/{att.id}/{att.filename}"
    data: dict[str, Any] = {
        "id": str(att.id),
        "filename": att.filename,
        "size": att.size,
        "url": url,
        "proxy_url": url,
        "content_type": att.content_type,
    }
    if att.description is not None:
        data["description"] = att.description
    return data


def message_payload(msg: Message, world: World, base_url: str) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": str(msg.id),
        "channel_id": str(msg.channel_id),
        "type": msg.type,
        "content": msg.content,
        "author": user_payload(msg.author),
        "embeds": msg.embeds,
        "components": msg.components,
        "attachments": [attachment_payload(a, base_url) for a in msg.attachments],
        "flags": msg.flags,
        "timestamp": iso(msg.created_at),
        "edited_timestamp": iso(msg.edited_at),
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
    }
    if msg.guild_id is not None:
        data["guild_id"] = str(msg.guild_id)
        guild = world.guilds.get(msg.guild_id)
        member = guild.members.get(msg.author.id) if guild else None
        if member is not None and msg.webhook_id is None:
            data["member"] = member_payload(member, guild, with_user=False)  # type: ignore[arg-type]
    if msg.webhook_id is not None:
        data["webhook_id"] = str(msg.webhook_id)
        data["application_id"] = str(msg.webhook_id)
    if msg.nonce is not None:
        data["nonce"] = msg.nonce
    if msg.message_reference:
        data["message_reference"] = msg.message_reference
        data["type"] = msg.type or 19  # a reply, unless a system message refers
    if msg.interaction_id is not None:
        inter = world.interactions.get(msg.interaction_id)
        data["type"] = 20 if msg.interaction_type == 2 else 0
        if inter is not None:
            meta: dict[str, Any] = {
                "id": str(inter.id),
                "type": inter.type,
                "user": user_payload(inter.user),
                "authorizing_integration_owners": inter.payload.get(
                    "authorizing_integration_owners", {}
                ),
            }
            if inter.source_message_id is not None:
                meta["interacted_message_id"] = str(inter.source_message_id)
            if inter.original_message_id and inter.original_message_id != msg.id:
                meta["original_response_message_id"] = str(inter.original_message_id)
            data["interaction_metadata"] = meta
    return data


def thread_payload(channel: Channel) -> dict[str, Any]:
    """A thread (type 11) or forum post, as Discord describes it: with its parent and its
    metadata (archived, locked)."""
    return {
        "id": str(channel.id),
        "type": channel.type,
        "guild_id": str(channel.guild_id),
        "name": channel.name,
        "parent_id": str(channel.parent_id) if channel.parent_id else None,
        "owner_id": str(channel.owner_id) if channel.owner_id else None,
        "last_message_id": None,
        "rate_limit_per_user": 0,
        "message_count": 0,
        "member_count": len(channel.members) or 1,
        "flags": 0,
        "total_message_sent": 0,
        "thread_metadata": {
            "archived": channel.archived,
            "auto_archive_duration": 10080,
            "archive_timestamp": "2024-01-01T00:00:00.000000+00:00",
            "locked": channel.locked,
        },
    }
