"""Rounds made of steps, as in 18xx.games: each action goes to the first active step that lists
its type; a blocking step that cannot take it refuses it; steps with nothing to do are skipped."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.errors import IllegalAction, NotYourTurn

if TYPE_CHECKING:
    from engine.eighteen.game import EighteenGame


class Step:
    description = "Act"
    blocks = True
    # The name private powers use for this part of a turn ('track', ...); None for the others.
    time_name: str | None = None

    def __init__(self, game: EighteenGame, round_: Round, **opts: Any) -> None:
        self.game = game
        self.round = round_
        self.opts = opts
        self.passed = False
        self.acted = False

    # -- queries -------------------------------------------------------------------------------
    def actions(self, entity: Any) -> list[str]:
        return []

    def active(self) -> bool:
        return not self.passed

    def active_entities(self) -> list[Any]:
        return [self.round.entities[self.round.entity_index]] if self.round.entities else []

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def current_actions(self) -> list[str]:
        entity = self.current_entity()
        if entity is None or getattr(entity, "closed", False):
            return []
        return self.actions(entity)

    def explain(self, entity: Any, action_type: str) -> str | None:
        """Why this entity cannot take this action in this step now (None: no specific reason)."""
        return None

    def can_act(self, entity: Any) -> bool:
        """Whether `entity` has any action here; steps whose full list is costly answer it
        without building the list (asked after every action, to find who must act)."""
        return bool(self.actions(entity))

    def allows(self, entity: Any, action_type: str) -> bool:
        """Whether `action_type` is among `actions(entity)`; steps whose full list is costly
        answer it without building the list (asked for every action processed)."""
        return action_type in self.actions(entity)

    def explain_choice(self, entity: Any, action_type: str, words: set[str]) -> str | None:
        """Why no legal action of this type is the one these typed words (casefolded) name,
        stating the rule (None: no specific reason)."""
        return None

    def blocking(self) -> bool:
        if not self.blocks:
            return False
        entity = self.current_entity()
        return entity is not None and not getattr(entity, "closed", False) and self.can_act(entity)

    # -- transitions ---------------------------------------------------------------------------
    def setup(self) -> None:
        pass

    def pass_(self) -> None:
        self.passed = True

    def unpass(self) -> None:
        self.passed = False
        self.acted = False
        self.round.forget_active_step()

    def skip(self) -> None:
        self.pass_()

    def process(self, action: dict[str, Any], entity: Any) -> None:
        handler = getattr(self, f"process_{action['type']}", None)
        if handler is None:
            raise IllegalAction(f"{action['type']} is not possible now")
        handler(action, entity)

    def process_pass(self, action: dict[str, Any], entity: Any) -> None:
        self.pass_()

    def auto_actions(self, entity: Any) -> list[dict[str, Any]]:
        """The moves the entity's player has programmed for it here, due now (programs.py)."""
        return []


class Round:
    name = "Round"
    kind = ""  # "auction", "stock" or "operating", as programmed moves ask

    def __init__(self, game: EighteenGame, step_classes: list[Any], round_num: int = 1) -> None:
        self.game = game
        # Which step blocks, as found by the last skip_steps; valid until the state next changes
        # (asking every step what it allows is the costly part of processing an action).
        self._active: Step | None = None
        self._active_known = False
        self.round_num = round_num
        self.entity_index = 0
        self.last_to_act: Any = None
        self.pass_order: list[Any] = []
        self.entities: list[Any] = self.select_entities()
        self.steps: list[Step] = []
        for spec in step_classes:
            cls, opts = spec if isinstance(spec, tuple) else (spec, {})
            step = cls(game, self, **opts)
            step.setup()
            self.steps.append(step)

    def select_entities(self) -> list[Any]:
        return []

    def setup(self) -> None:
        pass

    def active_step(self, entity: Any = None) -> Step | None:
        if self._active_known:
            return self._active
        for step in self.steps:
            if step.active() and step.blocking():
                return step
        return None

    def forget_active_step(self) -> None:
        self._active_known = False

    def active_entities(self) -> list[Any]:
        step = self.active_step()
        return step.active_entities() if step else []

    def turn_step(self) -> Step | None:
        """The part of the turn under way, as private powers see it: the first named step not done."""
        for step in self.steps:
            if step.time_name and not step.passed and step.active() and step.blocks:
                return step
        return None

    def current_entity(self) -> Any:
        ents = self.active_entities()
        return ents[0] if ents else None

    def auto_actions(self) -> list[dict[str, Any]]:
        """The programmed moves due now, for whoever must act (none: they act themselves)."""
        step = self.active_step()
        entity = self.current_entity()
        return step.auto_actions(entity) if step is not None and entity is not None else []

    def actions_for(self, entity: Any) -> list[str]:
        out: list[str] = []
        if entity is None:
            return out
        for step in self.steps:
            if not step.active():
                continue
            for a in step.actions(entity):
                if a not in out:
                    out.append(a)
            if step.blocking():
                break
        return out

    def step_for(self, entity: Any, action_type: str) -> Step:
        blocking = self.active_step()
        for step in self.steps:
            if not step.active():
                continue
            can = step.allows(entity, action_type)
            if step is blocking and not can:
                who = self.game.entity_name(entity)
                acting = self.active_entities()
                if acting and entity not in acting:
                    names = ", ".join(self.game.entity_name(e) for e in acting)
                    raise NotYourTurn(
                        f"it is not {who}'s turn: {names} must act ({step.description})"
                    )
                reason = step.explain(entity, action_type)
                if reason:
                    raise IllegalAction(f"{who} cannot {action_type.replace('_', ' ')}: {reason}")
                allowed = ", ".join(step.actions(entity)) or "nothing"
                raise IllegalAction(
                    f"{who} cannot {action_type.replace('_', ' ')} now: "
                    f"the current step is {step.description} (allowed: {allowed})"
                )
            if can:
                return step
        raise IllegalAction(
            f"{self.game.entity_name(entity)} cannot {action_type.replace('_', ' ')} now"
        )

    def process_action(self, action: dict[str, Any], entity: Any) -> None:
        step = self.step_for(entity, action["type"])
        self.forget_active_step()
        step.acted = True
        step.process(action, entity)
        self.skip_steps()
        self.after_process(action, entity)

    def skip_steps(self) -> None:
        self.forget_active_step()
        found: Step | None = None
        for step in self.steps:
            if not step.active() or not step.blocks:
                continue
            ent = self.entities[self.entity_index] if self.entities else None
            if ent is not None and getattr(ent, "closed", False):
                continue
            if step.blocking():
                found = step
                break
            self.game.step_skipped(ent, step)
            step.skip()
        self._active, self._active_known = found, True

    def after_process(self, action: dict[str, Any], entity: Any) -> None:
        pass

    def note_share_move(self, player: Any, target: Any, kind: str) -> None:
        """A player's move on a company's shares (or a private): stock rounds keep it for the
        programmed moves of the others (programs.py); other rounds need not."""

    def next_entity_index(self) -> None:
        self.forget_active_step()
        self.entity_index = (self.entity_index + 1) % len(self.entities)

    def finished(self) -> bool:
        return self.active_step() is None
