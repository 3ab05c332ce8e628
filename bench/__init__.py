"""Benchmarks (issue 6); see bench/run.py and docs/performance.md."""
