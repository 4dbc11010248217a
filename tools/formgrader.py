"""`make formgrader`: nbgrader's formgrader, for grading written answers by hand.

It runs JupyterLab in the course's folder as the user who grades (root is fine: grading runs as root),
on this machine's loopback only, and prints the address to open, with its token: on a machine without
a screen, forward the port (``ssh -L PORT:127.0.0.1:PORT host``) and open it from your own browser.
Formulas are typeset by the MathJax that Jupyter serves itself (the pinned jupyter-server-mathjax), so
the pages work offline; beside each written answer the formgrader shows the model answer and the grading
note of the solution notebook (``nbgrader_ext.ShowModelAnswers``; never in students' feedback).

    python tools/formgrader.py [--port 8890] [--browser]
"""

from __future__ import annotations

import argparse
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from nbgrader_ext import formgrader_jupyter_path  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent

EXCHANGE = "/srv/nbgrader/exchange"  # the exchange make hub-release and hub-collect use by default


def free_port(preferred: int) -> int:
    for port in (preferred, 0):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return s.getsockname()[1]
    raise SystemExit("no free port on 127.0.0.1")


def command(port: int, token: str, browser: bool, root: Path = ROOT) -> list[str]:
    args = [str(Path(sys.executable).parent / "jupyter"), "lab", f"--ServerApp.root_dir={root}",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
            f"--IdentityProvider.token={token}",
            f"--LabApp.app_settings_dir={ROOT / 'lab-config' / 'settings'}",
            "--KernelSpecManager.allowed_kernelspecs=mlcourse"]
    # The hub's exchange where make hub-release made one; else (a platform's zip) an empty one of the
    # course's own, so the formgrader does not warn about an exchange the zip route never uses.
    exchange = Path(EXCHANGE)
    if not exchange.is_dir():
        exchange = root / "build" / "exchange"
        exchange.mkdir(parents=True, exist_ok=True)
    args.append(f"--Exchange.root={exchange}")
    if not browser:
        args.append("--no-browser")
    if os.geteuid() == 0:
        args.append("--allow-root")
    return args


def environment(root: Path = ROOT) -> dict:
    """This Python's bin/ first on PATH (nbgrader calls alembic); the formgrade template's MathJax first
    on JUPYTER_PATH (nbgrader_ext.formgrader_jupyter_path)."""
    paths = [str(formgrader_jupyter_path(root)), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    return dict(os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
                JUPYTER_PATH=os.pathsep.join(paths))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8890, help="the port to use if free (else any free one)")
    parser.add_argument("--browser", action="store_true", help="open a browser on this machine too")
    args = parser.parse_args(argv)
    if not (ROOT / "nbgrader_config.py").is_file():
        sys.exit(f"{ROOT} has no nbgrader_config.py: run make formgrader in the course's folder")
    port, token = free_port(args.port), secrets.token_hex(16)
    url = f"http://127.0.0.1:{port}/formgrader?token={token}"
    print(f"The formgrader, for grading written answers: {url}\n"
          f"  (JupyterLab is at http://127.0.0.1:{port}/lab?token={token}; on a machine without a screen, forward the "
          f"port first: ssh -L {port}:127.0.0.1:{port} <this machine>)\n"
          "  Stop it with Ctrl-C. Then make feedback and make export.", flush=True)
    try:
        sys.exit(subprocess.call(command(port, token, args.browser), cwd=ROOT, env=environment()))
    except KeyboardInterrupt:
        sys.exit(0)


if __name__ == "__main__":
    main()
