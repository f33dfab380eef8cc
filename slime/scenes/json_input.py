"""JSON files a person names, read and checked: what Soda model files (``soda_format.py``) and 3D
scene files (``world_format.py``) share. The file is read with its size bound
(``fileio.read_input``), the text must be UTF-8 JSON without NaN or Infinity literals, and every
problem, in the file or in the values found in it, becomes one line naming the file, raised as
the format's own error class.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from slime import limits
from slime.fileio import MAX_INPUT_BYTES, read_input


def describe(value) -> str:
    """A JSON value as a message shows it (short; a huge integer by its size, since repr() refuses
    past 4300 digits)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    if isinstance(value, int) and abs(value) > 10**15:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, (int, float)):
        return f"number {value!r}"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:17] + "..."
        return f"string {shown!r}"
    if isinstance(value, (list, tuple)):
        return f"a list of {len(value)}"
    return "an object" if isinstance(value, dict) else type(value).__name__


def _reject_constant(name: str):
    raise ValueError(f"{name} is not a number JSON allows")


def read_json(path: Path, error: type, what: str, limit: int = MAX_INPUT_BYTES, empty: str | None = None):
    """The parsed JSON of the file ``path``; ``error(one line)`` when it cannot be read, is not
    UTF-8 (``what`` names the kind of file: "model file"), or is not valid JSON. ``empty``, when
    given, is what an empty (or all-blank) file is told instead of the JSON parser's complaint."""
    try:
        raw = read_input(path, limit)
    except OSError as problem:
        raise error(f"{path}: cannot read ({problem.strerror or problem})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(f"{path}: not a {what} (not UTF-8 text)") from None
    if empty is not None and not text.strip():
        raise error(f"{path}: empty file ({empty})")
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as problem:
        where = problem.msg.removesuffix(" at")  # "Unterminated string starting at" names its place below
        raise error(f"{path}: not valid JSON ({where} at line {problem.lineno} column {problem.colno})") from None
    except (ValueError, RecursionError) as problem:  # NaN/Infinity literals, absurd nesting
        raise error(f"{path}: not valid JSON ({str(problem).splitlines()[0]})") from None


class JsonChecker:
    """Typed access into parsed JSON that reports the first problem as ``error``, prefixed by
    where the JSON came from. Each format adds its own shapes (tables, vectors, indices)."""

    error: type = ValueError

    def __init__(self, origin):
        self.origin = origin

    def fail(self, problem: str):
        return self.error(f"{self.origin}: {problem}")

    def number(self, value, where: str, within: tuple | None = None, unit: str = "") -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise self.fail(f"{where} must be a number, got {describe(value)}")
        try:
            number = float(value)
        except OverflowError:  # an integer literal beyond any float
            raise self.fail(f"{where} must be finite, got {describe(value)}") from None
        if not math.isfinite(number):
            raise self.fail(f"{where} must be finite, got {value!r}")
        if within is not None and not within[0] <= number <= within[1]:
            raise self.fail(f"{where} must be from {limits.range_text(within, unit)}, got {number:g}")
        return number

    def text(self, value, where: str) -> str:
        if not isinstance(value, str):
            raise self.fail(f"{where} must be a string, got {describe(value)}")
        return value
