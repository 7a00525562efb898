"""The emulator agrees with Discord's published OpenAPI description: every body the bot
sends to a route that creates or edits a message, answers an interaction or posts a
followup is checked against that route's request schema, and one that does not conform is
refused with Discord's own "Invalid Form Body" (400, code 50035) and recorded in
``world.invalid_bodies`` so a test can show it."""

from __future__ import annotations

from functools import cache
from typing import Any

from tests.openapi_check import conforms, spec
from tests.openapi_check import errors as schema_errors

from .messages import ApiError

#: Our routes, as the OpenAPI description names them.
ROUTES = {
    "create_message": ("post", "/channels/{channel_id}/messages"),
    "edit_message": ("patch", "/channels/{channel_id}/messages/{message_id}"),
    "create_thread": ("post", "/channels/{channel_id}/threads"),
    "create_thread_from_message": ("post", "/channels/{channel_id}/messages/{message_id}/threads"),
    "edit_channel": ("patch", "/channels/{channel_id}"),
    "interaction_callback": ("post", "/interactions/{interaction_id}/{interaction_token}/callback"),
    "followup": ("post", "/webhooks/{webhook_id}/{webhook_token}"),
    "edit_followup": ("patch", "/webhooks/{webhook_id}/{webhook_token}/messages/{message_id}"),
}


@cache
def request_schema(route: str) -> dict[str, Any]:
    method, path = ROUTES[route]
    body = spec()["paths"][path][method]["requestBody"]["content"]["application/json"]
    schema: dict[str, Any] = body["schema"]
    return schema


def conform(world: Any, route: str, body: dict[str, Any]) -> None:
    """Refuse ``body`` as Discord would if it breaks the route's request schema."""
    schema = request_schema(route)
    if conforms(body, schema):
        return
    problems = schema_errors(body, schema)
    if problems:
        world.invalid_bodies.append((route, problems))
        raise ApiError(400, 50035, f"Invalid Form Body ({'; '.join(problems[:3])})")
