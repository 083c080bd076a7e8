"""The widgets' CSS: the hex view's cells and highlight, key/value tables and the compare grid.

Examples
--------
>>> HEX_CSS.startswith("<style>") and ".animre-hex .hl" in HEX_CSS
True
"""

__all__ = ["HEX_CSS"]

HEX_CSS = """<style>
.animre-hex {font-family: monospace; font-size: 12px; line-height: 1.35; white-space: pre;}
.animre-hex .o {color: #888;}
.animre-hex .hl {background: #ffd54f; color: #000; font-weight: bold;}
.animre-hex .a {color: #555;}
.animre-kv td, .animre-kv th {padding: 1px 8px; text-align: left; font-family: monospace; font-size: 12px;}
.animre-grid td, .animre-grid th {padding: 1px 5px; font-family: monospace; font-size: 11px; text-align: right;}
.animre-grid td.diff {background: #d1495b; color: #fff; font-weight: bold;}
.animre-grid td.absent {background: #eee;}
</style>"""
