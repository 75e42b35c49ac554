"""The package's imports point down one stack (docs/internals.md, "Layout"), with no cycle."""

import ast
from pathlib import Path

import bct

PACKAGE = Path(bct.__file__).parent

# Bottom to top; a module imports only from its own layer or those below.
LAYERS = [
    ["errors", "files", "threads", "text", "resume"],  # basics
    ["games", "modules", "env", "planner", "gold"],  # games and modules
    ["prompt", "entities", "representation", "tokenizer", "data", "runs", "generate", "validation", "settings"],
    ["model", "decoding"],  # model
    ["trainset", "training", "agents", "rollout", "evaluate", "results"],  # training, evaluation and its results
    # jobs, tuning, reports and sharing
    ["job", "train", "tune", "report", "report_html", "compare", "generalize", "twx_table", "show", "share"],
]


def top(module: str) -> str:
    """bct.agents.t5 -> agents; bct.modules.calc -> modules."""
    return module.split(".")[1]


def imports() -> dict[str, set[str]]:
    """Each bct module's imports of other bct modules, at any depth (function-level imports included)."""
    graph = {}
    for path in PACKAGE.rglob("*.py"):
        name = ".".join(("bct", *path.relative_to(PACKAGE).with_suffix("").parts)).removesuffix(".__init__")
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("bct"):
                found.add(node.module)
                found.update(f"{node.module}.{a.name}" for a in node.names)
            elif isinstance(node, ast.Import):
                found.update(a.name for a in node.names if a.name.startswith("bct"))
        graph[name] = found
    return {m: {d for d in deps if d in graph and d != m} for m, deps in graph.items()}


def test_every_module_has_a_layer():
    placed = {m for layer in LAYERS for m in layer}
    tops = {top(m) for m in imports() if m != "bct"}
    assert tops == placed, (tops - placed, placed - tops)


def test_imports_point_down_the_layers():
    layer = {m: i for i, names in enumerate(LAYERS) for m in names}
    upward = [
        f"{m} imports {d}"
        for m, deps in imports().items()
        if m != "bct"
        for d in deps
        if d != "bct" and layer[top(d)] > layer[top(m)]
    ]
    assert not upward


def test_no_import_cycle():
    graph = imports()
    state, cycles = {}, []

    def visit(m, path):
        state[m] = "open"
        for d in sorted(graph[m]):
            if state.get(d) == "open" and not m.startswith(d + "."):  # a package importing its own parts is no cycle
                cycles.append(" -> ".join([*path[path.index(d) :], d]) if d in path else f"{m} -> {d}")
            elif d not in state:
                visit(d, [*path, d])
        state[m] = "done"

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    assert not cycles
