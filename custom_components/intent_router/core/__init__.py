"""The records and words every layer stands on."""
