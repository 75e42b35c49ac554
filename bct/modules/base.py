"""What every symbolic module is: a command grammar, passive observation and an answer."""

from __future__ import annotations


class Module:
    """A symbolic module. Subclasses set `name`, `verbs` and `usage`, and implement the hooks.

    The environment calls `observe` with every observation, look and inventory it produces;
    `commands` lists the commands the module offers now (they join the valid actions); `run`
    answers a command the module owns. `run` never raises on bad arguments: it answers with a
    message that says what was wrong.
    """

    name: str = ""
    verbs: tuple[str, ...] = ()  # first words of the commands this module owns
    usage: str = ""

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything observed (a new episode starts)."""

    def observe(self, observation: str, look: str, inventory: str) -> None:
        """Scrape what the agent sees; called after every environment step."""

    def acted(self, action: str) -> None:
        """The agent took `action` (a game action or another module's command); called before its answer."""

    def heard(self, action: str, answer: str) -> None:
        """Another module answered the agent's `action` with `answer` (the agent reads it as its observation)."""

    def given(self, task: str) -> None:
        """The task of the episode that starts (the agent reads it too)."""

    def scored(self, score: float) -> None:
        """The game's score after the latest game step (the agent sees it too)."""

    def commands(self) -> list[str]:
        """Commands offered to the agent now."""
        return []

    def remembered(self) -> list[str]:
        """A working memory's facts in natural language, for an agent that reads them before each step
        (the LLM agent, after seed 004); [] for a module that keeps none."""
        return []

    def owns(self, action: str) -> bool:
        words = action.strip().lower().split()
        return bool(words) and any(words[: len(v.split())] == v.split() for v in self.verbs)

    def run(self, action: str) -> str:
        raise NotImplementedError

    def bad_usage(self, problem: str) -> str:
        return f"{problem} Usage: {self.usage}"


def quote(text: str, limit: int = 40) -> str:
    """An argument echoed back in an answer, cut short: answers stay short whatever the agent sends."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
