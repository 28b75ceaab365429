"""Do the lowest versions pyproject.toml allows still run railchat? Builds a throwaway virtual
environment with every runtime dependency pinned to its declared minimum (`>=X` becomes `==X`),
installs railchat beside them without letting pip upgrade them, and runs the tests that touch
each dependency (Discord, store, String Railway geometry, rendering).

Run: python benchmarks/check_minimum_versions.py [--keep DIR]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
import tomllib
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = [
    "tests/test_discord.py",
    "tests/test_discord_wire.py",
    "tests/test_discord_wire_components.py",
    "tests/test_store.py",
    "tests/test_db_copy.py",  # PostgreSQL too, when RAILCHAT_TEST_POSTGRES is set
    "tests/test_string_rules.py",
    "tests/test_render_map.py",
    "tests/test_render_market.py",
    "tests/test_render_strings.py",
]


def minimums() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    pins = []
    for requirement in project["dependencies"]:
        found = re.match(r"^([A-Za-z0-9_.\-]+(?:\[[^\]]*\])?)\s*>=\s*([0-9][^,;\s]*)", requirement)
        if found is None:
            raise SystemExit(f"no lower bound to check in {requirement!r}")
        pins.append(f"{found[1]}=={found[2]}")
    return pins


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", type=Path, help="build the environment here and keep it")
    args = parser.parse_args()
    folder = args.keep or Path(tempfile.mkdtemp(prefix="railchat-minimums-"))
    venv.create(folder, with_pip=True)
    python = str(folder / "bin" / "python")
    pins = minimums()
    print("pinned:", ", ".join(pins), flush=True)
    test_tools = ["pytest", "pytest-asyncio", "hypothesis", "pytest-benchmark"]
    subprocess.run([python, "-m", "pip", "install", "-q", *pins, *test_tools], check=True)
    subprocess.run([python, "-m", "pip", "install", "-q", "--no-deps", "-e", str(ROOT)], check=True)
    return subprocess.run(
        [python, "-m", "pytest", "-q", "-p", "no:cacheprovider", *TESTS], cwd=ROOT
    ).returncode


if __name__ == "__main__":
    sys.exit(main())
