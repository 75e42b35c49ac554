"""ScienceWorld's own modules: they read its sentences (bct/worlds/scienceworld/text.py)."""
