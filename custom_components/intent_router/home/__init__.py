"""Home Assistant facts and storage: what the home has and what is kept."""
