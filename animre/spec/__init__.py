"""The spec layer: a ``.ksy`` to a parser, and what the kit reads from a spec.

- :mod:`.compiler`: the pinned official Kaitai compiler (npm, run by Node.js
  through ``ksc.js``) in debug mode; the shipped parsers in ``animre/parsers``;
- :mod:`.source`: a spec as a file, its imports resolved as the compiler does,
  its compiled parser cached by hash;
- :mod:`.parse`: parse bytes with a compiled parser; :mod:`.failures`: where a
  parse failed (field path and offset) and which instances fail;
- :mod:`.streams`: where every stream of a parse lies; :mod:`.ranges`: the
  absolute byte range of every field (the one place ranges come from);
- :mod:`.model`: the types and fields of a spec, one model for every caller;
- :mod:`.expr`: Kaitai expressions written out as Python (filters, value
  instances, claims, hypotheses);
- :mod:`.signature`: magic and constants at fixed offsets (detection);
- :mod:`.numbers`, :mod:`.patch`: numbers written into a spec, and spec edits
  as patches that keep comments and formatting.
"""

from .compiler import compile_all, compile_spec, load_parser
from .model import SpecModel, load_spec
from .source import SpecSource, read_spec

__all__ = ["compile_all", "compile_spec", "load_parser", "load_spec", "read_spec", "SpecModel", "SpecSource"]
