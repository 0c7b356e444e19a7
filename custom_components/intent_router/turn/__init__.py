"""A turn: from the utterance heard to the reply said."""
