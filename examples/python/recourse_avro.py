"""Decode Recourse's Avro outputs outside Java (README "Reading Recourse's outputs in other languages").

Every value Recourse writes is Avro in single-object encoding: the two bytes C3 01, the 8-byte
CRC-64-AVRO fingerprint of the writer schema's Parsing Canonical Form (little-endian), then the
Avro binary body. The writer schemas are the files in schemas/ (current) and schemas/history/
(every released version): index them by fingerprint, look the header up, and decode the body with
the writer schema resolved into the current schema of the same name, so fields added later read
as their defaults.

    decoder = Decoder("schemas")
    name, record = decoder.decode(message.value())

Needs fastavro. Run as a script to decode one file of raw values:
    python3 recourse_avro.py schemas/ value.bin
"""

import datetime
import io
import json
import pathlib
import sys

from fastavro import parse_schema, schemaless_reader
from fastavro.schema import fingerprint, to_parsing_canonical_form

MAGIC = b"\xc3\x01"
HEADER_LENGTH = 10
EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


class UnknownSchema(ValueError):
    """The value's fingerprint names no schema in the schemas folder (a newer Recourse?)."""


def _parse(path):
    # named_schemas={}: each file is self-contained, and the current and released versions of a
    # record share its name
    return parse_schema(json.loads(path.read_text(encoding="utf-8")), named_schemas={})


def _fingerprint(parsed):
    return bytes.fromhex(fingerprint(to_parsing_canonical_form(parsed), "CRC-64-AVRO"))


class Decoder:
    """Single-object decoder over every schema in `schemas_dir` and `schemas_dir`/history."""

    def __init__(self, schemas_dir):
        root = pathlib.Path(schemas_dir)
        self.current = {}  # record full name -> parsed current schema (the reader schema)
        self.writers = {}  # fingerprint (8 bytes, as in the header) -> (full name, parsed writer schema)
        for path in sorted(root.glob("*.avsc")):
            parsed = _parse(path)
            self.current[parsed["name"]] = parsed
            self.writers[_fingerprint(parsed)] = (parsed["name"], parsed)
        for path in sorted((root / "history").glob("*.avsc")):
            parsed = _parse(path)
            self.writers.setdefault(_fingerprint(parsed), (parsed["name"], parsed))
        if not self.current:
            raise FileNotFoundError(f"no .avsc files in {root}")

    def decode(self, value):
        """(record full name, dict) of one record value; (None, None) for a tombstone.

        Raises ValueError for a value without the single-object header, UnknownSchema for an
        unknown fingerprint.
        """
        if value is None:
            return None, None
        if len(value) < HEADER_LENGTH or value[:2] != MAGIC:
            raise ValueError("not Avro single-object encoding (no C3 01 header)")
        key = bytes(value[2:HEADER_LENGTH])
        if key not in self.writers:
            raise UnknownSchema(f"unknown schema fingerprint {key.hex()}")
        name, writer = self.writers[key]
        record = schemaless_reader(io.BytesIO(value[HEADER_LENGTH:]), writer, self.current.get(name, writer))
        return name, record


def millis(instant):
    """Epoch milliseconds of a decoded timestamp-millis value (fastavro gives an aware datetime); None stays None."""
    if instant is None:
        return None
    if isinstance(instant, int):
        return instant
    return (instant - EPOCH) // datetime.timedelta(milliseconds=1)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: recourse_avro.py SCHEMAS_DIR VALUE_FILE")
    name, record = Decoder(sys.argv[1]).decode(pathlib.Path(sys.argv[2]).read_bytes())
    print(json.dumps({"schema": name, "value": record}, default=str, indent=2))
