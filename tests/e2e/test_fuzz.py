"""Hostile input: mutated samples end in a result or an animre ParseError, never anything else.

Fixed seed in CI; ``ANIMRE_FUZZ_EXAMPLES=5000 make fuzz`` runs a longer campaign.
"""

from __future__ import annotations

import contextlib
import os
import resource
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import animre
from animre.base.errors import ParseError
from animre.formats import all_formats
from animre.spec.ranges import walk
from animre.tables.flattener import flatten
from animre.tables.read import parse, plan_of

EXAMPLES = int(os.environ.get("ANIMRE_FUZZ_EXAMPLES", "60"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))


REAL_ORIGINALS = {"flc": ["flic/standard/2422.flc"], "bk": ["omf/openomf.bk"]}  # read in place


def _types_in(obj, bases) -> set[str]:
    """Class names of every record in a parsed tree."""
    seen = {type(obj).__name__}
    for f in walk(obj, bases, values=False):
        if f.kind == "struct":
            v = f.obj.__dict__.get(f.name, f.obj.__dict__.get(f"_m_{f.name}"))
            if isinstance(v, list):
                v = v[f.index]
            seen.add(type(v).__name__)
    return seen


@pytest.fixture(scope="module")
def originals(sample_corpus, samples_dir, real_or_none):
    """Per format, the smallest and the median sample plus files that reach the remaining types.

    The originals together hold a record of every type their spec defines
    (checked by ``test_originals_reach_every_type``), so mutations reach them all.
    """
    files = sample_corpus.files[sample_corpus.files.ok]
    out = {}
    for fmt, g in files.groupby("format"):
        g = g.sort_values("size")
        cands = [(f, sample_corpus.read_bytes(f)) for f in g.file]  # archive members: from their container
        if real_or_none is not None:  # real files reach types the samples do not (checked below)
            cands += [(r, (real_or_none / r).read_bytes()) for r in REAL_ORIGINALS.get(fmt, [])]
        picks = [cands[0], cands[len(g) // 2]]
        seen = set()
        for name, data in picks:
            _, obj, bases = parse(data, name, fmt)
            seen |= _types_in(obj, bases)
        for name, data in cands:  # greedy: add a file only for types not reached yet
            _, obj, bases = parse(data, name, fmt)
            new = _types_in(obj, bases) - seen
            if new:
                picks.append((name, data))
                seen |= new
        out[fmt] = list(dict(picks).items())
    return out


def test_originals_reach_every_type(originals, realdata):
    from animre.spec.compiler import KSY_DIR
    from animre.tables.fields import spec_types

    for fmt, picks in originals.items():
        spec = all_formats()[fmt].spec
        defined = set(spec_types((KSY_DIR / f"{spec}.ksy").read_text()))
        imported_roots = {"OmfCommon"}  # a spec imported only for its types has no root record
        seen = set()
        for name, data in picks:
            _, obj, bases = parse(data, name, fmt)
            seen |= _types_in(obj, bases)
        assert defined - imported_roots - seen == set(), (fmt, sorted(defined - seen))


def _allowance(data: bytes) -> int:
    """The memory a parse of ``data`` may take: in proportion to the file size, plus a constant."""
    return 200 * len(data) + 16_000_000


def _address_space() -> int | None:
    """This process's virtual address space in bytes (Linux), or None where it cannot be read."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[0]) * resource.getpagesize()
    except (OSError, ValueError, IndexError):
        return None


@contextlib.contextmanager
def _memory_bounded(data: bytes, name: str):
    """No allocation out of proportion to the file size inside the block.

    On Linux the address space is capped (``RLIMIT_AS``) at what the process
    holds plus :func:`_allowance`: an allocation past it fails at once with a
    MemoryError, reported as the failure. That costs two system calls a parse;
    tracing every allocation (``tracemalloc``, the fallback elsewhere) makes
    each parse 3 to 5 times slower.
    """
    held = _address_space()
    if held is None or not hasattr(resource, "RLIMIT_AS"):
        tracemalloc.start()
        try:
            yield
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < _allowance(data), (name, peak, len(data))
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    cap = held + _allowance(data)
    resource.setrlimit(resource.RLIMIT_AS, (cap if hard == resource.RLIM_INFINITY else min(cap, hard), hard))
    try:
        yield
    except MemoryError:
        raise AssertionError(f"{name}: a parse of {len(data)} bytes asked for more than "
                             f"{_allowance(data):,} bytes of memory") from None
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _parse_ok_or_parse_error(data: bytes, name: str, fmt: str | None):
    """Parse and tabulate; only ParseError may escape. Memory stays in proportion to the file size."""
    with _memory_bounded(data, name):
        try:
            f, obj, bases = parse(data, name, fmt)
            flatten(obj, bases, plan_of(f))
        except ParseError as e:
            assert e.file == name
            assert str(e).startswith(f"{name}: ")
            assert isinstance(e.offset, int) and e.offset >= 0


def test_every_format_has_samples(originals):
    assert set(originals) == set(all_formats()), "every format must take part in the fuzzing"


@pytest.mark.parametrize("fmt", sorted(all_formats()))
def test_truncation_at_every_field_boundary(fmt, originals):
    for name, data in originals.get(fmt, []):
        _, obj, bases = parse(data, name, fmt)
        fields = animre.tables.fields_table(obj, name, bases, values=False)
        cuts = sorted(set(fields.start.dropna().astype(int)) | set(fields.end.dropna().astype(int)))
        if len(cuts) > 250:  # large files: the header boundaries and an even spread over the rest
            cuts = sorted(set(cuts[:50]) | {cuts[i] for i in np.linspace(0, len(cuts) - 1, 200).astype(int)})
        for cut in cuts:
            if cut < len(data):
                _parse_ok_or_parse_error(data[:cut], f"{name}@{cut}", fmt)


COUNT_WORDS = ("num_", "len_", "ofs_", "size", "count", "offset", "_ofs", "_len", "_size")
# formats whose spec has no count, size or offset field at all (a fixed layout)
FIXED_LAYOUT = {"pal": "KB.PAL is 256 fixed colours: no count, size or offset to attack"}


@pytest.mark.parametrize("fmt", sorted(all_formats()))
def test_counts_and_offsets_set_to_hostile_values(fmt, originals):
    if fmt in FIXED_LAYOUT:
        pytest.skip(FIXED_LAYOUT[fmt])
    for name, data in originals.get(fmt, []):
        _, obj, bases = parse(data, name, fmt)
        f = animre.tables.fields_table(obj, name, bases, values=False)
        f = f[(f["kind"] == "value") & f["type"].str.match(r"^[us][1248]") & f.start.notna()]
        f = f[f["name"].str.contains("|".join(COUNT_WORDS))]
        assert len(f), f"{name}: no count/offset fields found to attack"
        if len(f) > 60:  # an even spread, always including the first (header) fields
            f = f.iloc[np.unique(np.r_[np.arange(min(20, len(f))), np.linspace(0, len(f) - 1, 40).astype(int)])]
        tried = {data}  # a mutation that gives bytes already tried (1-byte fields, 0 in both orders) is not repeated
        for r in f.itertuples():
            s, e = int(r.start), int(r.end)
            width = e - s
            for value in (2**32 - 1, 2**31, 2**16 - 1, 0, s, len(data) + 1):
                v = value % (1 << (8 * width))
                for order in ("little", "big"):
                    m = bytearray(data)
                    m[s:e] = v.to_bytes(width, order)
                    if bytes(m) not in tried:
                        tried.add(bytes(m))
                        _parse_ok_or_parse_error(bytes(m), f"{name}:{r.path}={value}", fmt)


@pytest.mark.parametrize("fmt", sorted(all_formats()))
@seed(2097)
@FUZZ
@given(data=st.data())
def test_random_mutations(fmt, originals, data):
    name, orig = data.draw(st.sampled_from(originals[fmt]))
    buf = bytearray(orig)
    for _ in range(data.draw(st.integers(1, 8))):
        kind = data.draw(st.sampled_from(["flip", "byte", "word", "cut", "insert", "delete"]))
        if not buf:
            break
        i = data.draw(st.integers(0, len(buf) - 1))
        if kind == "flip":
            buf[i] ^= 1 << data.draw(st.integers(0, 7))
        elif kind == "byte":
            buf[i] = data.draw(st.integers(0, 255))
        elif kind == "word":
            buf[i:i + 4] = data.draw(st.sampled_from([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff",
                                                      b"\x00\x00\x00\x00", b"\xff\xff\xff\x7f"]))
        elif kind == "cut":
            del buf[i:]
        elif kind == "insert":
            buf[i:i] = data.draw(st.binary(min_size=1, max_size=16))
        else:
            del buf[i:i + data.draw(st.integers(1, 64))]
    _parse_ok_or_parse_error(bytes(buf), name, fmt)


@seed(2097)
@FUZZ
@given(blob=st.binary(min_size=0, max_size=4096))
def test_random_bytes_with_detection(blob):
    try:
        _parse_ok_or_parse_error(blob, "random.bin", None)
    except ParseError:
        pass


def test_corpus_with_corrupted_files_loads_good_ones_identically(samples_dir, sample_corpus, tmp_path):
    import shutil

    import pandas as pd

    rng = np.random.default_rng(7)
    on_disk = sample_corpus.files[sample_corpus.files.container.isna()]  # archives are corrupted whole
    good = on_disk[on_disk.ok].file.tolist()
    bad = set(rng.choice(good, size=max(1, len(good) // 10), replace=False))
    clean_dir, dirty_dir = tmp_path / "clean", tmp_path / "dirty"
    for f in good:
        for d in (clean_dir, dirty_dir):
            (d / f).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(samples_dir / f, clean_dir / f)
        data = (samples_dir / f).read_bytes()
        if f in bad:  # corrupt: truncate to a third and flip a byte
            data = bytearray(data[: max(1, len(data) // 3)])
            data[len(data) // 2] ^= 0xFF
            (dirty_dir / f).write_bytes(bytes(data))
        else:
            shutil.copy(samples_dir / f, dirty_dir / f)
    clean = animre.open_corpus(clean_dir, cache=False)
    dirty = animre.open_corpus(dirty_dir, cache=False)
    # a corrupted archive is one error row (its directory) or an error row per member it damaged
    in_bad = {f for f in dirty.errors.file if f not in bad and any(f.startswith(b + "/") for b in bad)}
    # a file whose format is told by its exact size (a 768-byte palette) is no longer recognised: skipped
    skipped = set(dirty.files.loc[dirty.files.status == "skipped", "file"]) & bad
    assert sorted((set(dirty.errors.file) | skipped) - in_bad) == sorted(bad)
    assert dirty.errors.file.is_unique

    def affected(files):
        return files.isin(bad) | files.map(lambda f: any(f.startswith(b + "/") for b in bad))

    for t, df in clean.tables.items():
        if t == "files":
            continue
        keep = df[~affected(df.file)].reset_index(drop=True)
        got = dirty.tables.get(t, pd.DataFrame(columns=df.columns))
        got = got[~affected(got.file)].reset_index(drop=True)
        pd.testing.assert_frame_equal(keep, got, check_dtype=False)


def test_real_malformed_fli_gives_error(realdata):
    c = animre.open_corpus(realdata / "flic" / "malformed", cache=False)
    assert len(c.errors) == 1
    e = c.errors.iloc[0]
    assert e.file == "fli_overflow.fli" and e.format == "flc" and e.offset >= 0 and e.path


# ------------------------------------------------------------------ containers (AGG, zip, PAK, disc images)

CONTAINER_SAMPLES = {"agg": ("agg/HEROES2.AGG",), "zip": ("zip/CIV3UNITS.ZIP",), "pak": ("pak/Metroid1.pak",),
                     "gcdisc": ("gcdisc/ANIMRE.gcm",),
                     # the compressed copies share one budget of examples: each example draws one of them
                     "gcdisc_compressed": ("gcdisc/ANIMRE.rvz", "gcdisc/ANIMRE.wia", "gcdisc/ANIMRE.gcz",
                                           "gcdisc/ANIMRE.ciso")}
# header and tables (zip: the whole file); RVZ/WIA: headers 1 and 2 and the entry tables; CISO: its block map
DIRECTORY_END = {".AGG": 2 + 12 * 16, ".pak": 0x100, ".gcm": 0x2700, ".rvz": 0x300, ".wia": 0x300,
                 ".gcz": 32 + 12, ".ciso": 0x8000}


def _sources_ok_or_errors(data: bytes, name: str) -> None:
    """List a (mutated) archive like a scan does: every entry is fine or carries a ParseError naming it."""
    import tempfile
    from pathlib import Path

    from animre.sources import list_sources

    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / name).write_bytes(data)
        tracemalloc.start()
        try:
            _, src = list_sources(tmp)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
    assert src and src[0].name == name
    for x in src:
        if x.error is not None:
            assert isinstance(x.error, ParseError) and x.error.file.startswith(name)
            assert x.error.offset >= 0 and str(x.error).startswith(f"{x.error.file}: ")
    assert peak < 200 * len(data) + 16_000_000, (name, peak, len(data))


@pytest.mark.parametrize("kind", sorted(CONTAINER_SAMPLES))
@seed(2097)
@FUZZ
@given(data=st.data())
def test_random_mutations_of_archives(kind, samples_dir, data):
    path = data.draw(st.sampled_from(CONTAINER_SAMPLES[kind]))
    buf = bytearray((samples_dir / path).read_bytes())
    directory = DIRECTORY_END.get(path[path.rindex("."):], len(buf))  # aim at the directory half of the time
    for _ in range(data.draw(st.integers(1, 6))):
        kind_of = data.draw(st.sampled_from(["flip", "word", "cut", "tail"]))
        if not buf:
            break
        hi = len(buf) - 1 if data.draw(st.booleans()) else min(len(buf) - 1, directory)
        i = data.draw(st.integers(0, hi))
        if kind_of == "flip":
            buf[i] ^= 1 << data.draw(st.integers(0, 7))
        elif kind_of == "word":
            buf[i:i + 4] = data.draw(st.sampled_from([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff",
                                                      b"\x00\x00\x00\x00", b"\x00\x00\x00\x01"]))
        elif kind_of == "cut":
            del buf[i:]
        else:  # damage the end: AGG names, zip central directory
            j = max(0, len(buf) - 1 - data.draw(st.integers(0, 200)))
            buf[j] = data.draw(st.integers(0, 255))
    _sources_ok_or_errors(bytes(buf), path.split("/")[-1])
