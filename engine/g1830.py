"""1830: Railways & Robber Barons — data from engine/data/1830.json plus the title's few rules."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engine.eighteen.entities import Ability, Corporation
from engine.eighteen.game import EighteenGame
from engine.eighteen.trains import Phase

DATA: dict[str, Any] = json.loads((Path(__file__).parent / "data" / "1830.json").read_text())

# Private powers as data (facts from the rule book and 18xx.games' entity list).
ABILITIES: dict[str, list[Ability]] = {
    "SV": [Ability("blocks_hexes", {"hexes": ["G15"]})],
    "CS": [
        Ability("blocks_hexes", {"hexes": ["B20"]}),
        Ability(
            "tile_lay",
            {
                "hexes": ["B20"],
                "tiles": ["3", "4", "58"],
                "count": 1,
                "when": ["owning_corp_or_turn"],
                "owner_type": "corporation",
            },
        ),
    ],
    "DH": [
        Ability("blocks_hexes", {"hexes": ["F16"]}),
        Ability(
            "teleport",
            {"hexes": ["F16"], "tiles": ["57"], "when": ["track"], "owner_type": "corporation"},
        ),
    ],
    "MH": [
        Ability("blocks_hexes", {"hexes": ["D18"]}),
        Ability(
            "exchange",
            {
                "corporations": ["NYC"],
                "from": ["ipo", "market"],
                "when": ["any"],
                "owner_type": "player",
            },
        ),
    ],
    "CA": [Ability("blocks_hexes", {"hexes": ["H18"]}), Ability("shares", {"shares": ["PRR_1"]})],
    "BO": [
        Ability("blocks_hexes", {"hexes": ["I13", "I15"]}),
        Ability("close", {"when": ["bought_train"], "corporation": "B&O"}),
        Ability("no_buy"),
        Ability("shares", {"shares": ["B&O_0"]}),
    ],
}

PHASE_STATUS = {
    "2": ["can_buy_companies_from_other_players"],
    "3": ["can_buy_companies", "can_buy_companies_from_other_players"],
    "4": ["can_buy_companies", "can_buy_companies_from_other_players"],
}


class Game1830(EighteenGame):
    title = "1830"
    full_name = "1830: Railways & Robber Barons"
    min_players = 2
    max_players = 6
    option_names = (
        "multiple_brown_from_ipo",
        "optional_6_train",
        "sell_buy",
        "sell_buy_or_buy_sell",
    )
    flag_options = option_names
    data = DATA

    def company_abilities(self, sym: str) -> list[Ability]:
        return [Ability(a.type, dict(a.data)) for a in ABILITIES.get(sym, [])]

    def train_specs(self) -> list[dict[str, Any]]:
        specs = []
        for t in DATA["trains"]:
            spec = dict(t)
            if t["name"] == "6" and self.options.get("optional_6_train"):
                spec["count"] = t.get("count_optional", 3)
            if t["name"] == "5":
                spec["event_key"] = "close_companies"
            specs.append(spec)
        return specs

    def phase_specs(self) -> list[Phase]:
        out = []
        for p in DATA["phases"]:
            name = p["phase"].split()[0]
            if name == "1":
                continue
            on = None if name == "2" else name
            out.append(
                Phase(
                    name,
                    on,
                    p["tiles"],
                    p["train_limit"],
                    p["ors_per_set"],
                    PHASE_STATUS.get(name, []),
                    "yellow" if p["offboard_value"] == "lower" else "brown",
                )
            )
        return out

    @property
    def multiple_buy_only_from_market(self) -> bool:
        return not self.options.get("multiple_brown_from_ipo")

    def par_restricted(self, corp: Corporation) -> bool:
        bo = next(c for c in self.companies if c.sym == "BO")
        return corp.sym == "B&O" and not bo.closed and bo.owner is None
