"""A small JSON-Schema checker for Discord's OpenAPI description
(``fixtures/reference/discord-openapi.json.gz``): enough of the keywords (type, enum, const,
lengths, item counts, required, properties, items, oneOf/anyOf/allOf, $ref) to tell
whether a payload the bot sent is one Discord accepts."""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

#: Discord's published OpenAPI description of its HTTP API, kept here gzipped so that every
#: checkout (CI's included) checks payloads against the same document.
SPEC = Path(__file__).resolve().parent / "fixtures" / "reference" / "discord-openapi.json.gz"

_TYPES = {
    "object": dict,
    "array": list,
    "string": str,
    "integer": int,
    "number": (int, float),
    "boolean": bool,
    "null": type(None),
}


@cache
def spec() -> dict[str, Any]:
    """The whole OpenAPI description (paths and schemas)."""
    found: dict[str, Any] = json.loads(gzip.decompress(SPEC.read_bytes()))
    return found


def schemas() -> dict[str, Any]:
    found: dict[str, Any] = spec()["components"]["schemas"]
    return found


def _type_ok(value: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, list) else [kind]
    for k in kinds:
        if k in ("integer", "number") and isinstance(value, bool):
            continue
        if isinstance(value, _TYPES[k]):  # type: ignore[arg-type]
            return True
    return False


def errors(value: Any, schema: dict[str, Any], path: str = "$") -> list[str]:
    """Every way ``value`` breaks ``schema`` (empty: it conforms)."""
    if "$ref" in schema:
        return errors(value, schemas()[schema["$ref"].rsplit("/", 1)[1]], path)
    if schema.get("format") == "snowflake" and isinstance(value, int) and value >= 0:
        return []  # Discord takes a snowflake as a number too (discord.py sends ids so)
    out: list[str] = []
    if "type" in schema and not _type_ok(value, schema["type"]):
        return [f"{path}: {type(value).__name__} is not {schema['type']}"]
    if "enum" in schema and value not in schema["enum"]:
        out.append(f"{path}: {value!r} not in {schema['enum']}")
    if "const" in schema and value != schema["const"]:
        out.append(f"{path}: {value!r} is not {schema['const']!r}")
    if isinstance(value, str):
        if len(value) < schema.get("minLength", 0):
            out.append(f"{path}: shorter than {schema['minLength']}")
        if len(value) > schema.get("maxLength", 1 << 30):
            out.append(f"{path}: longer than {schema['maxLength']} ({len(value)})")
    if isinstance(value, list):
        if len(value) < schema.get("minItems", 0):
            out.append(f"{path}: fewer than {schema['minItems']} items")
        if len(value) > schema.get("maxItems", 1 << 30):
            out.append(f"{path}: more than {schema['maxItems']} items")
        if "items" in schema:
            for i, item in enumerate(value):
                out += errors(item, schema["items"], f"{path}[{i}]")
    if isinstance(value, dict):
        for key in schema.get("required", []):
            if key not in value:
                out.append(f"{path}: missing {key}")
        for key, sub in (schema.get("properties") or {}).items():
            if key in value and value[key] is not None:
                out += errors(value[key], sub, f"{path}.{key}")
    for sub in schema.get("allOf", []):
        out += errors(value, sub, path)
    for word in ("oneOf", "anyOf"):
        if word in schema and not any(conforms(value, s) for s in schema[word]):
            found = [errors(value, s, path) for s in schema[word]]
            if all(found):
                # Say what the closest alternative objects to, not only that none fits.
                closest = min(found, key=len)
                out.append(f"{path}: matches none of its {word} alternatives: {closest[0]}")
    return out


def conforms(value: Any, schema: dict[str, Any]) -> bool:
    """``errors(value, schema) == []``, answered without writing the errors: it stops at
    the first, and tries a oneOf's alternatives only until one fits (the messages that a
    body's every failing alternative would spell out made checking it slow)."""
    if "$ref" in schema:
        return conforms(value, schemas()[schema["$ref"].rsplit("/", 1)[1]])
    if schema.get("format") == "snowflake" and isinstance(value, int) and value >= 0:
        return True
    if "type" in schema and not _type_ok(value, schema["type"]):
        return False
    if "enum" in schema and value not in schema["enum"]:
        return False
    if "const" in schema and value != schema["const"]:
        return False
    if isinstance(value, str | list) and not _length_ok(value, schema):
        return False
    if isinstance(value, list) and "items" in schema and not _items_conform(value, schema):
        return False
    if isinstance(value, dict) and not _members_conform(value, schema):
        return False
    if not all(conforms(value, sub) for sub in schema.get("allOf", [])):
        return False
    return all(
        any(conforms(value, s) for s in schema[word])
        for word in ("oneOf", "anyOf")
        if word in schema
    )


def _length_ok(value: str | list[Any], schema: dict[str, Any]) -> bool:
    low, high = ("minLength", "maxLength") if isinstance(value, str) else ("minItems", "maxItems")
    least: int = schema.get(low, 0)
    most: int = schema.get(high, 1 << 30)
    return least <= len(value) <= most


def _items_conform(value: list[Any], schema: dict[str, Any]) -> bool:
    return all(conforms(item, schema["items"]) for item in value)


def _members_conform(value: dict[str, Any], schema: dict[str, Any]) -> bool:
    if not all(key in value for key in schema.get("required", [])):
        return False
    return all(
        conforms(value[key], sub)
        for key, sub in (schema.get("properties") or {}).items()
        if key in value and value[key] is not None
    )


def check(value: Any, schema_name: str) -> list[str]:
    return errors(value, schemas()[schema_name])
