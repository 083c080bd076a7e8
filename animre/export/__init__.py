"""The export layer: tables and findings to CSV, Markdown (wiki-ready), Parquet, Excel, JSON; animations.

- :func:`write_tables` (also ``export``): tables or findings in several formats, atomically;
- :func:`wiki_table`: a format-wiki field table of a corpus table;
- :func:`export_animation`: RGBA frames to an animated GIF or APNG (:func:`animation_bytes`: the bytes).

Examples
--------
>>> import animre.export as m
>>> m.wiki_table.__name__, m.write_tables is m.export
('wiki_table', True)
"""

from .adopt import Adoption, apply_suggestions
from .animation import animation_bytes, export_animation, image_bytes
from .tables import EXPORT_FORMATS, WRITERS, export, to_markdown, write_tables
from .wiki import wiki_table

__all__ = ["Adoption", "apply_suggestions",
           "write_tables", "export", "wiki_table", "export_animation", "animation_bytes", "image_bytes", "to_markdown",
           "WRITERS", "EXPORT_FORMATS"]
