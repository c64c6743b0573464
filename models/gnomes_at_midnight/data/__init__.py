"""Bundled Gnomes at Midnight editions (TOML)."""
