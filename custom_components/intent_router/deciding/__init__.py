"""Deciding what was meant: grounding, plans, the gate, answers and a turn's facts."""
