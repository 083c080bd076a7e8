"""The export layer: tables and findings to CSV, Markdown (wiki-ready), Parquet, Excel, JSON; animations.

- :func:`write_tables` (also ``export``): tables or findings in several formats, atomically;
- :func:`wiki_table`: a format-wiki field table of a corpus table;
- :func:`export_animation`: RGBA frames to an animated GIF or APNG (:func:`animation_bytes`: the bytes).

``animre.export`` is this package. Calling it as a function (``animre.export(tables, folder)``, the
name of earlier releases) still works for one release and warns; call
``animre.export.write_tables`` instead.

Examples
--------
>>> import animre.export as m
>>> m.wiki_table.__name__, m.write_tables is m.export
('wiki_table', True)
"""

import sys
import types
import warnings

from .animation import animation_bytes, export_animation, image_bytes
from .tables import EXPORT_FORMATS, WRITERS, export, to_markdown, write_tables
from .wiki import wiki_table

__all__ = ["write_tables", "export", "wiki_table", "export_animation", "animation_bytes", "image_bytes", "to_markdown",
           "WRITERS", "EXPORT_FORMATS"]


class _CallableModule(types.ModuleType):
    """This package, callable as the function ``export`` of earlier releases (with a DeprecationWarning)."""

    def __call__(self, *args, **kwargs):
        warnings.warn("animre.export(...) as a function is deprecated: call animre.export.write_tables(...)",
                      DeprecationWarning, stacklevel=2)
        return write_tables(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
