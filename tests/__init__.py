"""Test suite of the Diplomacy gamemaster (a package so tests can import shared helpers)."""
