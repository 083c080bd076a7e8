"""The base layer: what every layer uses (errors, the one formatter, atomic writes, folders, plugin discovery)."""
