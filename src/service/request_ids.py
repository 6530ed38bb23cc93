"""Request ids: a client may give a change (Deal, an action) an id, and a retry with the same id
gets the first answer instead of acting twice. The store keeps, per table and id, what made
the request (its fingerprint) and its answer; another request under a used id is refused."""
from __future__ import annotations

import hashlib

import orjson

from . import errors
from .ids import REQUEST_ID
from .store import Store


def check_request_id(request_id: str) -> str | None:
    if not request_id:
        return None
    if not REQUEST_ID.match(request_id):
        raise errors.invalid("request_id", "must be 1 to 64 characters of A-Z a-z 0-9 - _ . : "
                             f"(a UUID is recommended), got {errors.short(request_id)}",
                             reason="BAD_REQUEST_ID")
    return request_id


def fingerprint(kind: str, seat: int | None, fields: dict) -> str:
    """What makes two requests the same request (exchanged cards are a multiset)."""
    if "cards" in fields:
        fields = {**fields, "cards": sorted(fields["cards"])}
    return hashlib.sha256(orjson.dumps([kind, seat, fields], option=orjson.OPT_SORT_KEYS)).hexdigest()


async def answered(store: Store, table_id: str, request_id: str | None, fp: str):
    """(fingerprint, answer) stored under this request id if it was answered, else None
    (REQUEST_ID_REUSED if that was another request)."""
    if not request_id:
        return None
    known = await store.find_request(table_id, request_id)
    if known is not None and known[0] != fp:
        raise errors.invalid("request_id", "was already used for another request",
                             reason="REQUEST_ID_REUSED")
    return known
