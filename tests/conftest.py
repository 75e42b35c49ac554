import pytest

from bct.env import ModularEnv
from bct.games import get_game


@pytest.fixture(scope="session")
def envs():
    """One TWX environment (one JVM) per (game, with modules), shared by the whole test session."""
    cache = {}

    def get(game: str, modules: bool = True) -> ModularEnv:
        key = (game, modules)
        if key not in cache:
            g = get_game(game)
            cache[key] = ModularEnv(g, [g.module] if modules else [])
        return cache[key]

    yield get
    for env in cache.values():
        env.close()
