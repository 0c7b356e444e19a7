"""Tests for the Intent Router integration."""
