"""Records of a table: their rows for the solver, and what the solver's fields of them are read as together
(offset and size pairs that tile the file, the table's offset column)."""

from __future__ import annotations

import numpy as np

from ._limits import MAX_RECORD_WIDTH, MAX_RECORDS, MAX_RECORDS_PER_FILE
from ._model import Field, Layout, Region, field_name
from ._rows import Rows, field_values
from ._sample import Sample
from ._values import segment

__all__ = ["record_rows", "offset_size_pairs", "lay_out_offset_column"]

def record_rows(samples: list[Sample], rows: Rows, start: np.ndarray, count: np.ndarray, stride: int) -> Rows:
    """Every record of every file as a row (at most ``MAX_RECORD_WIDTH`` bytes of it, a bounded number per file)."""
    data, fs, base, fl = [], [], [], []
    per_file = max(1, min(MAX_RECORDS_PER_FILE, MAX_RECORDS // max(1, rows.n)))
    for i in range(rows.n):
        s = samples[int(rows.file[i])]
        k = int(min(count[i], per_file, max(0, (1 << 16) // stride)))
        blob = s.window(int(start[i]), k * stride)
        for j in range(len(blob) // stride):
            data.append(blob[j * stride:(j + 1) * stride][:MAX_RECORD_WIDTH])
            fs.append(s.size)
            base.append(int(start[i]) + j * stride)
            fl.append(int(rows.file[i]))
    return Rows.of(data, fs, base, fl, header=False)


def offset_size_pairs(rows: Rows, fields: list[Field], regions: list[Region]) -> None:
    """In records: an offset and a size whose regions tile the file: ``(offset, size)`` pairs."""
    offs = [f for f in fields if f.role == "offset"]
    ints = [f for f in fields if f.role == "int"]
    for o in offs:
        ov = field_values(rows, o)
        for s in ints:
            sv = field_values(rows, s)
            if (ov + sv > rows.fsize).any() or len(np.unique(sv)) < 3:
                continue
            order = np.lexsort((ov, rows.file))
            same = rows.file[order][1:] == rows.file[order][:-1]
            gap = ov[order][1:] - (ov[order][:-1] + sv[order][:-1])
            if same.sum() < 3 or (gap[same] < 0).any() or np.median(gap[same]) > 8:
                continue
            s.role, s.evidence = "size", (f"size of the bytes at {field_name(o)}: the regions follow each other "
                                          f"without overlap in {rows.n}/{rows.n} records")
            s.name = field_name(s)
            for r in regions:
                if r.start == field_name(o):
                    r.kind, r.size = "bytes", s.name
            break


def lay_out_offset_column(lay: Layout, rr: Rows, column: tuple[int, int], endian: str) -> None:
    """The records' offset column as one field of its width (3 bytes: ``b24``, the byte above it a field of its
    own, as a 24-bit offset with a format byte in the top 8), the bytes it overlapped laid out again."""
    j, width = column
    if j + width > rr.width:
        return
    hit = [f for f in lay.fields if f.offset < j + width and j < f.end]
    if len(hit) == 1 and hit[0].offset == j and hit[0].width == width:
        hit[0].role = "offset"
        return
    lo, hi = min([j] + [f.offset for f in hit]), max([j + width] + [f.end for f in hit])
    for f in hit:
        lay.fields.remove(f)
    kind = f"b{8 * width}{endian}" if width == 3 else f"u{width}{endian}"
    new = [Field(j, width, kind, "offset", f"an offset past the table's end into the file in {rr.n}/{rr.n} records "
                 "(a last record of zeros aside), growing record after record", rr.n, rr.n, name=f"ofs_0x{j:02x}")]
    cache: dict = {}
    for a, b in ((lo, j), (j + width, hi)):
        if b > a:
            new += segment(rr, a, b, endian, cache, ints=True)
    for f in new:
        f.name = f.name or field_name(f)
    lay.fields = sorted(lay.fields + new, key=lambda f: f.offset)
