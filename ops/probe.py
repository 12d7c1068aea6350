"""The Docker image's health check: ask the running bot's /healthz (HEALTH_PORT, HEALTH_HOST) and
exit 0 when it answers 200, 1 otherwise, printing its answer. Standard library only, so that it
starts fast every interval::

    python -m ops.probe
"""

from __future__ import annotations

import os
import sys
import urllib.error
import urllib.request

TIMEOUT = 10.0


def main() -> int:
    port = os.environ.get("HEALTH_PORT", "").strip()
    if not port.isdigit() or int(port) == 0:
        print("HEALTH_PORT is not set: the bot serves no /healthz", file=sys.stderr)
        return 1
    host = os.environ.get("HEALTH_HOST", "").strip() or "127.0.0.1"
    host = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    url = f"http://{host}:{port}/healthz"
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT) as answer:
            print(answer.read().decode().strip())
            return 0
    except urllib.error.HTTPError as exc:
        print(exc.read().decode(errors="replace").strip() or exc, file=sys.stderr)
    except (urllib.error.URLError, OSError) as exc:
        print(f"{url} did not answer: {exc}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
