"""Which format reads a file, and why: the spec's magic, a plugin's detection, an extension, a trial parse.

Detection itself (every format's judgement of a file's first bytes) is
:func:`animre.formats.detect`; here it is decided, with trial parses when
several specs claim a file or none can tell without one, and the file gets
its cache key (content, place, format, spec hash, animre version).
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from .._version import __version__
from ..errors import AnimreError, SpecError, ToolchainError
from ..formats import MIN_SCORE, Format, detect, registry
from ..sources import Source, read_source
from ..tables.read import module_for, parse_data
from .results import KEY_SCHEMA

__all__ = ["Ident", "identify", "choose_format", "trial_parse"]

@dataclass
class Ident:
    src: Source
    fmt: Format | None
    key: str | None
    by: str | None = None

    @property
    def name(self) -> str:
        return self.src.name


def trial_parse(src: Source, fmt: Format) -> bool:
    """Does the file parse with the format's spec (its ``seq``; instances are not needed to decide)?"""
    try:
        parse_data(read_source(src), src.name, fmt, instance_errors=[])
        return True
    except (SpecError, ToolchainError):  # the spec itself is broken: say so, never "not this format"
        raise
    except (AnimreError, Exception):  # noqa: BLE001 - a failed trial only rules the format out
        return False


def choose_format(src: Source, reg: Mapping[str, Format]) -> tuple[Format | None, str | None]:
    """The format of one file and why (``detected_by``): magic, plugin, extension, trial parse, tie."""
    found = detect(src.head, src.size, src.name, reg)
    mine = _user_claim(src, found)
    if mine is not None:
        return mine
    sure = [d for d in found if d.score >= MIN_SCORE and not d.needs_trial]
    if sure:
        best = sure[0]
        rivals = [d for d in sure[1:] if best.score - d.score < 0.05]
        if not rivals:
            return best.format, best.by
        parsed = [d for d in [best, *rivals] if trial_parse(src, d.format)]
        if len(parsed) == 1:
            return parsed[0].format, f"{parsed[0].by}; the only one of {1 + len(rivals)} claiming specs that parses"
        if not parsed:
            return best.format, best.by
        names = ", ".join(d.format.name for d in parsed)
        return parsed[0].format, f"{parsed[0].by}; tie: {names} all parse it ({parsed[0].format.name} chosen)"
    trials = [d for d in found if d.needs_trial]
    parsed = [d for d in trials if trial_parse(src, d.format)]
    if parsed:
        d = parsed[0]
        tie = f"; tie: {', '.join(x.format.name for x in parsed)} all parse it" if len(parsed) > 1 else ""
        return d.format, ("weak magic + trial parse" if d.by == "weak magic" else "trial parse") + tie
    return None, None


def _user_claim(src: Source, found: list) -> tuple[Format, str] | None:
    """A user's spec before a shipped format claiming the same file: the spec one passes is what one asked for.

    Only when a shipped format claims the file and a user's spec claims it by
    its magic or its extension (never by a trial parse alone), and the user's
    spec parses the file; otherwise the ordinary ranking decides.
    """
    claims = [d for d in found if d.score >= MIN_SCORE]
    if not claims or not _shipped(claims[0].format):
        return None  # the ordinary ranking already puts a user's spec first (or no one claims the file)
    mine = [d for d in claims if not _shipped(d.format)]
    if not mine:
        return None
    ahead = [d.format.name for d in claims if _shipped(d.format) and d.score >= mine[0].score]
    for d in mine:
        if trial_parse(src, d.format):
            return d.format, f"{d.by}; your spec before the shipped {', '.join(ahead)}"
    return None


def _shipped(fmt: Format) -> bool:
    return fmt.source is None or fmt.source.shipped


def identify(src: Source, parsers, spec_hashes: dict[str, str] | None = None,
              reg: Mapping[str, Format] | None = None) -> Ident:
    """Detect one entry's format; the cache key ties content, place, spec and animre version."""
    if src.error is not None and (src.kind is None or not src.head):
        return Ident(src, None, None)  # bytes that cannot be read; a container that cannot be listed can
    fmt, by = choose_format(src, reg if reg is not None else registry(parsers=parsers, env=False))
    if fmt is None:
        return Ident(src, None, None)
    if spec_hashes is not None and fmt.name in spec_hashes:
        shash = spec_hashes[fmt.name]
    else:
        shash = module_for(fmt, parsers)[1]
        if spec_hashes is not None:
            spec_hashes[fmt.name] = shash
    place = f"{src.container}|{src.offset}|{src.kind}|{src.members}"
    key = hashlib.sha256(f"{src.sha256}|{fmt.name}|{shash}|{__version__}|{KEY_SCHEMA}|{place}".encode()).hexdigest()
    return Ident(src, fmt, key, by)
