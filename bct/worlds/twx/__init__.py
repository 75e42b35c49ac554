"""TextWorldExpress: its games, its environment, its gold paths, the planner, and its fixed sentences."""
