"""Which devices the words point at: the one target resolver, for every path.

The candidates of a kind in the place meant and what must be named
(placed.py). The grounding of any plan, the model's options, the states
sent to it and questions about the home call these; none of them chooses
devices by rules of its own.
"""
