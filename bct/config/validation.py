"""Settings checked against their schema: a bad value, key or type is one line naming the key, the value
and what is allowed (bct.config.settings' commands use it; pydantic's own message is many lines)."""

from __future__ import annotations

from omegaconf import OmegaConf
from pydantic import BaseModel, ValidationError

from bct.core.errors import UserError

# a folder's name inside checkpoint_dir, never a path out of it
PLAIN_NAME = r"^[\w-][\w.-]*$"
PATTERNS = {PLAIN_NAME: "a plain folder name (letters, digits, '.', '-', '_'), not a path"}
COMPLETE = {"complete": True}  # validation context: the values are a whole composed config


def validate(values: dict, schema: type[BaseModel]):
    """`values` checked against `schema`, or a one-line UserError naming the first bad key."""
    values = {k: v for k, v in values.items() if k != "hydra"}
    try:
        return schema.model_validate(values, context=COMPLETE)
    except ValidationError as e:
        raise UserError(one_line(e, schema)) from None


def one_line(e: ValidationError, schema: type[BaseModel], prefix: str = "") -> str:
    """The first of `e`'s errors in one line, its key written as on the command line (`prefix`: where `schema` sits
    in the config, e.g. `agent.`)."""
    errors = e.errors()
    union = [x for x in errors if x["loc"] and x["loc"][:-1] == errors[0]["loc"][:-1] and _branch(x["loc"][-1])]
    if len(union) > 1:  # a value that fits no type of a union (modules: true, false or all)
        key = prefix + ".".join(str(p) for p in errors[0]["loc"][:-1])
        shown = OmegaConf.to_yaml({"v": errors[0].get("input")}).strip()[3:]
        allowed = [
            "true or false" if x["type"].startswith("bool") else x.get("ctx", {}).get("expected", "").replace("'", "")
            for x in union
        ]
        return f"{key}={shown}: choose {' or '.join(a for a in allowed if a)}"
    return _message(schema, errors[0], prefix)


def _branch(part) -> bool:
    """Whether a location part names a union's branch (pydantic: `bool`, `literal['all']`), not a key."""
    return isinstance(part, str) and (part in ("bool", "int", "str", "float") or part.startswith("literal["))


_EXPECTED = {
    "int": "a whole number",
    "float": "a number",
    "bool": "true or false",
    "string": "a string",
    "list": "a list",
    "dict": "a mapping",
}


def _message(schema: type[BaseModel], error: dict, prefix: str = "") -> str:
    loc = tuple(p for p in error["loc"] if not (isinstance(p, str) and p.startswith("function-")))
    key = prefix + ".".join(str(p) for p in loc)
    kind, ctx = error["type"], error.get("ctx", {})
    if kind == "value_error":  # a rule across settings (a model validator's own sentence)
        return (f"{key}: " if key else "") + error["msg"].removeprefix("Value error, ")
    if kind == "extra_forbidden":
        return f"unknown setting '{key}'; see 'python -m bct.<command> --cfg job' for the settings"
    if kind == "missing":
        return f"{key} is not set; give it on the command line ({key}=...) or in the config"
    shown = OmegaConf.to_yaml({"v": error.get("input")}).strip()[3:]  # as written on a command line
    if kind == "string_pattern_mismatch":
        return f"{key}={shown}: must be {PATTERNS.get(ctx.get('pattern'), 'a name of another form')}"
    if kind == "literal_error":
        return f"{key}={shown}: choose one of {ctx['expected'].replace(chr(39), '').replace(' or ', ', ')}"
    for bound, words in (("ge", "at least"), ("gt", "above"), ("le", "at most"), ("lt", "below")):
        if bound in ctx:
            limit = ctx[bound]
            limit = int(limit) if isinstance(limit, float) and limit.is_integer() else limit
            why = _description(schema, loc)
            return f"{key}={shown}: must be {words} {limit}" + (f" ({why})" if why and bound == "le" else "")
    base = kind.split("_")[0]
    return f"{key}={shown}: must be {_EXPECTED.get(base, 'another value')}"


def _description(schema: type[BaseModel], loc: tuple) -> str | None:
    field = None
    for part in loc:
        if not (isinstance(schema, type) and issubclass(schema, BaseModel)) or part not in schema.model_fields:
            return None
        field = schema.model_fields[part]
        schema = field.annotation
    return field.description if field else None
