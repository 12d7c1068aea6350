"""Command line: ``python -m engine adjudicate [FILE]``.

Reads one JSON request (docs/ARCHITECTURE.md, "The engine's contract") from FILE or standard input and writes
the result as one JSON object on standard output. A request that cannot be used at all (not JSON, a
wrong shape, an unknown phase, power or province) gives ``{"error": "..."}`` on standard output, the
same message on standard error, and exit status 1, never a traceback; bad orders are never an
error, they come back as invalid.
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


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def adjudicate_command(source: TextIO, out: TextIO, indent: int | None) -> int:
    """Run one adjudication from ``source`` to ``out``; returns the exit status.

    Whatever the input, the answer is a result or ``{"error": ...}``: a request the engine
    refuses says why (BoardError), and anything else (a bug) is reported the same way rather
    than as a traceback, so a caller reading standard output always gets one JSON object.
    """
    try:
        try:
            request = json.load(source)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            return _fail(f"the input is not valid JSON: {exc}", out)
        except RecursionError:
            return _fail("the input is not valid JSON: it is nested too deeply", out)
        except ValueError as exc:  # a number longer than Python reads (4,300 digits), and the like
            return _fail(f"the input cannot be read: {str(exc).split(';')[0]}", out)
        try:
            result = adjudicate_json(request)
        except BoardError as exc:
            return _fail(f"cannot adjudicate this request: {exc}", out)
        text = json.dumps(result, indent=indent, ensure_ascii=False)
        if not _encodable(text):  # a lone surrogate from the input: written as a JSON escape instead
            text = json.dumps(result, indent=indent)
    except Exception as exc:  # a bug: still one JSON object out, and the status says it failed
        return _fail(f"internal error ({type(exc).__name__}: {exc}); please report it with the request", out)
    out.write(text + "\n")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description="The Diplomacy rules engine.")
    commands = parser.add_subparsers(dest="command", required=True)
    adj = commands.add_parser(
        "adjudicate",
        help="adjudicate one phase: JSON request in, JSON result out (see docs/ARCHITECTURE.md)",
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
