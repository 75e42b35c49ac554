"""The folders show the layers, and imports point down them with no cycle (docs/internals.md, "Layout")."""

import ast
from pathlib import Path

import bct
from bct.worlds.registry import FOLDERS

PACKAGE = Path(bct.__file__).parent

# Bottom to top: a module imports only from its own layer or those below (docs/internals.md, "Layout").
LAYERS = [
    ["core"],  # errors, files, threads, resume, locks, reading text; what a game is (Game, GameState, GameEnv)
    ["modules"],  # the module interface (Module, ModularEnv) and the modules that know no world
    ["worlds"],  # game families, each one folder with its own modules, and the registry over them
    ["data"],  # prompt packing, entities, data sets, gold data
    ["config"],  # settings and run identity
    ["seq2seq"],  # model, tokenizer, decoding, training
    ["agents"],  # agents and the rollout
    ["jobs"],  # evaluation, train-then-evaluate, tuning, variants
    ["reports"],  # results read back, tables, HTML, show, share
    # the commands, thin entry points
    ["generate", "train", "evaluate", "tune", "generalize", "report", "compare", "show", "share"],
]
# Inside the worlds layer, bottom to top (the longest matching prefix places a module): the interface and a world's
# games, sentences, environment and results tables; its own modules, which read those sentences; its gold paths and planner, which
# drive modules; the registry of worlds; gold paths of any world.
WORLDS = list(FOLDERS)
# a world's modules that drive modules
DRIVERS = ("gold", "searches", "paints", "plants", "measures", "policy", "world")
WORLD_LAYERS = [
    [
        "bct.worlds.base",
        "bct.worlds.tales",  # tale-suite's environments behind GameEnv (protocol=tales)
        *(
            f"bct.worlds.{w}.{m}"
            for w in WORLDS
            for m in ("games", "text", "check", "objects", "env", "tales", "report")
        ),
    ],
    [f"bct.worlds.{w}.modules" for w in WORLDS],
    [*(f"bct.worlds.{w}.{m}" for w in WORLDS for m in DRIVERS)],
    ["bct.worlds.registry"],
    ["bct.worlds.gold"],
]
MAX_ENTRY_POINTS = 12  # Python files directly in bct/
MAX_FUNCTION_LINES = 99


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


def world_layer(module: str) -> int | None:
    """The inner layer of a module of bct.worlds (None for a package's __init__ or elsewhere): a world's module that no
    list names (its environment's helpers) is in the bottom one, with its games, text and environment."""
    found = [
        (len(p), i) for i, names in enumerate(WORLD_LAYERS) for p in names if module == p or module.startswith(p + ".")
    ]
    if not found and module.split(".")[:3] in ([*"bct.worlds".split("."), w] for w in WORLDS):
        return 0
    return max(found)[1] if found else None


def test_worlds_point_down_their_inner_layers():
    graph = imports()
    packages = {"bct", "bct.worlds", *(f"bct.worlds.{w}" for w in WORLDS), *(f"bct.worlds.{w}.modules" for w in WORLDS)}
    inner = [m for m in graph if m not in packages and top(m) == "worlds"]
    assert all(world_layer(m) is not None for m in inner), [m for m in inner if world_layer(m) is None]
    upward = [
        f"{m} imports {d}"
        for m in inner
        for d in graph[m]
        if world_layer(d) is not None and world_layer(d) > world_layer(m)
    ]
    assert not upward


def test_the_folder_shows_the_layers():
    """`ls bct/` is the entry points and the layer folders; a package's __init__ holds no code."""
    files = sorted(p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__")
    assert len(files) + 1 <= MAX_ENTRY_POINTS and set(files) == set(LAYERS[-1]), files
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == {name for layer in LAYERS[:-1] for name in layer}, folders
    for init in PACKAGE.rglob("__init__.py"):
        if init.parent != PACKAGE and init.parent.name not in ("agents", "modules"):  # registries: make_agent, MODULES
            body = [n for n in ast.parse(init.read_text()).body if not isinstance(n, ast.Expr)]
            assert not body, f"{init} holds code; a package's __init__ is its docstring"


def test_a_world_s_folder_is_imported_only_by_itself_and_the_registry():
    """A game family is one folder: the rest of bct reaches it through the `World` it registers."""
    outside = {
        f"{m} imports {d}"
        for m, deps in imports().items()
        for d in deps
        if d.startswith("bct.worlds.") and (w := d.split(".")[2]) in WORLDS
        if not m.startswith(f"bct.worlds.{w}") and m != "bct.worlds.registry"
    }
    assert not outside


def test_only_the_twx_folder_knows_textworld_express():
    knows = []
    for path in PACKAGE.rglob("*.py"):
        if path.parent.name == "twx" or "textworld_express" not in path.read_text():
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            named = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            named += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            named += [node.value] if isinstance(node, ast.Constant) and isinstance(node.value, str) else []
            if any(n.split(".")[0] == "textworld_express" for n in named):
                knows.append(str(path.relative_to(PACKAGE)))
    assert not knows


def test_no_function_is_100_lines_or_longer():
    long = [
        f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({node.end_lineno - node.lineno + 1} lines)"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    ]
    assert not long
