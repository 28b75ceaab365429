"""The frontend-neutral game service: who may do what, in which order, and what to show.

Discord and the console both call these coroutines. The service checks permissions, serialises
the commands of one game with an asyncio lock, applies actions to a live engine game (kept in a
bounded LRU cache, rebuilt from the stored log when missing), persists each accepted change in
one transaction and answers with a `Result`. It knows no game rules: the engine decides.
`base` holds the machinery; `tables`, `playing`, `undoing`, `previews`, `orders`, `views`,
`lobby`, `charts` and `posting` the commands by kind; `clocks` and `nudges` the game clocks; `settings`, `turns`, `reminders` and
`standings` what concerns a player across all their games.
"""

from __future__ import annotations

from bot.core.service.charts import Charts
from bot.core.service.lobby import Lobbies
from bot.core.service.nudges import Nudges
from bot.core.service.orders import Orders
from bot.core.service.posting import Posting
from bot.core.service.previews import Previews
from bot.core.service.reminders import Reminders
from bot.core.service.settings import Settings
from bot.core.service.standings import Standings
from bot.core.service.tables import Tables
from bot.core.service.undoing import Undoing
from bot.core.service.views import Views


class GameService(
    Nudges,
    Tables,
    Previews,
    Orders,
    Undoing,
    Views,
    Lobbies,
    Charts,
    Settings,
    Reminders,
    Posting,
    Standings,
):
    """Every command of the service, on one store."""
