#!/usr/bin/env python3
"""Cross-checks the golden vectors with an independent CBOR implementation.

Needs the `cbor2` package (pip install cbor2); not part of CI. For every vector it
checks the frame header fields, that the payload decodes to the JSON `value`, that
cbor2's canonical encoding of that value is byte-identical to the payload, and that
`typed_value` alone (PROTOCOL.md §11: `$date`, `$bytes` and `$url` leaves, no schema)
encodes to the payload too and reduces to `value` once its markers are removed.
"""
import datetime
import json
import pathlib
import sys

import cbor2


def as_json(value):
    if isinstance(value, datetime.datetime):
        value = value.astimezone(datetime.timezone.utc)
        return value.strftime("%Y-%m-%dT%H:%M:%S.") + f"{value.microsecond // 1000:03d}Z"
    if isinstance(value, bytes):
        return value.hex()
    if isinstance(value, dict):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, list):
        return [as_json(item) for item in value]
    return value


def from_typed(value):
    """typed_value → Python values cbor2 encodes as the protocol wants, without a schema."""
    if isinstance(value, dict):
        if len(value) == 1:
            (marker, leaf), = value.items()
            if marker == "$date":
                parsed = datetime.datetime.strptime(leaf, "%Y-%m-%dT%H:%M:%S.%fZ")
                return parsed.replace(tzinfo=datetime.timezone.utc)
            if marker == "$bytes":
                return bytes.fromhex(leaf)
            if marker == "$url":
                return leaf
            if marker.startswith("$"):
                raise ValueError(f"unknown type marker {marker}")
        return {key: from_typed(item) for key, item in value.items()}
    if isinstance(value, list):
        return [from_typed(item) for item in value]
    if isinstance(value, float):
        raise ValueError("typed_value holds integers only")
    return value


def untyped(value):
    if isinstance(value, dict):
        if len(value) == 1 and next(iter(value)) in ("$date", "$bytes", "$url"):
            return next(iter(value.values()))
        return {key: untyped(item) for key, item in value.items()}
    if isinstance(value, list):
        return [untyped(item) for item in value]
    return value


def check(path):
    vector = json.loads(path.read_text())
    frame = bytes.fromhex(vector["frame_hex"])
    payload = bytes.fromhex(vector["payload_hex"])
    header = vector["header"]
    problems = []
    if int.from_bytes(frame[0:4], "big") != len(frame) - 4 or header["length"] != len(frame) - 4:
        problems.append("length")
    if frame[4] != header["version"] or frame[5] != header["kindCode"]:
        problems.append("version or kind")
    if int.from_bytes(frame[6:8], "big") != header["flags"] or int.from_bytes(frame[8:12], "big") != header["requestId"]:
        problems.append("flags or request id")
    if frame[12:] != payload:
        problems.append("payload_hex is not the frame's payload")
    if vector["value"] is not None:
        decoded = cbor2.loads(payload)
        if as_json(decoded) != vector["value"]:
            problems.append("decoded payload differs from value")
        canonical = cbor2.dumps(decoded, canonical=True, datetime_as_timestamp=True, timezone=datetime.timezone.utc)
        if canonical != payload:
            problems.append("cbor2's canonical encoding differs from the payload")
    if "typed_value" not in vector:
        problems.append("no typed_value")
    elif (vector["typed_value"] is None) != (vector["value"] is None):
        problems.append("typed_value and value disagree on null")
    elif vector["typed_value"] is not None:
        typed = cbor2.dumps(from_typed(vector["typed_value"]), canonical=True,
                            datetime_as_timestamp=True, timezone=datetime.timezone.utc)
        if typed != payload:
            problems.append("cbor2's encoding of typed_value differs from the payload")
        if untyped(vector["typed_value"]) != vector["value"]:
            problems.append("typed_value without its markers differs from value")
    return problems


def main():
    folder = pathlib.Path(__file__).resolve().parent
    failures = 0
    files = sorted(folder.glob("*.json"))
    for path in files:
        problems = check(path)
        if problems:
            failures += 1
            print(f"{path.name}: {'; '.join(problems)}")
    print(f"{len(files) - failures} passed, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
