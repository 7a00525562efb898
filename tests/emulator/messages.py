"""Message bodies: parsing JSON / multipart requests, validation, create and edit."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from aiohttp import BodyPartReader, web

from .state import (
    DEFAULT_UPLOAD_LIMIT,
    EPHEMERAL,
    LOADING,
    Attachment,
    Channel,
    Message,
    User,
    World,
    iter_components,
)

Uploads = dict[int, tuple[str, bytes, str | None]]  # files[i] -> (filename, bytes, content type)

# Flags a bot may set on a message it sends (ephemeral, suppress embeds, silent, components v2).
SENDABLE_FLAGS = EPHEMERAL | (1 << 2) | (1 << 12) | (1 << 15)


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None
) -> web.Response:
    """JSON with exactly ``Content-Type: application/json`` (discord.py compares it verbatim)."""
    all_headers = {"Content-Type": "application/json", **(headers or {})}
    return web.Response(body=json.dumps(data).encode(), status=status, headers=all_headers)


def json_error(status: int, code: int, message: str, errors: Any = None) -> web.Response:
    body: dict[str, Any] = {"message": message, "code": code}
    if errors is not None:
        body["errors"] = errors
    return json_response(body, status=status)


class ApiError(Exception):
    def __init__(self, status: int, code: int, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> web.Response:
        return json_error(self.status, self.code, self.message)


async def read_body(request: web.Request) -> tuple[dict[str, Any], Uploads]:
    """Return (json payload, uploaded files by index) for JSON or multipart bodies."""
    uploads: Uploads = {}
    if request.content_type.startswith("multipart/"):
        payload: dict[str, Any] = {}
        reader = await request.multipart()
        async for part in reader:
            # Discord's uploads are flat: a nested multipart part fails here, as it did.
            assert isinstance(part, BodyPartReader)
            name = part.name or ""
            raw = await part.read()
            if name == "payload_json":
                payload = json.loads(raw)
            elif name.startswith("files[") and name.endswith("]"):
                ctype = part.headers.get("Content-Type")
                uploads[int(name[6:-1])] = (part.filename or name, bytes(raw), ctype)
        return payload, uploads
    if not request.can_read_body:
        return {}, uploads
    text = await request.text()
    return (json.loads(text) if text else {}), uploads


def validate(body: dict[str, Any], *, creating: bool, n_uploads: int) -> None:
    """Raise ApiError(400) for payloads Discord itself would reject."""
    content = body.get("content") or ""
    if len(content) > 2000:
        raise ApiError(400, 50035, "Invalid Form Body (content: Must be 2000 or fewer in length.)")
    if len(body.get("embeds") or []) > 10:
        raise ApiError(400, 50035, "Invalid Form Body (embeds: Must be 10 or fewer in length.)")
    components = body.get("components") or []
    v2 = bool((body.get("flags") or 0) & (1 << 15))
    if not v2 and len(components) > 5:
        raise ApiError(400, 50035, "Invalid Form Body (components: Must be 5 or fewer in length.)")
    seen: set[str] = set()
    for comp in iter_components(components):
        if comp.get("type") == 1 and len(comp.get("components", [])) > 5:
            raise ApiError(400, 50035, "Invalid Form Body (action row: 5 or fewer components)")
        cid = comp.get("custom_id")
        if cid is not None:
            if len(cid) > 100:
                raise ApiError(400, 50035, f"Invalid Form Body (custom_id too long: {cid!r})")
            if cid in seen:
                raise ApiError(400, 50035, f"Invalid Form Body (duplicate custom_id {cid!r})")
            seen.add(cid)
        if len(comp.get("label") or "") > 80:
            raise ApiError(400, 50035, "Invalid Form Body (label: Must be 80 or fewer in length.)")
        if comp.get("type") == 3 and not 1 <= len(comp.get("options", [])) <= 25:
            raise ApiError(400, 50035, "Invalid Form Body (select options: between 1 and 25)")
        for option in comp.get("options", []) if comp.get("type") == 3 else []:
            if len(option.get("label", "")) > 100 or len(option.get("description") or "") > 100:
                raise ApiError(400, 50035, "Invalid Form Body (select option: 100 or fewer)")
    if creating and not (
        content or body.get("embeds") or components or n_uploads or body.get("poll")
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def build_attachments(
    world: World, spec: list[dict[str, Any]] | None, uploads: Uploads, existing: list[Attachment]
) -> list[Attachment]:
    """Resolve an ``attachments`` array: small ids are upload indexes, snowflakes are kept."""
    if spec is None:
        spec = [{"id": i} for i in sorted(uploads)]
    by_id = {a.id: a for a in existing}
    out: list[Attachment] = []
    for entry in spec:
        ident = int(entry["id"])
        if ident in uploads:
            filename, data, ctype = uploads[ident]
            out.append(
                Attachment(
                    id=world.snowflake(),
                    filename=entry.get("filename") or filename,
                    data=data,
                    content_type=ctype,
                    description=entry.get("description"),
                )
            )
        elif ident in by_id:
            out.append(by_id[ident])
    return out


_USER_MENTION = re.compile(r"<@!?([0-9]{15,21})>")


def pinged_users(content: str, allowed: dict[str, Any] | None) -> list[int]:
    """Who a new message notifies, as Discord decides it: every user mentioned in the
    content, unless ``allowed_mentions`` narrows it (``parse`` without "users" pings no
    user by mention; a ``users`` list pings only those of them who are mentioned)."""
    mentioned = [int(m) for m in _USER_MENTION.findall(content or "")]
    if allowed is None:
        return list(dict.fromkeys(mentioned))
    if "users" in allowed and allowed["users"] is not None:
        listed = {int(u) for u in allowed["users"]}
        return list(dict.fromkeys(u for u in mentioned if u in listed))
    if "users" in (allowed.get("parse") or []):
        return list(dict.fromkeys(mentioned))
    return []


def check_upload_size(world: World, channel_id: int, uploads: Uploads) -> None:
    """Refuse, as Discord does (413, code 40005), files that together exceed the upload
    limit of the channel's server (``Guild.upload_limit``; Discord's default in a DM)."""
    channel = world.channels.get(channel_id)
    guild = world.channel_guild(channel) if channel is not None else None
    limit = guild.upload_limit if guild is not None else DEFAULT_UPLOAD_LIMIT
    if sum(len(data) for _, data, _ in uploads.values()) > limit:
        raise ApiError(413, 40005, "Request entity too large")


def record_uploads(world: World, channel_id: int, uploads: Uploads) -> None:
    """Note every file uploaded (``world.uploads``), so tests can count repeated pictures."""
    check_upload_size(world, channel_id, uploads)
    for filename, data, _ in uploads.values():
        world.uploads.append((channel_id, filename, hashlib.sha256(data).hexdigest()))


def new_message(
    world: World,
    channel: Channel,
    author: User,
    body: dict[str, Any],
    uploads: Uploads,
    **extra: Any,
) -> Message:
    validate(body, creating=True, n_uploads=len(uploads))
    record_uploads(world, channel.id, uploads)
    msg = Message(
        id=world.snowflake(),
        channel_id=channel.id,
        guild_id=channel.guild_id,
        author=author,
        content=body.get("content") or "",
        embeds=list(body.get("embeds") or []),
        components=list(body.get("components") or []),
        attachments=build_attachments(world, body.get("attachments"), uploads, []),
        flags=(body.get("flags") or 0) & SENDABLE_FLAGS,
        message_reference=body.get("message_reference"),
        pinged=pinged_users(body.get("content") or "", body.get("allowed_mentions")),
        **extra,
    )
    return world.add_message(msg)


def apply_edit(world: World, msg: Message, body: dict[str, Any], uploads: Uploads) -> Message:
    validate(body, creating=False, n_uploads=len(uploads))
    record_uploads(world, msg.channel_id, uploads)
    if "content" in body:
        msg.content = body["content"] or ""
    if "embeds" in body:
        msg.embeds = list(body["embeds"] or [])
    if "components" in body:
        msg.components = list(body["components"] or [])
    if "attachments" in body or uploads:
        msg.attachments = build_attachments(
            world, body.get("attachments"), uploads, msg.attachments
        )
    if "flags" in body and body["flags"] is not None:
        keep = msg.flags & (EPHEMERAL | LOADING)
        msg.flags = keep | (body["flags"] & SENDABLE_FLAGS & ~EPHEMERAL)
    msg.flags &= ~LOADING
    world.edited(msg)
    return msg
