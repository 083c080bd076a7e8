"""Write an inferred layout as a Kaitai Struct spec (YAML text).

Every integer goes through :func:`animre.spec.numbers.ksy_int` (the
compiler's YAML reader turns integers of 2^31 and more into floats).
"""

from __future__ import annotations

import yaml

from ..spec.numbers import ksy_int
from ._limits import MIN_ARRAY
from ._model import Field, Layout, Region

__all__ = ["to_ksy"]


class _Hex(bytes):
    """Magic bytes written as a flow list of hex numbers (``[0x1f, 0x8b]``), as the gallery writes them."""


def _hex(dumper: yaml.SafeDumper, data: _Hex):
    return dumper.represent_sequence("tag:yaml.org,2002:seq", [_HexInt(b) for b in data], flow_style=True)


class _HexInt(int):
    pass


def _hexint(dumper: yaml.SafeDumper, data: _HexInt):
    return dumper.represent_scalar("tag:yaml.org,2002:int", f"0x{int(data):02x}")


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(_Hex, _hex)
_Dumper.add_representer(_HexInt, _hexint)


def _field(f: Field, endian: str) -> dict:
    d: dict = {"id": f.name}
    if f.role == "magic" and isinstance(f.value, list):  # one of a few texts (IWAD or PWAD)
        d.update({"type": "str", "size": f.width, "encoding": "ASCII",
                  "valid": {"any-of": [f'"{bytes(v).decode("ascii")}"' for v in f.value]}})
    elif f.role == "magic":  # as the gallery writes it: a string where it is text, hex bytes otherwise
        text = bytes(f.value)
        d["contents"] = (text.decode("ascii") if all(0x20 <= b < 0x7F for b in text) and text.strip()
                         else _Hex(text))
    elif (f.role == "raw" or f.type is None) and isinstance(f.value, str):  # a size the record says
        d["size"] = f.value
    elif f.role == "raw" or f.type is None:
        d["size"] = f.width
    elif f.type == "str":
        # text in every file seen; ISO-8859-1 reads any byte, so a next file with a byte past ASCII still parses
        d.update({"type": "str", "size": f.width, "encoding": "ISO-8859-1", "pad-right": 0})
    else:
        t = f.type
        if t.endswith(endian) and not t.startswith("b"):  # a bit-sized integer's own order is not meta/endian
            t = t[:-2]
        d["type"] = t
        if f.role == "const":  # documented, never enforced: the next file may hold another value
            pass
        elif f.role == "file_size":
            k = f.k
            expr = "_root._io.size" + (f" + {k}" if k > 0 else f" - {-k}" if k < 0 else "")
            d["valid"] = {"expr": f"_ == {expr}" + (" or _ == 0" if f.value == 0 else "")}  # 0: left unset
    d["doc"] = f.evidence or f.role
    return d


def _region(r: Region, endian: str) -> dict:
    d: dict = {"pos": r.start if isinstance(r.start, str) else ksy_int(r.start)}
    if r.absolute:
        d = {"io": "_root._io", **d}
    if r.kind == "records" and r.per and r.record is not None:  # records that fill a region of a size field
        d.update({"size": r.size, "type": f"{r.record.name}_table"})
    elif r.kind in ("records", "chain") and r.record is not None:
        d.update({"type": r.record.name, "repeat": "expr", "repeat-expr": r.count_expr})
    elif r.kind == "records":
        d.update({"size": r.stride, "repeat": "expr", "repeat-expr": r.count_expr})
    elif r.kind == "str":  # ISO-8859-1 reads any byte: a next file's name with a byte past ASCII still parses
        d.update({"type": "str", "size": r.size, "encoding": "ISO-8859-1"})
    elif r.kind == "strz":
        d.update({"type": "strz", "encoding": "ISO-8859-1"})
    elif r.count is not None and r.stride == 1:
        d["size"] = r.count
    elif isinstance(r.start, str) and not isinstance(r.size, str) and r.size:
        # a peek at what an offset points at: up to that many bytes, fewer where the next file ends sooner
        io = "_root._io" if r.absolute else "_io"
        o, k = r.start, int(r.size)
        d["size"] = f"{io}.size < {o} + {k} ? ({io}.size > {o} ? {io}.size - {o} : 0) : {k}"
    else:
        d["size"] = r.size if isinstance(r.size, str) else ksy_int(r.size or 0)
    d["doc"] = r.evidence
    return d


def _seq(fields: list[Field], endian: str) -> list[dict]:
    """The seq entries of ``fields``; a run of :data:`MIN_ARRAY` or more adjacent plain integers or floats of
    one type is one array field (``type: f4, repeat: expr, repeat-expr: 5``), its evidence per element kept
    (said once when every element has the same)."""
    out, i = [], 0
    while i < len(fields):
        f, j = fields[i], i + 1
        if f.role in ("int", "float") and f.type:
            while (j < len(fields) and fields[j].type == f.type and fields[j].role == f.role
                   and fields[j].offset == fields[j - 1].end):
                j += 1
        if j - i >= MIN_ARRAY:
            d = _field(f, endian)
            evs = [g.evidence or g.role for g in fields[i:j]]
            each = evs[0] if len(set(evs)) == 1 else "; ".join(f"[{k}] {x}" for k, x in enumerate(evs))
            d.update({"id": f"{f.name}_arr", "repeat": "expr", "repeat-expr": j - i,
                      "doc": f"{j - i} x {d['type']} in a row (offsets 0x{f.offset:x}..0x{fields[j - 1].end:x}); "
                             + each})
            out.append(d)
        else:
            out.extend(_field(g, endian) for g in fields[i:j])
        i = j
    return out


def _type(lay: Layout, endian: str, types: dict) -> dict:
    t: dict = {"seq": _seq(lay.fields, endian)}
    if lay.variants:
        t["seq"].append({"id": "body", "type": {"switch-on": lay.tag,
                                                "cases": {int(k): v.name for k, v in lay.variants.items()}},
                         "doc": f"one layout per value of {lay.tag}"})
        for v in lay.variants.values():
            types[v.name] = _type(v, endian, types)
    inst = {r.name: _region(r, endian) for r in lay.regions}
    if inst:
        t["instances"] = inst
    for r in lay.regions:
        if r.record is not None:
            types[r.record.name] = _type(r.record, endian, types)
        if r.record is not None and r.per:
            types[f"{r.record.name}_table"] = {"seq": [{"id": "records", "type": r.record.name, "repeat": "eos",
                                                         "doc": f"records of {r.per} bytes to the end of {r.name}"}]}
    return t


def _to_the_end(t: dict, lay: Layout) -> None:
    """Raw bytes that end a type read from the file's own stream run to the end of the file: they ran to the end
    of the shortest file seen, and the next file may be shorter or longer (``size-eos``)."""
    last = t["seq"][-1] if t["seq"] else None
    if last is not None and "size" in last and "type" not in last and not lay.variants and lay.fields \
            and lay.fields[-1].role == "raw":
        last.pop("size")
        last["size-eos"] = True
        last["doc"] += f" (to the end of the file: {lay.fields[-1].width} bytes in the shortest file seen)"


def to_ksy(lay: Layout, *, name: str, n_files: int, doc: str = "", extension: str | None = None) -> str:
    """The spec text of a layout; ``extension``: the suffix every file seen shares (``meta/file-extension``, so
    that the spec claims the folder's files by their name where it has no magic to claim them by).

    Examples
    --------
    >>> from animre.infer._model import Field, Layout
    >>> lay = Layout("x", 6, [Field(0, 2, None, "magic", "m", value=b"AB", name="magic"),
    ...                       Field(2, 4, "u4le", "file_size", "= file size in 5/5 files", name="len_file")])
    >>> print(to_ksy(lay, name="x", n_files=5).split("seq:")[1])
    <BLANKLINE>
    - id: magic
      contents: AB
      doc: m
    - id: len_file
      type: u4
      valid:
        expr: _ == _root._io.size
      doc: = file size in 5/5 files
    <BLANKLINE>
    """
    endian = lay.endian
    types: dict = {}
    root = _type(lay, endian, types)
    _to_the_end(root, lay)
    for v in lay.variants.values():  # a variant's body is read from the file's stream: its last bytes too
        _to_the_end(types[v.name], v)
    spec: dict = {
        "meta": {"id": name, "title": f"{name} (inferred by animre from {n_files} files)", "endian": endian,
                 **({"file-extension": extension} if extension else {})},
        "doc": doc or f"A first spec inferred by animre from {n_files} files; every field's doc states its evidence.",
    }
    spec.update(root)
    if types:
        spec["types"] = types
    return yaml.dump(spec, Dumper=_Dumper, sort_keys=False, width=1000, allow_unicode=True)
