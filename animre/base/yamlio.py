"""YAML text to Python values, by libyaml's C loader where PyYAML was built with it.

Every spec the kit reads (the shipped ones at the registry's first use, a
user's at each edit) goes through here: the pure-Python loader took about a
second to read the shipped specs, a tenth of a cold scan of 10,000 small
files. The C loader gives the same values (both implement YAML 1.1's safe
schema); the pure-Python one is the fallback when libyaml is absent.

>>> load("meta: {id: a}\\nseq: [{id: x, type: u1}]")
{'meta': {'id': 'a'}, 'seq': [{'id': 'x', 'type': 'u1'}]}
"""

from __future__ import annotations

import yaml

__all__ = ["YAMLError", "load"]

YAMLError = yaml.YAMLError
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load(text):
    """The value of one YAML document (``yaml.safe_load``'s, read by the fastest safe loader at hand)."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader: CSafeLoader or SafeLoader
