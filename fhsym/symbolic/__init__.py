"""Symbolic layer: the paper's formulas (definitions), stable forms (stable), nodes (special)."""
