"""Posting each game's changes to its Discord thread: one post per player turn.

A turn's post opens when the turn passes to a player (who is @mentioned on it, unless that
was already done, which is stored so a restart does not mention them again): it carries the
turn prompt (an embed saying for whom, which step, cash, trains and what is compulsory), the
menu of legal moves, the one-click buttons and buttons that show the full map, market and
sheet privately. Each move of that turn is then edited into the same post (one line per move;
rapid moves are gathered, Discord's rate limits respected) with a close-up of the map area the
turn changed (tiles, tokens, runs drawn in colour) and the compact market, each uploaded again
only when its picture changed (see PHONE_FORMS). While nobody is to be pinged (computer seats
playing one after another), their moves grow one post the same way. The turn's post is stored
(its message id, the moves shown, digests of its images), so a restarted bot goes on editing it. When the game
ends, a post gives the final ranking (an embed), each player's time to move and the charts of
how the game went. Chat that
buries the live prompt gets it posted again below (see BUMP_AFTER). Requests that others must
answer (undo votes, deals) get a post of their own with their buttons, pinging who must answer.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import Coroutine
from dataclasses import replace
from typing import Any

import discord

from bot.core.moves import quick_moves
from bot.core.rendering import draw_chart
from bot.core.results import Prompt, Result
from bot.core.service.base import GameMoved, Renderer
from bot.discord_ui.buttons import turn_view
from bot.discord_ui.context import BotContext
from bot.discord_ui.direct import direct_messages, dm_notes
from bot.discord_ui.io import MAX_MESSAGE, MAX_UPLOAD, fetch_thread, fit, game_thread, reply
from bot.discord_ui.markup import as_written, names_list
from bot.discord_ui.post_failures import (
    MISSING_PERMISSIONS,
    THREAD_NEEDS,
    UNKNOWN_CHANNEL,
    Blocked,
    blocked,
    log_refusal,
    missing,
    names,
    tell_unposted,
)
from bot.discord_ui.post_state import Batch, TurnPost
from bot.discord_ui.side_posts import (
    chunks,
    edit_refused,
    mentions,
    offers_post,
    request_post,
    strip_controls,
)
from bot.discord_ui.turn_prompt import menu_options, prompt_embed, ranking_embed

log = logging.getLogger(__name__)

# What a post shows, for a phone (every image legible 400 px wide): where the title draws
# close-ups, the close-up of what the turn changed and the compact market; the full map,
# market and sheet are one tap away (buttons answering privately). Titles without close-ups
# post their own views.
PHONE_FORMS = {"market": "market_compact"}
DEFAULT_DELAY = 2.0  # seconds a change waits for the next one before the post goes out
# Chat below a live prompt pushes it out of sight (a phone shows about five messages): after
# BUMP_AFTER messages from others, once the thread has been quiet BUMP_QUIET seconds, the
# prompt is posted again below (its older copy deleted), and the next move goes there too.
BUMP_AFTER = 5
BUMP_QUIET = 60.0
KEPT_ASKS = 200  # the request posts remembered (a request replaced later edits its post)
NO_IMAGES = "(No picture: I may not attach files in this channel; an admin can allow it.)"
LATE = "(Posted late: Discord refused my earlier post here; /game status told why.)"
UNKNOWN_FAILURE = Blocked("error", None)  # a post that failed for a reason of the bot's own


class ThreadPoster:
    def __init__(
        self, bot: BotContext, renderer: Renderer | None, *, delay: float = DEFAULT_DELAY
    ) -> None:
        self.bot = bot
        self.renderer = renderer
        self.delay = delay
        self._pending: dict[int, Batch] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._locks: dict[int, asyncio.Lock] = {}
        self._turns: dict[int, TurnPost] = {}
        self._drawn: dict[tuple[int, str], str] = {}  # digest of the last image shown
        self._hurry = asyncio.Event()  # set when closing: post what waits at once
        self.bump_quiet = BUMP_QUIET
        self._games: dict[int, int | None] = {}  # thread id: its game (None: not a game's)
        self._chat: dict[int, int] = {}  # game id: others' messages below its turn post
        self._bumps: dict[int, asyncio.Task[None]] = {}
        self._asks: dict[int, Any] = {}  # request id: its post (a newer request may take it)
        self._held: dict[int, Batch] = {}  # game id: changes a refused post holds back
        self._clean: set[int] = set()  # games posted to since this process started

    async def publish(self, interaction: discord.Interaction, result: Result) -> None:
        """Refusals and duplicates answer only the caller; changes are acknowledged to the
        caller and queued for the game's thread, and should that post be refused, the caller
        is told why in a follow-up (the move stands; its lines go with the next post)."""
        if not result.ok:
            await reply(interaction, f"Refused: {result.error}")
        elif result.duplicate or not result.changed or result.game_id is None:
            await reply(interaction, result.text)
        else:
            batch = self.queue(result)
            here = interaction.channel_id == result.thread_id
            if here:  # the bot's permissions in the thread, which a refusal can then name
                batch.lacking = missing(interaction.app_permissions, THREAD_NEEDS)
            watcher = batch.watch()
            where = (
                "" if here or result.thread_id is None else f" (posted in <#{result.thread_id}>)"
            )
            aside = f"\n{result.aside}" if result.aside else ""
            await reply(
                interaction, f"Done{where}: {as_written(result.text.splitlines()[0])}{aside}"
            )
            self._spawn(tell_unposted(interaction, watcher))
        if result.noted:
            await dm_notes(self.bot, result.game_id, result.noted, interaction.guild_id)

    def queue(self, result: Result) -> Batch:
        """Gather a change for the game's next post (with what an earlier refused post held
        back); its batch."""
        assert result.game_id is not None
        batch = self._pending.get(result.game_id)
        if batch is None:
            batch = self._held.pop(result.game_id, None) or Batch(result.thread_id)
            batch.thread_id = result.thread_id
            self._pending[result.game_id] = batch
            self._spawn(self._post_later(result.game_id))
        batch.take(result)
        return batch

    def moved(self, game_id: int) -> None:
        """The game is played in a new thread: its next post starts a turn post there."""
        self._turns.pop(game_id, None)
        self._chat.pop(game_id, None)

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def drain(self, *, now: bool = False) -> None:
        """Wait until everything queued is posted (tests; shutdown). `now`: without waiting
        out the gathering delay (the bot is closing)."""
        if now:
            self.delay = 0.0
            self._hurry.set()
            for bump in self._bumps.values():
                bump.cancel()
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def _post_later(self, game_id: int) -> None:
        try:
            await asyncio.wait_for(self._hurry.wait(), self.delay)
        except TimeoutError:
            pass
        try:
            await self.post(game_id)
        except Exception:  # a failed post must not stop later ones; the log is in the store
            log.exception("posting to the thread of game %s failed", game_id)
        try:
            await self.bot.lobbies.refresh(game_id)
        except Exception:  # the next change tries again
            log.exception("updating the lobby of game %s failed", game_id)

    async def post(self, game_id: int) -> None:
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            batch = self._pending.pop(game_id, None)
            if batch is None:
                return
            outcome: Blocked | None = UNKNOWN_FAILURE
            try:
                outcome = await self._post_to_thread(game_id, batch)
            finally:
                if self._pending.get(game_id) is not batch:  # not put back for the next post
                    batch.settle(outcome)

    async def _post_to_thread(self, game_id: int, batch: Batch) -> Blocked | None:
        """Post the batch in the game's thread; why Discord refused it (None: posted, or put
        back to go with the next change)."""
        if batch.thread_id is None:
            return None
        thread = None
        try:
            thread = await fetch_thread(self.bot, batch.thread_id)
            if thread is None:
                return await self._refused(game_id, batch, Blocked("gone", UNKNOWN_CHANNEL))
            self._games[thread.id] = game_id
            prompt = await self.bot.service.prompt(game_id)
            if batch.version is not None and prompt.moved > batch.version:
                self._again(game_id, batch)  # a newer change is on its way: tell it too
                return None
            try:
                await self._post_batch(game_id, thread, batch, prompt)
            except GameMoved:
                self._again(game_id, batch)
                return None
        except discord.HTTPException as exc:
            why = blocked(exc, thread)
            if why is None:
                log.exception("game %s: Discord refused the post in thread %s", game_id, thread)
                return await self._refused(game_id, batch, Blocked("error", exc.code))
            if why.kind == "permission" and why.detail is None and batch.lacking:
                why = Blocked(why.kind, why.code, names(batch.lacking))
            return await self._refused(game_id, batch, why)
        if game_id not in self._clean:  # a failure stored before is over
            await self.bot.service.post_succeeded(game_id)
            self._clean.add(game_id)
        return None

    async def _refused(self, game_id: int, batch: Batch, why: Blocked) -> Blocked:
        """The thread did not take the post: the failure is stored (what /game status tells)
        and the batch held, so the next post tells its moves too. The caller is told once it
        is stored, so what they ask next (/game status) knows it."""
        if why.kind != "error":
            log_refusal(game_id, batch.thread_id, why)
            await self.bot.service.post_failed(game_id, why.kind, why.code, why.detail)
            self._clean.discard(game_id)
        batch.settle(why)
        if not batch.late:
            batch.lines.insert(0, LATE)
            batch.late = True
        newer = self._pending.pop(game_id, None)
        if newer is not None:  # changes made meanwhile go with these
            batch.extend(newer)
            self._pending[game_id] = batch
        else:
            self._held[game_id] = batch
        return why

    def _again(self, game_id: int, batch: Batch) -> None:
        """Post this batch with the next one: the game moved on while it was drawn, and the
        text must tell every change the pictures show."""
        newer = self._pending.get(game_id)
        self._pending[game_id] = batch
        if newer is not None:
            batch.extend(newer)
            return  # its task posts both
        self._spawn(self._post_later(game_id))

    async def _post_batch(
        self, game_id: int, thread: discord.Thread, batch: Batch, prompt: Prompt
    ) -> None:
        if batch.offers:
            await offers_post(thread, batch.offers, batch.invited, batch.hushed)
        if batch.vote is not None:
            replacing = next((self._asks.pop(r) for r in batch.replaces if r in self._asks), None)
            self._asks[batch.vote] = await request_post(self.bot, thread, batch, prompt, replacing)
            while len(self._asks) > KEPT_ASKS:
                self._asks.pop(next(iter(self._asks)))
            return
        turn = self._turns.get(game_id) or await self._restore(game_id, thread)
        new_round = turn is None or prompt.round != turn.round or not turn.started
        if (
            turn is not None
            and batch.moves_only
            and not new_round
            and not prompt.finished
            and set(prompt.notify) == set(turn.owners)  # the same people, or still nobody:
        ):  # computer seats' moves one after another grow one post, as a player's do
            if self._chat.get(game_id, 0) >= BUMP_AFTER:  # chat pushed it up: again below
                both = Batch(
                    batch.thread_id, turn.lines + batch.lines, list(turn.places), list(turn.runs)
                )
                both.places += [p for p in batch.places if p not in both.places]
                both.runs += batch.runs
                shown = _shown_views(turn) + _posted_views(prompt)
                await self._open_turn(game_id, thread, prompt, both, full=False, again=shown)
                return
            if len(self._text(turn.lines + batch.lines, prompt, [])) >= MAX_MESSAGE:
                await self._open_turn(game_id, thread, prompt, batch, full=False)
                return  # the turn goes on in a new post; the full one keeps its lines
            turn.lines += batch.lines  # the same player goes on: their post grows
            turn.places += [p for p in batch.places if p not in turn.places]
            turn.runs += batch.runs
            try:
                await self._edit(game_id, turn, prompt, changed=bool(batch.places or batch.runs))
                return
            except discord.HTTPException as exc:
                if not edit_refused(exc):
                    raise
                # deleted, archived, too old to edit or not ours to edit: the turn's moves go
                # in a new post (which reopens an archived thread), none of them lost
                log.info(
                    "the turn post of game %s cannot be edited (%s); posting again", game_id, exc
                )
                batch = Batch(batch.thread_id, list(turn.lines), list(turn.places), list(turn.runs))
                new_round = True  # its images went with it
        await self._open_turn(game_id, thread, prompt, batch, full=new_round or prompt.finished)

    # -- chat below the prompt -----------------------------------------------------------------
    async def heard(self, thread: Any, bot_user_id: int | None) -> None:
        """Someone wrote in a channel: in a game's thread, chat that pushed its live prompt
        out of sight gets the prompt posted again below once the thread is quiet."""
        if thread.id not in self._games:  # not seen since the start: only the bot's threads
            if bot_user_id is None or getattr(thread, "owner_id", None) != bot_user_id:
                return
            self._games[thread.id] = await self.bot.service.game_for_thread(thread.id)
        game_id = self._games[thread.id]
        if game_id is None:
            return
        self._chat[game_id] = self._chat.get(game_id, 0) + 1
        if self._chat[game_id] < BUMP_AFTER:
            return
        waiting = self._bumps.pop(game_id, None)
        if waiting is not None:
            waiting.cancel()  # the quiet starts again
        self._bumps[game_id] = asyncio.create_task(self._bump_later(game_id, thread.id))

    async def _bump_later(self, game_id: int, thread_id: int) -> None:
        await asyncio.sleep(self.bump_quiet)
        self._bumps.pop(game_id, None)
        try:
            await self.bump(game_id, thread_id)
        except Exception:  # the next move posts below anyway
            log.exception("posting the prompt of game %s again failed", game_id)

    async def bump(self, game_id: int, thread_id: int) -> None:
        """Post the live prompt again below the chat, with the images it showed, and delete
        its older copy (its lines go with it: nothing is lost)."""
        async with self._locks.setdefault(game_id, asyncio.Lock()):
            if game_id in self._pending or self._chat.get(game_id, 0) < BUMP_AFTER:
                return  # a post is on its way, which goes below the chat anyway
            thread = await game_thread(self.bot, thread_id)
            if thread is None:
                return
            turn = self._turns.get(game_id) or await self._restore(game_id, thread)
            prompt = await self.bot.service.prompt(game_id)
            if turn is None or prompt.finished or not prompt.notify:
                return
            lines = Batch(thread.id, list(turn.lines), list(turn.places), list(turn.runs))
            await self._open_turn(
                game_id, thread, prompt, lines, full=False, again=_shown_views(turn)
            )

    # -- a turn's post -----------------------------------------------------------------------------
    async def _open_turn(
        self,
        game_id: int,
        thread: discord.Thread,
        prompt: Prompt,
        batch: Batch,
        *,
        full: bool,
        again: tuple[str, ...] | None = None,
    ) -> None:
        """A new post: the moves that passed the turn, then whoever must act now (mentioned
        once), with its images: all of them at a new round or the end, else those the moves
        changed. The
        post it follows loses its buttons; lines beyond one message go first, in posts of
        their own, so the newest stay with the prompt. `again`: the post is made again below
        chat, with these views drawn whether they changed or not, and its older copy is
        deleted."""
        views = again if again is not None else _posted_views(prompt)
        views = tuple(dict.fromkeys(views))
        always = full or again is not None
        images, notes = await self._images(game_id, views, prompt.version, always=always)
        ranking = None
        if prompt.finished:
            ranking, charts = await self._final_charts(game_id, prompt.version, images)
            images.update(charts)
            clocks = await self.bot.service.time_to_move(game_id)
            notes = [*notes, clocks] if clocks else notes
            if ranking is not None:  # the embed tells the ranking, the text need not
                prompt = replace(prompt, ranking=())
        ping = [u for u in prompt.notify if u not in prompt.mentioned]
        tail = self._text([], prompt, ping)
        older, newest = chunks(batch.lines + notes, MAX_MESSAGE - len(tail) - 1)
        turn = TurnPost(
            None,
            prompt.notify,
            prompt.round,
            newest,
            list(batch.places),
            list(batch.runs),
            started=bool(prompt.views),
        )
        if batch.places or batch.runs:
            focus = await self._focus(game_id, turn, prompt.version)
            if focus is not None:
                images = {"focus.png": focus, **images}
        previous = self._turns.get(game_id)
        for text in older:
            await thread.send(text, allowed_mentions=mentions(()))
        kwargs: dict[str, Any] = {
            "files": [discord.File(io.BytesIO(png), filename=name) for name, png in images.items()],
            "allowed_mentions": mentions(ping),
        }
        embed = ranking or prompt_embed(prompt)
        if embed is not None:
            kwargs["embed"] = embed
        view = self._view(prompt)
        if view is not None:
            kwargs["view"] = view
        try:
            turn.message = await thread.send(self._text(newest, prompt, ping), **kwargs)
        except discord.Forbidden as exc:
            if not images or exc.code != MISSING_PERMISSIONS:
                raise
            # the bot may not attach files here: the turn's words still go out, without them
            log.warning("game %s: images refused in thread %s: %s", game_id, thread.id, exc)
            images, kwargs["files"] = {}, []
            newest = [*newest, NO_IMAGES]
            turn.lines = newest
            turn.message = await thread.send(self._text(newest, prompt, ping), **kwargs)
        turn.files = {name: _digest(png) for name, png in images.items()}
        turn.version = prompt.version
        self._chat[game_id] = 0
        await self._keep(game_id, turn)
        if previous is not None and previous.message is not None:
            await (_delete if again is not None else strip_controls)(previous.message)
        if prompt.notify and prompt.notify != prompt.mentioned:
            await self.bot.service.mark_mentioned(game_id, prompt.notify)
        await direct_messages(self.bot, game_id, ping, embed=embed)

    async def _edit(self, game_id: int, turn: TurnPost, prompt: Prompt, *, changed: bool) -> None:
        """The turn's post with its moves so far, its prompt, menu and buttons brought up to
        date. Every image it carries is drawn again (an image kept from before the move would
        show an older bank or cash than the prompt beside it); only those whose picture
        changed are uploaded again."""
        files: dict[str, bytes] = {}
        if changed and self.renderer is not None:
            focus = await self._focus(game_id, turn, prompt.version)
            if focus is not None:
                files["focus.png"] = focus
        views = _shown_views(turn) + _posted_views(prompt)
        changed_views, _ = await self._images(
            game_id, tuple(dict.fromkeys(views)), prompt.version, always=False
        )
        files.update(changed_views)
        new = {name: png for name, png in files.items() if turn.files.get(name) != _digest(png)}
        kept = [
            a
            for a in getattr(turn.message, "attachments", []) or []
            if getattr(a, "filename", None) in turn.files and a.filename not in new
        ]
        uploads = [discord.File(io.BytesIO(png), filename=name) for name, png in new.items()]
        # the close-up first, then the views in their order, whichever were uploaded again
        order = ["focus.png", *(f"{v}.png" for v in views)]
        attachments = sorted(
            [*kept, *uploads],
            key=lambda a: order.index(a.filename) if a.filename in order else len(order),
        )
        text = self._text(turn.lines, prompt, [])
        edited = await turn.message.edit(
            content=text,
            attachments=attachments,
            embed=prompt_embed(prompt),
            view=self._view(prompt),
        )
        turn.message = edited if edited is not None and hasattr(edited, "edit") else turn.message
        turn.files.update({name: _digest(png) for name, png in new.items()})
        turn.version = prompt.version
        await self._keep(game_id, turn)

    async def _keep(self, game_id: int, turn: TurnPost) -> None:
        """The turn's post, remembered here and in the store (with the digests of the images
        last drawn) for a restart."""
        self._turns[game_id] = turn
        drawn = {view: digest for (game, view), digest in self._drawn.items() if game == game_id}
        await self.bot.service.remember_turn_post(
            game_id, turn.message.id, {**turn.state(), "drawn": drawn}
        )

    async def _restore(self, game_id: int, thread: discord.Thread) -> TurnPost | None:
        """The turn's post a previous run of the bot stored, if its message still exists."""
        stored = await self.bot.service.turn_post(game_id)
        if stored is None:
            return None
        message_id, state = stored
        try:
            message = await thread.fetch_message(message_id)
        except discord.HTTPException as exc:  # deleted meanwhile: a new post will start
            log.info("the turn post %s of game %s is gone: %s", message_id, game_id, exc)
            return None
        for view, digest in state.get("drawn", {}).items():
            self._drawn.setdefault((game_id, view), digest)
        turn = self._turns[game_id] = TurnPost.restored(message, state)
        return turn

    def _text(self, lines: list[str], prompt: Prompt | None, ping: list[int]) -> str:
        tail = []
        if prompt is not None and prompt.finished and prompt.ranking:
            tail.append(
                "**Final ranking:** "
                + ", ".join(
                    f"{n}. {as_written(name)} {score}"
                    for n, (name, score) in enumerate(prompt.ranking, start=1)
                )
            )
        elif prompt is not None and prompt.notify and ping:
            tail.append("To act: " + " ".join(f"<@{u}>" for u in prompt.notify))
        elif prompt is not None and prompt.names:
            tail.append("To act: " + names_list(prompt.names))
        if prompt is not None and not prompt.finished and prompt.clock:
            tail.append(f"Clock: {prompt.clock}.")
        if prompt is not None and not prompt.finished and prompt.away:
            tail.append(as_written("; ".join(prompt.away) + "."))
        end = "\n".join(tail)
        body = "\n".join(lines)
        room = MAX_MESSAGE - len(end) - 1
        return (fit(body, room) + ("\n" + end if end else "")).strip() or "\u200b"

    def _view(self, prompt: Prompt) -> discord.ui.View | None:
        """The menu of legal moves and the one-click buttons of the player to act, and the
        full images the post leaves out, one tap away."""
        posted = _posted_views(prompt)
        return turn_view(
            prompt.game_id,
            prompt.version,
            quick_moves(prompt.choices),
            menu_options(prompt.choices),
            [v for v in prompt.views if v not in posted],
            orders=prompt.orders,
        )

    # -- images --------------------------------------------------------------------------------------
    async def _focus(self, game_id: int, turn: TurnPost, version: int) -> bytes | None:
        if self.renderer is None:
            return None
        try:
            return await self.bot.service.draw_focus(
                game_id, turn.places, turn.runs, self.renderer, version=version
            )
        except GameMoved:
            raise
        except Exception:
            log.exception("drawing the focus view of game %s failed", game_id)
            return None

    async def _final_charts(
        self, game_id: int, version: int, attached: dict[str, bytes]
    ) -> tuple[discord.Embed | None, dict[str, bytes]]:
        """The final ranking and every chart of how the game went, as much of them as the
        upload limit leaves room for beside the images `attached`."""
        drawer = draw_chart if self.renderer is not None else None
        try:
            series, charts = await self.bot.service.final_charts(game_id, drawer, version=version)
        except GameMoved:
            raise
        except Exception:
            log.exception("drawing the charts of game %s failed", game_id)
            return None, {}
        room = MAX_UPLOAD - sum(len(png) for png in attached.values())
        kept = {}
        for name, png in charts.items():
            if len(png) <= room:
                kept[name], room = png, room - len(png)
        return (ranking_embed(series) if series is not None else None), kept

    async def _images(
        self, game_id: int, views: tuple[str, ...], version: int, *, always: bool
    ) -> tuple[dict[str, bytes], list[str]]:
        """The views whose image changed since it was last shown (all of them when `always`),
        drawn at `version` (GameMoved when the game has moved on since)."""
        if not views or self.renderer is None:
            return {}, []
        try:
            images = await self.bot.service.draw(game_id, views, self.renderer, version=version)
        except GameMoved:
            raise
        except Exception:
            log.exception("drawing game %s failed", game_id)
            return {}, ["(The images could not be drawn this time; /game view map shows them.)"]
        out, notes, total = {}, [], 0
        for view, png in images.items():
            digest = _digest(png)
            if not always and self._drawn.get((game_id, view)) == digest:
                continue
            if total + len(png) > MAX_UPLOAD:
                notes.append(f"(The {view} image is too large to attach; use /game view {view}.)")
                continue
            total += len(png)
            self._drawn[(game_id, view)] = digest
            out[f"{view}.png"] = png
        return out, notes


def _shown_views(turn: TurnPost) -> tuple[str, ...]:
    """The views whose images a turn's post carries (the close-up is drawn from its places)."""
    return tuple(name.removesuffix(".png") for name in turn.files if name != "focus.png")


async def _delete(message: Any) -> None:
    """Delete an older copy of a post (best effort: it may be gone already)."""
    try:
        await message.delete()
    except discord.HTTPException as exc:
        log.info("could not delete an older copy of a turn post: %s", exc)


def _digest(png: bytes) -> str:
    return hashlib.sha1(png).hexdigest()


def _posted_views(prompt: Prompt) -> tuple[str, ...]:
    """The views a post shows (when they changed): phone forms where the title draws
    close-ups, else the title's own views."""
    if not prompt.close_ups:
        return prompt.views
    return tuple(PHONE_FORMS[v] for v in prompt.views if v in PHONE_FORMS)
