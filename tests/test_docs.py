"""The README stays a short page for users whose test command is CI's, and no link in the
README or the docs points at nothing."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


def test_the_readme_is_short_and_its_test_command_is_what_ci_runs():
    readme = (ROOT / "README.md").read_text()
    assert len(readme.splitlines()) < 200
    blocks = re.findall(r"```sh\n(.+?)\n```", readme)
    assert blocks[0] == "pip install -e . && railchat"
    ci = [
        line
        for line in (ROOT / ".ci" / "run").read_text().splitlines()
        if line.startswith("pip install")
    ]
    assert ci == [blocks[1]]


def test_every_link_in_the_readme_and_the_docs_leads_somewhere():
    pages = [ROOT / "README.md", ROOT / "CHANGELOG.md", *(ROOT / "docs").glob("*.md")]
    missing = []
    for page in pages:
        for target in LINK.findall(page.read_text()):
            if "://" not in target and not (page.parent / target).exists():
                missing.append(f"{page.relative_to(ROOT)}: {target}")
    assert missing == []
