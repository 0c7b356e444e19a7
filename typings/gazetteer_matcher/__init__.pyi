# Type stubs for the part of gazetteer-matcher Intent Router uses (it ships no types).
