"""The environment each documented deployment gives the bot, computed the way its supervisor does
(no Docker engine and no systemd here: their documented precedence, from their manuals):

- ``docker run --env-file .env IMAGE``: the image's ``ENV``, then the file's lines (Docker: "--env-file
  ... read in a file of environment variables"; values set at run time override the image's ``ENV``).
- compose: the image's ``ENV``, then ``env_file:``, then ``environment:`` (Compose's "Environment
  variables precedence": ``environment`` > ``env_file`` > the image's ``ENV``), with ``${VAR}``,
  ``${VAR:-default}`` and ``${VAR:?error}`` taken from the project's ``.env``.
- systemd: ``Environment=`` lines, then ``EnvironmentFile=`` (man systemd.exec: "Settings from these
  files override settings made with Environment=").

Env files are read as both read them: ``NAME=value`` lines, ``#`` comments and blank lines skipped,
the value kept as written after the first ``=`` (an empty value sets the variable to "", which is
not the same as leaving it out). Used by tests/test_deploy_env.py and scripts/deploy_trial.sh.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def read_env_file(text: str) -> dict[str, str]:
    """An env file as Docker's ``--env-file`` and systemd's ``EnvironmentFile=`` read it."""
    values: dict[str, str] = {}
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, value = line.partition("=")
        if not sep:
            continue  # Docker would pass a bare NAME from its own environment: none here
        value = value.strip()
        if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
            value = value[1:-1]  # systemd strips quotes (Docker does not: .env.example has none)
        values[name.strip().removeprefix("export ").strip()] = value
    return values


def image_env(dockerfile: str) -> dict[str, str]:
    """The ``ENV`` of a Dockerfile (``ENV A=1 \\`` continued lines, ``ENV A 1`` too), in order."""
    joined = re.sub(r"\\\n", " ", dockerfile)
    values: dict[str, str] = {}
    for line in joined.splitlines():
        if not line.startswith("ENV "):
            continue
        words = shlex.split(line[4:])
        if words and "=" not in words[0]:
            values[words[0]] = " ".join(words[1:])
            continue
        for word in words:
            name, _, value = word.partition("=")
            values[name] = value
    return values


def docker_run_env(dockerfile: str, env_file: str) -> dict[str, str]:
    """``docker run --env-file .env``: the file's values over the image's."""
    return {**image_env(dockerfile), **read_env_file(env_file)}


def _interpolate(value: str, variables: dict[str, str]) -> str:
    def one(match: re.Match[str]) -> str:
        name, op, arg = match[1], match[2], match[3] or ""
        have = variables.get(name, "")
        if op == ":?" and not have:
            raise ValueError(f"compose refuses to start: {arg}")
        if op == ":-" and not have:
            return arg
        return have

    return re.sub(r"\$\{([A-Z_][A-Z0-9_]*)(?:(:\?|:-)([^}]*))?\}", one, value)


def compose_service(compose: str, service: str) -> dict[str, object]:
    """A service's ``env_file`` and ``environment`` from a compose file (the small YAML this
    project writes: block mappings, ``KEY: value`` pairs, comments)."""
    lines = compose.splitlines()
    start = next(i for i, line in enumerate(lines) if line.rstrip() == f"  {service}:")
    found: dict[str, object] = {}
    environment: dict[str, str] = {}
    in_environment = False
    for line in lines[start + 1 :]:
        if line.strip() == "" or line.lstrip().startswith("#"):
            continue
        indent = len(line) - len(line.lstrip())
        if indent <= 2:
            break
        text = re.sub(r"\s+#.*$", "", line.strip())
        if indent == 4:
            in_environment = text == "environment:"
            if text.startswith("env_file:"):
                found["env_file"] = text.split(":", 1)[1].strip()
        elif in_environment and indent == 6:
            name, _, value = text.partition(":")
            environment[name.strip()] = value.strip().strip('"')
    found["environment"] = environment
    return found


def compose_env(dockerfile: str, compose: str, env_file: str) -> dict[str, str]:
    """``docker compose up``'s environment for the bot: image ``ENV`` < ``env_file`` < ``environment``,
    ``${...}`` interpolated from the project's .env (the same file here)."""
    service = compose_service(compose, "bot")
    variables = read_env_file(env_file)
    environment = service["environment"]
    assert isinstance(environment, dict)
    given = {k: _interpolate(v, variables) for k, v in environment.items()}
    file_values = read_env_file(env_file) if service.get("env_file") == ".env" else {}
    return {**image_env(dockerfile), **file_values, **given}


def unit_env(unit: str, environment_file: str) -> dict[str, str]:
    """systemd's environment for the unit's ExecStart: ``Environment=`` then ``EnvironmentFile=``
    (the file wins)."""
    values: dict[str, str] = {}
    for line in unit.splitlines():
        if line.startswith("Environment="):
            for word in shlex.split(line.removeprefix("Environment=")):
                name, _, value = word.partition("=")
                values[name] = value
    return {**values, **read_env_file(environment_file)}


def unit_lines(unit: str, key: str) -> list[str]:
    """The values of ``key=`` lines of a unit file (``ExecStartPre``, ``ExecStart`` ...), in order."""
    return [line.split("=", 1)[1] for line in unit.splitlines() if line.startswith(f"{key}=")]


def relocated(env: dict[str, str], moves: dict[str, Path]) -> dict[str, str]:
    """``env`` with the deployment's absolute directories (``/data``) moved under a test's own
    (``tmp/data``), in paths and in SQLite URLs alike."""
    out = {}
    for name, value in env.items():
        for old, new in moves.items():
            value = re.sub(rf"(?<![\w.]){re.escape(old)}(?=/|$)", str(new), value)
        out[name] = value
    return out
