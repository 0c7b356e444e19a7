"""Hand-run benchmarks of Intent Router (see README.md in this folder)."""
