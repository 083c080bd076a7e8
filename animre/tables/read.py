"""Read one file: detect its format, parse every block, flatten it into tables.

This is the layer below the corpus: it knows formats, parsers and the
flattener, and nothing above them. :func:`read_tables` is what a corpus scan
calls for every file.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import types
from collections.abc import Iterator, Mapping
from pathlib import Path

from ..base.errors import ParseError, UsageError
from ..formats import Format, all_formats, detect_format
from ..sources import HEAD
from ..spec.compiler import KSY_DIR, load_parser, spec_hash
from ..spec.parse import parse_bytes
from ..spec.ranges import Bases
from .fixed import FixedReader, fixed_reader
from .flattener import Chunk, flatten
from .plan import Plan
from .planner import plan_for

__all__ = ["HEAD", "parse", "parse_blocks", "read_tables", "module_for", "plan_of",
           "spec_text", "fast_reader"]

Parsers = Mapping[str, types.ModuleType]


def _override(fmt: Format, parsers: Parsers | None) -> types.ModuleType | None:
    if parsers and fmt.name in parsers:
        return parsers[fmt.name]
    return fmt.parser


def spec_text(fmt: Format, parsers: Parsers | None = None) -> str:
    """The spec text a format is read with: an edited one (``parsers``), its spec's, or ``ksy/<id>.ksy``."""
    mod = _override(fmt, parsers)
    if mod is not None:
        text = getattr(mod, "__animre_spec_text__", None)
        if text is not None:
            return text
    if fmt.source is not None:
        return fmt.source.text
    return (KSY_DIR / f"{fmt.name}.ksy").read_text(encoding="utf-8")


def _module(fmt: Format, parsers: Parsers | None = None) -> types.ModuleType:
    """The parser module a format is read with; ``parsers`` (or the format's ``parser``) overrides its own."""
    mod = _override(fmt, parsers)
    if mod is not None:
        return mod
    if fmt.source is not None and not fmt.source.shipped:
        return fmt.source.module()
    return load_parser(fmt.name)


def module_for(fmt: Format, parsers: Parsers | None = None) -> tuple[types.ModuleType, str]:
    """(parser module, spec hash) for a format. A parse asks for :func:`_module` alone: a shipped spec's hash
    reads its files (a millisecond, per file parsed)."""
    mod = _module(fmt, parsers)
    if _override(fmt, parsers) is not None:
        text = getattr(mod, "__animre_spec_text__", None) or Path(mod.__file__).read_text()
        return mod, "custom:" + hashlib.sha256(text.encode()).hexdigest()
    return mod, fmt.source.hash if fmt.source is not None and not fmt.source.shipped else spec_hash(fmt.name)


def plan_of(fmt: Format, parsers: Parsers | None = None) -> Plan:
    """The tables the format's (possibly edited) spec declares."""
    imports = fmt.source.import_texts if fmt.source is not None and _override(fmt, parsers) is None else None
    return plan_for(spec_text(fmt, parsers), imports=imports)


def _format(fmt: str | Format | None, formats: Mapping[str, Format] | None) -> Format | None:
    if isinstance(fmt, str):
        reg = formats or all_formats()
        if fmt not in reg:
            raise UsageError(f"unknown format {fmt!r}; known: {', '.join(reg)}")
        return reg[fmt]
    return fmt


def parse(source: bytes | str | os.PathLike, name: str | None = None, fmt: str | Format | None = None,
          parsers: Parsers | None = None, *, formats: Mapping[str, Format] | None = None,
          instance_errors: list | None = None):
    """Parse one file (its bytes, or its path); returns ``(format, parsed_object, bases)`` of its first block.

    ``name`` is the file's name in errors and detection (a path's own by
    default); ``fmt`` a format or its id (detected when omitted, with the
    registry ``formats``); :func:`parse_blocks` gives every block of a
    container. Raises :class:`~animre.base.errors.ParseError` (file, field
    path, offset) when the file is not recognised or does not parse.

    Examples
    --------
    >>> fmt, obj, bases = parse("data/samples/frm/GOBLNFRM.BIN")
    >>> fmt.name, bases.span(obj, "walk_speed")
    ('frm', (162, 166))
    """
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, name = bytes(source), name or "<bytes>"
    else:
        data, name = Path(source).read_bytes(), name or str(source)
    fmt = _format(fmt, formats)
    if fmt is None:
        fmt, _ = detect_format(data[:HEAD], len(data), name, formats)
        if fmt is None:
            raise ParseError(name, "", 0, "not recognised as any format "
                             f"({', '.join(formats or all_formats())}); {len(data)} bytes")
    mod = _module(fmt, parsers)
    offset = 0
    if fmt.locate is not None:
        offset = fmt.locate(data)
        if offset is None or offset < 0:
            raise ParseError(name, "", 0, f"no {fmt.title} block found")
    obj, bases = _parse_at(data, name, mod, offset, instance_errors)
    return fmt, obj, bases


def _parse_at(data: bytes, name: str, mod, offset: int, instance_errors: list | None = None):
    try:
        obj = parse_bytes(data[offset:] if offset else data, mod, name, instance_errors=instance_errors)
    except ParseError as e:
        if offset:
            raise ParseError(name, e.path, e.offset + offset, e.reason, e.partial) from e.__cause__
        raise
    return obj, Bases(obj, offset)


def parse_blocks(data: bytes, name: str, fmt: str | Format | None = None,
                 parsers: Parsers | None = None, *, formats: Mapping[str, Format] | None = None,
                 instance_errors: list | None = None) -> Iterator[tuple[Format, int, object, Bases]]:
    """Every block of a file: yields ``(format, block_number, parsed_object, bases)``.

    Most formats have one block per file. Containers hold several (ANCS/CHAR
    files: one PAS4 database per character); their format's ``next_block``
    finds the next one after the end of the previous, so work stays
    proportional to the file size.
    """
    fmt, obj, bases = parse(data, name, fmt, parsers, formats=formats, instance_errors=instance_errors)
    yield fmt, 0, obj, bases
    if fmt.next_block is None:
        return
    mod = _module(fmt, parsers)
    k, pos = 0, bases.offset + max(1, obj._io.pos())
    while pos < len(data):
        nxt = fmt.next_block(data, pos)
        if nxt is None or nxt < pos:
            return
        k += 1
        obj, bases = _parse_at(data, name, mod, nxt, instance_errors)
        yield fmt, k, obj, bases
        pos = nxt + max(1, obj._io.pos())


def read_tables(data: bytes, name: str, fmt: Format, parsers: Parsers | None = None, *,
                instance_errors: list | None = None, fast: bool = True) -> dict[str, Chunk]:
    """Every table of one file as column chunks (what a corpus scan concatenates; ``.frames()`` gives
    a chunk's values, start offsets and end offsets as DataFrames, int32 offsets, -1 = none).

    Containers with several blocks get a leading ``block`` key column, and the
    format's ``block_info`` columns (PAS4: ``character``, ``located_by``).
    ``instance_errors``: see :func:`animre.spec.parse.parse_bytes`. A format of a fixed layout is read
    by :func:`fast_reader` (the same tables, values and ranges; a file it cannot read, the Kaitai parse
    reads, with its exact error); ``fast=False`` reads every file with the Kaitai parse.

    Examples
    --------
    >>> from animre.formats import get_format
    >>> data = open("data/samples/frm/GOBLNFRM.BIN", "rb").read()
    >>> vals, starts, ends = read_tables(data, "GOBLNFRM.BIN", get_format("frm"))["frm_frames"].frames()
    >>> list(vals.columns), int(starts.at[0, "frame_ids"])
    (['slot', 'position', 'frame_ids'], 277)
    """
    plan = plan_of(fmt, parsers)
    reader = fast_reader(fmt, parsers, plan) if fast else None
    if reader is not None:
        got = reader.read(data)
        if got is not None:
            return got
    out: dict[str, Chunk] = {}
    with _one_file_of_garbage():
        _parse_and_flatten(data, name, fmt, parsers, plan, instance_errors, out)
    return out


def _parse_and_flatten(data: bytes, name: str, fmt: Format, parsers: Parsers | None, plan: Plan,
                       instance_errors: list | None, out: dict[str, Chunk]) -> None:
    """Parse every block and flatten it into ``out``; returns holding no parse tree (a function of its own, so
    that the collection after the file finds the trees unreachable, see :func:`_one_file_of_garbage`)."""
    for _, k, obj, bases in parse_blocks(data, name, fmt, parsers, instance_errors=instance_errors):
        keys = {"block": k} if fmt.next_block is not None else None
        if fmt.block_info is not None:
            keys = {**(keys or {}), **fmt.block_info(data, bases.offset)}
        for t, chunk in flatten(obj, bases, plan, keys, frames=False).items():
            if t in out:
                out[t].extend(chunk)
            else:
                out[t] = chunk


def fast_reader(fmt: Format, parsers: Parsers | None = None, plan: Plan | None = None) -> FixedReader | None:
    """The fixed-layout reader of a format's spec (:mod:`animre.tables.fixed`), or None.

    A format gets one when its whole file is one block of a fixed layout
    (no ``locate``, ``next_block`` or ``block_info``) and its parser is the
    one compiled from its spec text (a hand-made parser module without
    ``__animre_spec_text__`` is read with itself).
    """
    if fmt.locate is not None or fmt.next_block is not None or fmt.block_info is not None:
        return None
    mod = _override(fmt, parsers)
    if mod is not None and getattr(mod, "__animre_spec_text__", None) is None:
        return None
    return fixed_reader(spec_text(fmt, parsers), plan if plan is not None else plan_of(fmt, parsers))


@contextlib.contextmanager
def _one_file_of_garbage():
    """Pause the cyclic garbage collector while one file is parsed and flattened, then collect once.

    A parse tree is a web of small objects that point at each other
    (``_parent``, ``_root``), and flattening it allocates the columns' lists:
    with the collector running, the many automatic passes over a file's
    young objects (and the older objects they get promoted among) cost about
    as much as the flattening itself. One collection of the youngest
    generation after the file frees the tree just the same; memory stays
    bounded by one file's tree. The collector's previous state is restored.
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
            gc.collect(0)
