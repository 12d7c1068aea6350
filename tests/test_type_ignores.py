"""The application's ``# type: ignore``s: few, each with its reason, and as many as the design page says.

mypy reports an ignore in the application that no longer silences anything (pyproject.toml,
``warn_unused_ignores``); this file checks the rest of the claim in docs/ARCHITECTURE.md ("Adding
things", a new test): the count written there is the count in the code, and every ignore says why,
after it on its line or on the line above (``# why the ignore below: ...``)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APPLICATION = ["engine", "render", "gm", "cogs", "db", "ops", "bot.py", "config.py"]
IGNORE = re.compile(r"#\s*type:\s*ignore\[[^\]]+\](?P<after>.*)$")
CEILING = 20


def ignores(root: Path = ROOT) -> list[tuple[str, int, str, str]]:
    """(file, line number, the line, the line above) of every ignore in the application."""
    found = []
    for name in APPLICATION:
        path = root / name
        if not path.exists():
            continue
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            lines = file.read_text(encoding="utf-8").splitlines()
            for number, line in enumerate(lines, 1):
                if IGNORE.search(line):
                    above = lines[number - 2] if number > 1 else ""
                    found.append((str(file.relative_to(root)), number, line, above))
    return found


def has_reason(line: str, above: str) -> bool:
    match = IGNORE.search(line)
    assert match is not None
    return bool(re.match(r"\s*#\s*\S", match["after"])) or above.strip().startswith("# why the ignore below:")


def test_every_ignore_of_the_application_says_why() -> None:
    silent = [f"{file}:{number}" for file, number, line, above in ignores() if not has_reason(line, above)]
    assert silent == [], f"type: ignore without its reason: {silent}"


def test_the_design_page_gives_the_count_and_it_stays_small() -> None:
    page = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    written = re.search(r"the application holds (\d+) `# type: ignore", page)
    assert written, "docs/ARCHITECTURE.md no longer says how many ignores the application holds"
    count = len(ignores())
    assert count == int(written[1]), f"docs/ARCHITECTURE.md says {written[1]}, the code holds {count}"
    assert count <= CEILING


def test_the_reason_check_tells_a_silent_ignore(tmp_path: Path) -> None:
    (tmp_path / "gm").mkdir()
    (tmp_path / "gm" / "x.py").write_text(
        "a = 1  # type: ignore[misc]\n"
        "b = 2  # type: ignore[misc]  # the reason\n"
        "# why the ignore below: the reason\n"
        "c = 3  # type: ignore[misc]\n"
    )
    found = ignores(tmp_path)
    assert [has_reason(line, above) for _, _, line, above in found] == [False, True, True]
