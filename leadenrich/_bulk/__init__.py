"""Bulk enrichment: many leads, bounded concurrency, a checkpoint, streamed outcomes."""
