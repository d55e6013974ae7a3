"""Seeding a namespace: tables from CreateTable inputs, items from JSON."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any, Dict, List, Union

__all__ = ["read_tables", "read_items", "create_tables", "put_items"]

_AV_TYPES = {"S", "N", "B", "BOOL", "NULL", "M", "L", "SS", "NS", "BS"}

PathLike = Union[str, Path]


def _json_files(at: Path) -> List[Path]:
    return sorted(p for p in at.iterdir() if p.suffix == ".json") if at.is_dir() else [at]


def read_tables(at: PathLike) -> List[Dict[str, Any]]:
    """Read CreateTable inputs: a JSON file of one input or a list, or a directory of such files."""
    out: List[Dict[str, Any]] = []
    for f in _json_files(Path(at)):
        try:
            data = json.loads(f.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            raise ValueError(f"dynamoemu: tables: {f}: {err}") from None
        out.extend(data if isinstance(data, list) else [data])
    return out


def _is_dynamodb_json(items: List[Any]) -> bool:
    return all(
        isinstance(it, dict) and all(
            isinstance(v, dict) and len(v) == 1 and next(iter(v)) in _AV_TYPES for v in it.values())
        for it in items)


def _to_av(v: Any) -> Dict[str, Any]:
    if v is None:
        return {"NULL": True}
    if isinstance(v, bool):
        return {"BOOL": v}
    if isinstance(v, str):
        return {"S": v}
    if isinstance(v, (int, Decimal)):
        return {"N": str(v)}
    if isinstance(v, list):
        return {"L": [_to_av(e) for e in v]}
    return {"M": {k: _to_av(e) for k, e in v.items()}}


def read_items(at: PathLike) -> Dict[str, List[Dict[str, Any]]]:
    """Read items to seed, as DynamoDB JSON, by table.

    ``at`` is a JSON file ``{"TABLE": [item, ...], ...}`` or a directory of
    ``TABLE.json`` files, each a list of items. Items are in DynamoDB JSON
    (``{"pk": {"S": "a"}}``) or plain JSON (``{"pk": "a"}``), a list at a time.
    """
    p = Path(at)
    by_table: Dict[str, Any] = {}
    try:
        if p.is_dir():
            files = _json_files(p)
            if not files:
                raise ValueError("a directory without TABLE.json files")
            for f in files:
                by_table[f.stem] = json.loads(f.read_text(encoding="utf-8"), parse_float=Decimal)
        else:
            by_table = json.loads(p.read_text(encoding="utf-8"), parse_float=Decimal)
            if not isinstance(by_table, dict):
                raise ValueError('want a JSON object {"TABLE": [items]}')
    except (OSError, ValueError) as err:
        raise ValueError(f"dynamoemu: items: {p}: {err}") from None
    out: Dict[str, List[Dict[str, Any]]] = {}
    for table, items in by_table.items():
        if not isinstance(items, list):
            raise ValueError(f"dynamoemu: items: {p}: {table}: want a JSON list of items")
        out[table] = items if _is_dynamodb_json(items) else [_to_av(it)["M"] for it in items]
    return out


def create_tables(client: Any, inputs: List[Dict[str, Any]]) -> None:
    """Make each table with ``client`` (a boto3 DynamoDB client); one that exists is left as it is."""
    for inp in inputs:
        try:
            client.create_table(**inp)
        except client.exceptions.ResourceInUseException:
            pass


def put_items(client: Any, items: Dict[str, List[Dict[str, Any]]]) -> None:
    """Put items (DynamoDB JSON, by table) with ``client``, 25 to a BatchWriteItem."""
    for table, list_ in items.items():
        for i in range(0, len(list_), 25):
            req: Dict[str, Any] = {table: [{"PutRequest": {"Item": it}} for it in list_[i:i + 25]]}
            for _ in range(10):
                req = client.batch_write_item(RequestItems=req).get("UnprocessedItems") or {}
                if not req:
                    break
            if req:
                raise RuntimeError(f"dynamoemu: items of {table}: left unprocessed after 10 tries")
