"""The model: its client, the prompt, and the planner that asks it."""
