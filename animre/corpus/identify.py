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
from ..base.errors import AnimreError, ParseError, SpecError, ToolchainError
from ..formats import MIN_SCORE, Format, detect, registry, signature_of
from ..sources import Source, read_source
from ..spec.ranges import walk
from ..tables.read import module_for, parse
from .results import KEY_SCHEMA

__all__ = ["Ident", "identify", "choose_format", "trial_parse", "trial"]

@dataclass
class Ident:
    src: Source
    fmt: Format | None
    key: str | None
    by: str | None = None
    reason: str | None = None  # why no format reads it (a skipped file)
    data: bytes | None = None  # its whole bytes when the listing read them all (a small file), until it is parsed

    @property
    def name(self) -> str:
        return self.src.name


def trial_parse(src: Source, fmt: Format, *, plausible: bool = False) -> bool:
    """Does the file parse with the format's spec? See :func:`trial`."""
    return trial(src, fmt, plausible=plausible) is None


def trial(src: Source, fmt: Format, *, plausible: bool = False) -> str | None:
    """None when the file parses with the format's spec, else why not (``stopped at entries[12].offset ...``).

    With ``plausible`` (a spec with no magic and no extension, where the parse
    alone decides) the parse must also read the file plausibly: the ``seq``
    parses, every instance evaluates (positional and value instances, as a
    Kaitai user asking for them would), and the bytes read reach the file's
    last byte (nothing is left over that the spec does not describe). A trial
    of a spec without magic accepts almost any file otherwise.
    """
    later: list = []
    try:
        _, obj, bases = parse(read_source(src), src.name, fmt, instance_errors=later)
    except (SpecError, ToolchainError):  # the spec itself is broken: say so, never "not this format"
        raise
    except ParseError as e:  # a failed trial only rules the format out
        return f"trial parse of {fmt.name} stopped at {e.path or '(start)'} @ {e.offset}: {e.reason}"
    except (AnimreError, Exception) as e:  # noqa: BLE001 - a failed trial only rules the format out
        return f"trial parse of {fmt.name} failed: {type(e).__name__}: {e}"
    if not plausible:
        return None
    if later:
        e = later[0]
        return f"trial parse of {fmt.name}: instance {e.path} @ {e.offset} fails: {e.reason.removeprefix('instance: ')}"
    end = max((f.end for f in walk(obj, bases, values=False) if f.end is not None), default=0)
    if end < src.size:
        return (f"trial parse of {fmt.name} reads {end} of {src.size} bytes: the spec has no magic and no "
                "extension, so a parse counts only when it reads the whole file")
    return None


def choose_format(src: Source, reg: Mapping[str, Format]) -> tuple[Format | None, str | None]:
    """The format of one file and why (``detected_by``), or ``(None, why no format reads it)``.

    Magic, plugin, extension, trial parse, tie; a spec with no magic gate and
    no extension claims a loose file only by a plausible trial parse
    (:func:`trial`), and never an archive member.
    """
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
    why: dict[str, str] = {}
    parsed = []
    for d in found:
        if not d.needs_trial:
            continue
        blind = d.by == "trial parse"
        if blind and src.container is not None:
            why[d.format.name] = f"{d.format.name}: no magic and no extension; archive members are not trial-parsed"
            continue
        r = trial(src, d.format, plausible=blind)
        if r is None:
            parsed.append(d)
        else:
            why[d.format.name] = r
    if parsed:
        d = parsed[0]
        tie = f"; tie: {', '.join(x.format.name for x in parsed)} all parse it" if len(parsed) > 1 else ""
        return d.format, ("weak magic + trial parse" if d.by == "weak magic" else "plausible trial parse") + tie
    return None, _why_none(src, reg, found, why)


def _why_none(src: Source, reg: Mapping[str, Format], found: list, why: dict[str, str]) -> str:
    """Why no format reads a file, in words, for the ``reason`` column of a skipped file."""
    ext = src.name.rsplit("/", 1)[-1].rsplit(".", 1)
    ext = f".{ext[1].lower()}" if len(ext) == 2 else "(no extension)"
    judged = {d.format.name for d in found}
    for f in reg.values():
        if f.name in why or f.name in judged:
            continue
        sig = signature_of(f)
        miss = sig.mismatch(src.head, src.size) if sig is not None and f.locate is None else None
        if miss is not None:
            why[f.name] = f"{f.name}: {miss}"
        elif f.detect is not None:
            why[f.name] = f"{f.name}: its plugin does not recognise it"
        elif sig is not None and sig.extensions:
            why[f.name] = (f"{f.name}: no magic to check, and it declares "
                           f"{' or '.join('.' + e for e in sig.extensions)}, not {ext}")
    if len(reg) <= 3:
        return "; ".join(why[n] for n in reg if n in why) or "no format recognises it"
    trials = [r for r in why.values() if r.startswith("trial parse")]
    declares = any(signature_of(f) is not None and signature_of(f).extension_matches(src.name) for f in reg.values())
    head = ("no format's magic matches" + ("" if declares else f" and no spec declares {ext}"))
    return "; ".join([head, *trials])


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
        return Ident(src, None, None, reason=by)
    if spec_hashes is not None and fmt.name in spec_hashes:
        shash = spec_hashes[fmt.name]
    else:
        shash = module_for(fmt, parsers)[1]
        if spec_hashes is not None:
            spec_hashes[fmt.name] = shash
    place = f"{src.container}|{src.offset}|{src.kind}|{src.members}"
    key = hashlib.sha256(f"{src.sha256}|{fmt.name}|{shash}|{__version__}|{KEY_SCHEMA}|{place}".encode()).hexdigest()
    return Ident(src, fmt, key, by)
