"""TextWorld's generated games (Microsoft's TextWorld, PyPI `textworld`): cooking, coin collector, treasure hunter."""
