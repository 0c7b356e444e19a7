"""Which devices the words point at: the one target resolver, for every path.

The candidates of a kind in the place meant and what must be named
(placed.py), the lamp rule and the other narrowing by what devices are
called (called.py), a command's targets as a plan from the words takes
them (commanded.py), and the groups the model is offered (grouped.py).
Local plans, the grounding of any plan, the model's options, questions
about the home and the checks of Home Assistant's own match call these;
none of them chooses devices by rules of its own.
"""
