"""TextWorld's own modules: they read its sentences (bct/worlds/textworld/text.py)."""
