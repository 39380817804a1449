"""The game loop at commit e2892b9 (see ``benchmarks/frozen/__init__.py``)."""
