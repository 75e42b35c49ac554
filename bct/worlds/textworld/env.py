"""TextWorld's environment behind bct's world interface (`GameEnv`): one generated game a reset, in this process."""

from __future__ import annotations

from bct.core.game import Game, GameState, check_fold
from bct.worlds.textworld import text
from bct.worlds.textworld.make import game_file


class TextWorldEnv:
    """A TextWorld challenge at one level: each reset plays the game made from that seed (made where not cached). Its
    valid-action list (TextWorld's admissible commands) is cheap and complete: always listed. A game is made from its
    seed alone: `reproducible` holds always."""

    def __init__(self, game: Game, step_limit: int = 1000, list_actions: bool = True, reproducible: bool = True):
        self.game = game
        self.env, self.infos = None, {}

    def reset(self, seed: int, fold: str = "train", gold: bool = True) -> GameState:
        import textworld
        from textworld.envs.wrappers import Filter

        check_fold(fold)
        self.close()
        wanted = textworld.EnvInfos(
            admissible_commands=True,
            score=True,
            max_score=True,
            won=True,
            lost=True,
            description=True,
            inventory=True,
            objective=True,
            extras=["walkthrough"],
        )
        self.env = textworld.start(str(game_file(self.game, seed)), wanted, wrappers=[Filter])
        observation, self.infos = self.env.reset()
        return self._state(observation, done=False)

    def step(self, action: str) -> GameState:
        observation, _, done, self.infos = self.env.step(action)
        return self._state(observation, done)

    def _state(self, observation: str, done: bool) -> GameState:
        i = self.infos
        won, lost = bool(i.get("won")), bool(i.get("lost"))
        return GameState(
            task=i["objective"].strip(),
            observation=text.clean(observation),
            look=text.clean(i["description"]),
            inventory=i["inventory"].strip(),
            valid_actions=list(i.get("admissible_commands") or []),
            score=i["score"] / i["max_score"] if i["max_score"] else 0.0,
            done=bool(done or won or lost),
            success=won,
        )

    def gold_actions(self) -> list[str]:
        return list(self.infos["extra.walkthrough"])

    def kill(self) -> None:
        self.close()

    def close(self) -> None:
        if self.env is not None:
            self.env.close()
            self.env = None
