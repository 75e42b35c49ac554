"""ScienceWorld: its 30 science tasks as games, its environment, its gold paths and its sentences."""
