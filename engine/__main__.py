"""Command line: ``python -m engine adjudicate [FILE]``.

Reads one JSON request (DESIGN.md, "engine: the contract") from FILE or standard input and writes
the result as one JSON object on standard output. A request that cannot be used at all (not JSON,
unknown phase, power or province) gives ``{"error": "..."}`` on standard output, the same message
on standard error, and exit status 1; bad orders are never an error, they come back as invalid.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TextIO

from engine.adjudication import adjudicate_json
from engine.board import BoardError


def _fail(message: str, out: TextIO) -> int:
    json.dump({"error": message}, out)
    out.write("\n")
    print(f"engine: {message}", file=sys.stderr)
    return 1


def adjudicate_command(source: TextIO, out: TextIO, indent: int | None) -> int:
    """Run one adjudication from ``source`` to ``out``; returns the exit status."""
    try:
        request = json.load(source)
    except json.JSONDecodeError as exc:
        return _fail(f"the input is not valid JSON: {exc}", out)
    try:
        result = adjudicate_json(request)
    except (BoardError, ValueError, TypeError) as exc:
        return _fail(f"cannot adjudicate this request: {exc}", out)
    json.dump(result, out, indent=indent, ensure_ascii=False)
    out.write("\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="The Diplomacy rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    adj = commands.add_parser(
        "adjudicate",
        help="adjudicate one phase: JSON request in, JSON result out (see DESIGN.md)",
    )
    adj.add_argument("file", nargs="?", help="the request as a JSON file (default: standard input)")
    adj.add_argument("--indent", type=int, default=None, help="pretty-print the output")
    args = parser.parse_args(argv)
    if args.file:
        try:
            with open(args.file, encoding="utf-8") as source:
                return adjudicate_command(source, sys.stdout, args.indent)
        except OSError as exc:
            return _fail(f"cannot read {args.file}: {exc.strerror}", sys.stdout)
    return adjudicate_command(sys.stdin, sys.stdout, args.indent)


if __name__ == "__main__":
    sys.exit(main())
