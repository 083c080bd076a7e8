"""The hex view: a file's bytes as cells, each with its absolute offset, the selected range highlighted."""

from __future__ import annotations

import html

from .css import HEX_CSS

__all__ = ["hex_view"]


def hex_view(data: bytes, start: int | None = None, end: int | None = None, *, context: int = 4,
             max_lines: int = 64, width: int = 16, base: int = 0) -> str:
    """HTML hex dump of ``data`` around ``[start, end)`` with exactly those bytes highlighted.

    Every byte cell carries ``data-o="<absolute offset>"``; highlighted cells
    also have the class ``hl``. Shows ``context`` lines before and after the
    range, at most ``max_lines`` lines. ``data`` may be a window of a larger
    file: ``base`` is the offset of its first byte.

    Examples
    --------
    >>> h = hex_view(bytes(range(32)), 3, 5)
    >>> import re
    >>> [int(o) for o in re.findall(r'class="b hl" data-o="(\\d+)"', h)]
    [3, 4]
    """
    n = base + len(data)
    first = base // width
    if start is None or end is None:
        lo_line, hi_line = first, min(first + max_lines, (n + width - 1) // width)
        start = end = -1
    else:
        lo_line = max(first, start // width - context)
        hi_line = min((n + width - 1) // width, (max(end, start + 1) - 1) // width + 1 + context)
        hi_line = min(hi_line, lo_line + max_lines)
    out = [HEX_CSS, '<div class="animre-hex">']
    for line in range(lo_line, hi_line):
        row = line * width
        cells, chars = [], []
        for o in range(row, row + width):
            if o >= n or o < base:
                cells.append("  ")
                chars.append(" ")
                continue
            b = data[o - base]
            hl = start <= o < end
            cells.append(f'<span class="b{" hl" if hl else ""}" data-o="{o}">{b:02X}</span>')
            c = chr(b) if 32 <= b < 127 else "."
            chars.append(f'<span class="a{" hl" if hl else ""}">{html.escape(c)}</span>')
        out.append(f'<span class="o">{row:08X}</span>  ' + " ".join(cells) + "  " + "".join(chars))
    if end > 0 and (hi_line * width) < end:
        out.append(f"<i>... range continues to 0x{end:X} ({end - hi_line * width} more bytes)</i>")
    out.append("</div>")
    return "\n".join(out)
