"""Format-specific decoders that a Kaitai spec cannot express (pixels, packed floats)."""
