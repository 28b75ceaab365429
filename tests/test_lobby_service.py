"""The lobby's service side on both databases: what a lobby shows through a game's life, how each
game is named for a user in lists and suggestions (theirs first, then those open to join, none
of another server), and where the lobby message is kept."""

from __future__ import annotations

from bot.core.lobby import lobby_text
from bot.core.results import Caller
from bot.core.service import GameService

GUILD, OTHER = 500, 501
ANN, BOB, CY = (Caller(n, name, guild_id=GUILD) for n, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")))


async def opened(service: GameService, creator: Caller, seats: int = 3, **options) -> int:
    made = await service.create_game(
        creator, "tally", seats=seats, options=options, guild_id=GUILD, thread_id=None
    )
    assert made.game_id is not None, made.error
    return made.game_id


async def test_a_lobby_through_a_games_life(make_store):
    service = GameService(make_store(), new_seed=lambda: 3)
    game = await opened(service, ANN, target=20)
    lobby = await service.lobby(game)
    assert lobby is not None and lobby.open
    assert lobby_text(lobby).splitlines() == [
        f"**Game #{game} · tally** · open: 1 of 3 seats taken (2 needed to start)",
        "Options: target=20",
        "Seated: 1. Ann",
        "Join to take a seat; Ann (or a server admin) starts the game.",
    ]
    await service.join(game, BOB)
    await service.start(game, ANN, confirmed=True)
    lobby = await service.lobby(game)
    assert not lobby.open and lobby.to_act == ("Ann",)
    assert lobby_text(lobby, "Played in #7").splitlines() == [
        f"**Game #{game} · tally** · in play",
        "Players: 1. Ann, 2. Bob",
        "To act: Ann",
        "Played in #7",
    ]
    scores = await service.peek(game, lambda g: dict(g.scores), guild_id=GUILD)
    while not (await service.lobby(game)).ranking:
        who = ANN if (await service.lobby(game)).to_act == ("Ann",) else BOB
        await service.act(game, who, {"type": "add", "amount": 9})
        scores[who.user_id] += 9
    lobby = await service.lobby(game)
    best = sorted(
        ((s, n) for n, s in zip(("Ann", "Bob"), scores.values(), strict=True)), reverse=True
    )
    assert lobby.ranking == tuple((n, s) for s, n in best)
    assert lobby_text(lobby).splitlines()[0] == f"**Game #{game} · tally** · finished"
    await service.abandon(await opened(service, BOB), BOB)
    assert (await service.lobby(game + 1)).open is False
    assert await service.lobby(999) is None


async def test_games_are_named_for_each_user(make_store):
    service = GameService(make_store(), new_seed=lambda: 3)
    running = await opened(service, ANN, seats=2)
    await service.join(running, BOB)
    await service.start(running, ANN)
    waiting = await opened(service, CY)
    elsewhere = await service.create_game(Caller(9, "Eve", guild_id=OTHER), "tally", guild_id=OTHER)
    for user, expected in (
        (1, [(running, "your turn", True), (waiting, "open, 1 of 3 seats", False)]),
        (2, [(running, "waiting for Ann", True), (waiting, "open, 1 of 3 seats", False)]),
        (4, [(waiting, "open, 1 of 3 seats", False)]),  # a stranger: only what is open
    ):
        entries = await service.game_entries(user, guild_id=GUILD)
        assert [(e.game_id, e.state, e.mine) for e in entries] == expected
    choices = await service.game_choices(2, "ann", guild_id=GUILD)
    assert choices == [(running, f"#{running} · tally · waiting for Ann")]
    assert await service.game_choices(2, str(elsewhere.game_id), guild_id=GUILD) == []
    listing = await service.list_games(guild_id=GUILD, user_id=3, link=lambda t: f"<#{t}>")
    assert listing.text.splitlines() == [
        "Your games:",
        f"#{waiting} · tally · open, 1 of 3 seats",
        "No other game is open to join here; open one with /game new.",
    ]


async def test_the_lobby_message_is_kept(make_store):
    service = GameService(make_store())
    game = await opened(service, ANN)
    assert await service.lobby_post(game) is None
    await service.remember_lobby_post(game, (600, 9001))
    await service.remember_lobby_post(game, (600, 9002))  # posted again: the newer one
    assert await service.lobby_post(game) == (600, 9002)
    await service.remember_lobby_post(game, None)
    assert await service.lobby_post(game) is None
