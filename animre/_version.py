"""The version of animre (a module of its own: everything may import it, it imports nothing)."""

__version__ = "0.1.0"
