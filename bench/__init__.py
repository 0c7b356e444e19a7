"""Hand-run benchmarks of Intent Router (see accuracy.py and overhead.py)."""
