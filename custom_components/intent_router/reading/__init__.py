"""Reading an utterance: its values, senses, names, places and mentions."""
