"""Checks of the variant data under data/variants (made by scripts/convert_variant.py)."""
