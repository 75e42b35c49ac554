"""TextWorldExpress's own modules: they read its sentences (bct/worlds/twx/text.py) or hold its knowledge."""
