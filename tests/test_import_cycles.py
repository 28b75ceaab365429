"""engine/, render/ and bot/ have no import cycle, module-level or inside functions, as the
shared tool (../shared/tools/import_cycles.py) finds them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOL = ROOT.parent / "shared" / "tools" / "import_cycles.py"
PACKAGES = ("engine", "render", "bot")


def _cycles(root: Path, *packages: str) -> subprocess.CompletedProcess[str]:
    if not TOOL.is_file():
        pytest.skip(f"the import-cycle tool is absent: no {TOOL} beside the checkout")
    return subprocess.run(
        [sys.executable, str(TOOL), str(root), *packages],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_no_package_has_an_import_cycle() -> None:
    found = _cycles(ROOT, *PACKAGES)
    assert found.returncode == 0, found.stdout + found.stderr
    assert found.stdout.strip().endswith("0 cycles, 0 modules in cycles, largest 0")


def test_the_tool_reports_a_cycle(tmp_path: Path) -> None:
    """The check above can fail: two modules that import each other are reported."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from pkg import b\n")
    (pkg / "b.py").write_text("def f():\n    from pkg.a import f\n")
    found = _cycles(tmp_path, "pkg")
    assert found.returncode == 1
    assert "cycle of 2: pkg.a, pkg.b" in found.stdout
