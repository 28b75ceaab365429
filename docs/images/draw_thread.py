"""Draw docs/images/thread.png: a game's thread as a phone shows it, from a real turn post.

A recorded 1830 game is played through the real service and thread poster (Discord offline, as
in the tests; real images from render/) up to an operating turn; the newest post (its text,
prompt embed, images, menu and buttons) is then laid out in Discord's dark theme at a phone's
width, below the command that made the move. Nothing on the picture is typed by hand but the
player names.

    python docs/images/draw_thread.py [--moves 101] [--out docs/images/thread.png]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import re
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from PIL import Image, ImageDraw  # noqa: E402

from bot.core.rendering import render_view  # noqa: E402
from bot.core.results import Caller  # noqa: E402
from engine.eighteen import io as game_files  # noqa: E402
from render.fonts import pil_font, text_width  # noqa: E402
from tests.discord_world import make_world, posts  # noqa: E402
from tests.reference_games import game_path  # noqa: E402

WIDTH = 420  # a phone's width, in Discord's points, drawn at twice the size
SCALE = 2
BACK, EMBED_BACK, TEXT, MUTED, NAME = "#313338", "#2B2D31", "#DBDEE1", "#949BA4", "#F2F3F5"
MENTION_BACK, MENTION = "#3C4270", "#C9CDFB"
BUTTON = {"secondary": "#4E5058", "primary": "#5865F2", "success": "#248046"}
NAMES = {1: "ann", 2: "bob", 3: "cy", 4: "dee"}


async def newest_post(moves: int) -> tuple[Any, str]:
    data = json.loads(game_path("1830", "29133").read_text())
    with tempfile.TemporaryDirectory() as tmp:
        world = await make_world(Path(tmp) / "thread.db", renderer=render_view)
        thread = await world._create_thread(name="1830 #1")
        service = world.bot.service
        actions = [a for _, a in game_files.effective_actions(data["actions"])]
        opened = await service.import_game(
            Caller(1, NAMES[1], guild_id=1),
            {**data, "actions": data["actions"][:0]},
            [1, 2, 3, 4],
            guild_id=1,
            thread_id=thread.id,
            offer=False,
        )
        assert opened.ok, opened.error
        user_of = {p["id"]: n + 1 for n, p in enumerate(data["players"])}
        command = ""
        for action in actions[:moves]:
            if action.get("entity_type") == "player":
                user = user_of[action["entity"]]
            else:
                user = (await service.prompt(opened.game_id, choices=False)).notify[0]
            drop = ("id", "user", "created_at", "auto_actions")  # railchat makes those itself
            move = {k: v for k, v in action.items() if k not in drop}
            result = await service.act(opened.game_id, Caller(user, NAMES[user], guild_id=1), move)
            assert result.ok, result.error
            world.bot.poster.queue(result)
            await world.bot.poster.drain()
            command = f"{NAMES[user]} used /play {_command(move)}"
        return posts(thread)[-1], command


def _command(move: dict[str, Any]) -> str:
    kind = move["type"]
    if kind == "lay_tile":
        return f"lay hex:{move['hex']}"
    return {"run_routes": "run", "pass": "pass"}.get(kind, "move")


class Canvas:
    def __init__(self) -> None:
        self.image = Image.new("RGB", (WIDTH * SCALE, 6000), BACK)
        self.draw = ImageDraw.Draw(self.image)
        self.y = 12.0

    def text(self, x: float, words: str, size: float, colour: str, bold: bool = False) -> None:
        font = pil_font(bold, size * SCALE)
        self.draw.text((x * SCALE, self.y * SCALE), words, fill=colour, font=font)

    def wrapped(self, x: float, words: str, size: float, colour: str, width: float) -> None:
        for line in _wrap(words, size, width):
            self._line_with_mentions(x, line, size, colour)
            self.y += size * 1.35

    def _line_with_mentions(self, x: float, line: str, size: float, colour: str) -> None:
        for part in re.split(r"(@\w+)", line):
            if not part:
                continue
            w = text_width(part, size)
            if part.startswith("@"):
                self.draw.rounded_rectangle(
                    (x * SCALE, self.y * SCALE, (x + w) * SCALE, (self.y + size * 1.3) * SCALE),
                    3 * SCALE,
                    fill=MENTION_BACK,
                )
            self.text(x, part, size, MENTION if part.startswith("@") else colour)
            x += w

    def picture(self, x: float, png: bytes, width: float) -> None:
        shown = Image.open(io.BytesIO(png)).convert("RGB")
        height = shown.height * width / shown.width
        shown = shown.resize((round(width * SCALE), round(height * SCALE)), Image.LANCZOS)
        self.image.paste(shown, (round(x * SCALE), round(self.y * SCALE)))
        self.y += height + 6

    def button(self, x: float, label: str, style: str) -> float:
        w = text_width(label, 13) + 24
        self.draw.rounded_rectangle(
            (x * SCALE, self.y * SCALE, (x + w) * SCALE, (self.y + 30) * SCALE),
            4 * SCALE,
            fill=BUTTON.get(style, BUTTON["secondary"]),
        )
        self.y += 7
        self.text(x + 12, label, 13, NAME)
        self.y -= 7
        return w

    def done(self) -> Image.Image:
        return self.image.crop((0, 0, WIDTH * SCALE, round((self.y + 12) * SCALE)))


def _wrap(words: str, size: float, width: float) -> list[str]:
    lines: list[str] = []
    for paragraph in words.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if line and text_width(trial, size) > width:
                lines.append(line)
                line = word
            else:
                line = trial
        lines.append(line)
    return lines


def _embed_lines(embed: Any, width: float) -> list[tuple[str, float, str, float]]:
    """(line, size, colour, space above) of the embed's words, wrapped to `width`."""
    out: list[tuple[str, float, str, float]] = []
    parts = [(embed.title, 14, NAME, 0.0), (embed.description or "", 13, TEXT, 0.0)]
    for field in embed.fields:
        parts += [(field.name, 13, NAME, 4.0), (field.value.replace("**", ""), 13, TEXT, 0.0)]
    for words, size, colour, above in parts:
        for n, line in enumerate(_wrap(words, size, width)):
            out.append((line, size, colour, above if n == 0 else 0.0))
    return out


def _embed(canvas: Canvas, embed: Any, left: float, body: float) -> None:
    """The embed's background, measured from its wrapped words first, then the words."""
    lines = _embed_lines(embed, body - 24)
    height = 10 + sum(above + size * 1.35 for _, size, _, above in lines) + 8
    top = canvas.y
    canvas.draw.rectangle(
        (left * SCALE, top * SCALE, (left + 4) * SCALE, (top + height) * SCALE), fill="#2D6A4F"
    )
    canvas.draw.rectangle(
        ((left + 4) * SCALE, top * SCALE, (left + body) * SCALE, (top + height) * SCALE),
        fill=EMBED_BACK,
    )
    canvas.y += 10
    for line, size, colour, above in lines:
        canvas.y += above
        canvas._line_with_mentions(left + 14, line, size, colour)
        canvas.y += size * 1.35
    canvas.y = top + height + 6


def draw(post: Any, command: str) -> Image.Image:
    canvas = Canvas()
    left, body = 60.0, WIDTH - 72.0
    canvas.text(left, command, 12, MUTED)
    canvas.y += 20
    canvas.draw.ellipse(
        (12 * SCALE, canvas.y * SCALE, 48 * SCALE, (canvas.y + 36) * SCALE), fill="#2D6A4F"
    )
    canvas.text(left, "railchat", 15, NAME, bold=True)
    canvas.text(left + text_width("railchat", 15, True) + 8, "APP", 10, "#FFFFFF", bold=True)
    canvas.y += 22
    text = re.sub(r"<@(\d+)>", lambda m: "@" + NAMES.get(int(m[1]), m[1]), post.text)
    canvas.wrapped(left, text.replace("**", ""), 14, TEXT, body)
    canvas.y += 4
    if post.embed is not None:
        _embed(canvas, post.embed, left, body)
    for png in post.files.values():
        canvas.picture(left, png, body)
    if post.menu:
        canvas.draw.rounded_rectangle(
            (left * SCALE, canvas.y * SCALE, (left + body) * SCALE, (canvas.y + 36) * SCALE),
            4 * SCALE,
            fill="#1E1F22",
        )
        canvas.y += 10
        canvas.text(left + 10, f"Your moves ({len(post.menu)})", 13, MUTED)
        canvas.y += 34
    x, images_row = left, False
    for custom_id, label in post.buttons:
        if not label or custom_id.startswith("rc:s:"):
            continue
        images = custom_id.startswith("rc:v:")  # the buttons showing full images: a row below
        full = x + text_width(label, 13) + 24 > left + body
        if x > left and (full or (images and not images_row)):
            x = left
            canvas.y += 36
        images_row = images
        x += canvas.button(x, label, "primary" if "Run" in label else "secondary") + 8
    canvas.y += 36
    return canvas.done()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=101)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "images" / "thread.png")
    args = parser.parse_args()
    post, command = asyncio.run(newest_post(args.moves))
    picture = draw(post, command)
    picture.save(args.out, optimize=True)
    print(f"{args.out}: {picture.width}x{picture.height}")


if __name__ == "__main__":
    main()
