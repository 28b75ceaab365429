"""Where the renderer finds DejaVu Sans: the folders systems install it in, fontconfig, or the
folder RAILCHAT_FONT_DIR names; a machine without it is told how to install it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from render import fonts


def test_the_font_folder_can_be_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for bold in (False, True):
        shutil.copy(fonts.font_file(bold), tmp_path)
    monkeypatch.setenv("RAILCHAT_FONT_DIR", str(tmp_path))
    assert fonts.font_file(False) == tmp_path / "DejaVuSans.ttf"
    assert fonts.font_file(True) == tmp_path / "DejaVuSans-Bold.ttf"


def test_fontconfig_finds_it_outside_the_known_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAILCHAT_FONT_DIR", raising=False)
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    if shutil.which("fc-match") is None:
        pytest.skip("fontconfig's fc-match is not installed here")
    assert fonts.font_file(True).name == "DejaVuSans-Bold.ttf"


def test_a_machine_without_it_is_told_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("RAILCHAT_FONT_DIR", raising=False)
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    monkeypatch.setattr(fonts, "_fontconfig", lambda bold: tmp_path / "Other.ttf")  # a stand-in
    with pytest.raises(RuntimeError, match="dnf install dejavu-sans-fonts") as refused:
        fonts.font_file(False)
    assert "apt-get install fonts-dejavu-core" in str(refused.value)
    monkeypatch.setenv("RAILCHAT_FONT_DIR", str(tmp_path))  # a named folder is not second-guessed
    with pytest.raises(RuntimeError, match="RAILCHAT_FONT_DIR"):
        fonts.font_file(True)
