"""`railchat render FILE --upto N --out DIR` writes the three images of that position."""

from __future__ import annotations

from PIL import Image

from bot.cli import main
from tests.reference_games import require_games


def test_render_writes_map_market_and_sheet(tmp_path, capsys) -> None:
    path = require_games("1830")[0]
    assert main(["render", str(path), "--upto", "150", "--out", str(tmp_path)]) == 0
    for name in ("map.png", "market.png", "sheet.png"):
        image = Image.open(tmp_path / name)
        assert image.format == "PNG" and image.width >= 1000
        assert (tmp_path / name).stat().st_size < 10 * 1024 * 1024
    assert "map.png" in capsys.readouterr().out


def test_render_reports_a_missing_file(tmp_path, capsys) -> None:
    assert main(["render", str(tmp_path / "nope.json"), "--out", str(tmp_path)]) == 1
    assert "nope.json" in capsys.readouterr().err
