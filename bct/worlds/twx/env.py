"""TextWorldExpress's environment behind bct's world interface (`GameEnv`: reset, step, gold actions)."""

from __future__ import annotations

import re

from bct.core.errors import CannotMake
from bct.core.game import Game, GameState, check_fold
from bct.core.java import check_java, kill_gateway


class TWXEnv:
    """One TextWorldExpress game in its own JVM (its valid-action list is cheap and complete: always listed). A
    game is a function of its seed whatever the JVM did before: `reproducible` holds always."""

    def __init__(self, game: Game, step_limit: int = 1000, list_actions: bool = True, reproducible: bool = True):
        from textworld_express import TextWorldExpressEnv

        check_java()
        self.game = game
        self.twx = TextWorldExpressEnv(envStepLimit=step_limit)
        self.twx.load(game.world_game, game.params)

    def reset(self, seed: int, fold: str = "train", gold: bool = True) -> GameState:
        check_fold(fold)
        try:
            obs, infos = self.twx.reset(seed=seed, gameFold=fold, generateGoldPath=gold)
        except Exception as e:  # TWX refuses some parameter pairs per game (15 rooms cannot lie 8 apart)
            try:
                text = str(e)
            except Exception:  # py4j could not read the Java exception back
                text = ""
            # its generator's own refusal ("ERROR: ...") or a crash while making the game (50-room maps)
            found = re.search(r"ERROR: ([^\n]+)", text) or re.search(r"generateNewGameJSON\.\s*:\s*([^\n]+)", text)
            if not found:
                raise
            raise CannotMake(
                f"TextWorldExpress cannot make {self.game.name} ({self.game.params or 'defaults'}), "
                f"{fold} seed {seed}: {found.group(1).strip()}; choose other game.params"
            ) from None
        return state(obs, infos)

    def step(self, action: str) -> GameState:
        obs, _, _, infos = self.twx.step(action)
        return state(obs, infos)

    def gold_actions(self) -> list[str]:
        return list(self.twx.getGoldActionSequence())

    def kill(self) -> None:
        """End a JVM that died or hangs, without waiting for it to answer."""
        kill_gateway(self.twx._gateway)

    def close(self) -> None:
        self.twx.close()
        try:  # let the JVM exit, so that TWX's own clean-up at garbage collection finds nothing to do
            self.twx._gateway.java_process.wait(timeout=10)
        except Exception:
            pass


def state(obs: str, infos: dict) -> GameState:
    return GameState(
        task=infos["taskDescription"],
        observation=obs,
        look=infos["look"],
        inventory=infos["inventory"],
        valid_actions=list(infos["validActions"]),
        score=float(infos["score"]),
        done=bool(infos["tasksuccess"] or infos["taskfailure"] or infos["score"] >= 1.0),
        success=bool(infos["tasksuccess"] or infos["score"] >= 1.0),
    )
