"""Playing: `trv turn`, `trv legal`, `trv act`, `trv decide`."""

from __future__ import annotations

import click
import msgspec

from trvendetta.core.errors import RuleViolation

from .common import Session, game_option, echo_json, json_option, legal_names, pass_session, play

as_option = click.option("--as", "player", metavar="PLAYER", envvar="TRV_AS",
                         help="Refuse unless the pending decision is PLAYER's (a safety net at a shared terminal); in a "
                              "game with seats bound to keys, the seat whose identity signs [env TRV_AS].")


def parse_path(ctx: click.Context, param: click.Parameter, value) -> list | None:
    """``F,FR,F`` -> ["F", "FR", "F"] (one list per ``--path`` given); the rules
    (not this parser) judge each step."""
    if value is None:
        return None
    if not isinstance(value, str):
        return [parse_path(ctx, param, v) for v in value]
    steps = [s.strip().upper() for s in value.split(",") if s.strip()]
    if not steps:
        raise click.BadParameter(f"{value!r}: list the steps separated by commas (like F,FR,F)")
    return steps


class _OrderedCommand(click.Command):
    """A command that also records the order its options were given in
    (``ctx.meta["trv.order"]``), so ``--bike`` can start a group of flags."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            ctx.meta["trv.order"] = [p.name for p in order]
        except click.UsageError:
            pass  # the real parse below reports it
        return super().parse_args(ctx, args)


#: flags that belong to the motorcycle named by the last --bike before them
BIKE_GROUP = ("assign", "momentum", "path", "road_die", "shoot", "no_shoot")
_REPEATABLE = ("assign", "path", "shoot")


def bike_groups(order: list[str], flags: dict) -> None:
    """Split ``--bike N ... --bike M ...`` into per-motorcycle groups (in place).

    Without ``--bike`` each of ``--assign``, ``--path`` and ``--shoot`` may be
    given once and means what it always meant.  With it, each of those flags
    (and ``--momentum``, ``--road-die``, ``--no-shoot``) belongs to the
    motorcycle named by the ``--bike`` before it; ``flags["bikes"]`` lists the
    groups in order (the first moves first)."""
    values = {k: list(flags[k] or ()) for k in _REPEATABLE}
    bikes = list(flags.pop("bike") or ())
    groups: list[dict] = []
    top: dict = {}
    for name in order:
        if name == "bike":
            groups.append({"bike": bikes[len(groups)]})
        elif name in BIKE_GROUP:
            into = groups[-1] if groups else top
            option = "--" + name.replace("_", "-")
            if name in into:
                if groups:
                    raise click.UsageError(f"{option} given twice for --bike {groups[-1]['bike']}; one per motorcycle")
                raise click.UsageError(f"{option} given twice; give it once (or once after each --bike)")
            into[name] = values[name].pop(0) if name in _REPEATABLE else True
    if len(groups) > 2:
        raise click.UsageError(f"--bike given {len(groups)} times; a turn moves at most two motorcycles")
    if groups and top:
        first = "--" + next(iter(top)).replace("_", "-")
        raise click.UsageError(f"{first} comes before the first --bike; put each motorcycle's flags after its --bike")
    for key in _REPEATABLE:
        flags[key] = top.get(key)
    for key in ("momentum", "road_die", "no_shoot"):
        flags[key] = bool(top.get(key))
    flags["bikes"] = [{"bike": g["bike"], "assign": g.get("assign"), "momentum": bool(g.get("momentum")),
                       "path": g.get("path"), "road_die": bool(g.get("road_die")), "shoot": g.get("shoot"),
                       "no_shoot": bool(g.get("no_shoot"))} for g in groups] or None
    for g in flags["bikes"] or ():
        if g["shoot"] is not None and g["no_shoot"]:
            raise click.UsageError(f"--shoot and --no-shoot exclude each other (--bike {g['bike']})")


@click.command(cls=_OrderedCommand)
@click.option("--car", metavar="small|medium|large", help="The car to move this turn.")
@click.option("--bike", "bike", multiple=True, metavar="N",
              help="Final Five: a motorcycle (1-5) to move; the --assign, --path, --road-die and --shoot "
                   "after it are its own. Give two --bike groups (the first moves first).")
@click.option("--assign", type=int, multiple=True, metavar="N", help="The movement die to assign to it.")
@click.option("--momentum", is_flag=True, help="Assign the die to the car's momentum (a motorcycle's coasting).")
@click.option("--command", "command", metavar="nitro|drift|repair|airstrike", help="Use a command this turn.")
@click.option("--command-die", type=int, metavar="N", help="The second die, assigned to the command.")
@click.option("--repair", metavar="CAR_ID", help="The car the repair command fixes.")
@click.option("--airstrike-at", metavar="SPACE", help="Where the air attack puts the chopper.")
@click.option("--airstrike-target", metavar="TARGET", help="What the chopper shoots at.")
@click.option("--path", callback=parse_path, multiple=True, metavar="F,FL,FR,...",
              help="Every step of the move (base die, nitro, road die); default straight ahead.")
@click.option("--road-die", is_flag=True, help="Take the road die bonus moves.")
@click.option("--shoot", metavar="TARGET", multiple=True, help="Fire at TARGET after moving.")
@click.option("--no-shoot", is_flag=True, help="Do not fire.")
@click.option("--reroll/--no-reroll", default=None, help="Reroll (or accept) the slam dice, if that is yours to decide.")
@click.option("--move", "move", multiple=True, metavar="CAR:[DIE:]PATH",
              help="Classic (1986): one per yellow die, in order, e.g. 6:F,F,FR or 5:4+road:F,F,F,F,F.")
@click.option("--ram", "ram", multiple=True, metavar="CAR:TARGET", help="Classic: ram with CAR (rank), e.g. 6:blue-5.")
@click.option("--chopper", "chopper", metavar="TARGET", help="Classic: a chopper attack on TARGET, e.g. blue-4.")
@as_option
@game_option
@pass_session
def turn(session: Session, player: str | None, **flags: object) -> None:
    """Play the active player's turn from flags, then say what happened.

    The flags answer the turn's decisions in order: assign a die to a car,
    maybe a command, every step of the move, the road die, the shot.  When
    the game then waits on a choice the flags do not answer (a slam reroll
    that belongs to another player, say), the command says so and exits 0;
    answer it with `trv decide` or another `trv turn`.

    \b
    Examples:
      trv turn --car medium --assign 4
      trv turn --car small --assign 3 --path F,FR,F --road-die --shoot blue-medium
      trv turn --car large --assign 2 --command nitro --command-die 1 --no-shoot
      trv turn --reroll

    \b
    The Final Five (two motorcycles a turn, the first one moves first):
      trv turn --bike 1 --assign 4 --path F,FR,F,F --bike 3 --assign 2 --shoot blue-small
      trv turn --bike 2 --assign 5 --command nitro --command-die 1

    \b
    Classic (1986) games:
      trv turn --move 6:F,F,FR --move 5:F,F --move 4:FL --ram 6:blue-5
      trv turn --move 6:3+road:F,F,F,F --chopper blue-4 --shoot 5:blue-6
    """
    bike_groups(click.get_current_context().meta.get("trv.order", []), flags)
    if flags["shoot"] is not None and flags["no_shoot"]:
        raise click.UsageError("--shoot and --no-shoot exclude each other")
    flags["no_shoot"] = bool(flags["no_shoot"])
    flags["road_die"] = bool(flags["road_die"])
    flags["momentum"] = bool(flags["momentum"])
    for key in ("move", "ram"):
        flags[key] = list(flags[key]) or None

    def actions(ruleset, state):
        driver = ruleset.turn_driver(dict(flags))
        first = True
        while True:
            action = driver.next(state())
            if action is None:
                if first:
                    decision = ruleset.pending(state())
                    if decision is not None:
                        raise RuleViolation(
                            f"{decision.kind} for {decision.player}",
                            "these flags do not answer the pending decision",
                            legal_names(ruleset, state()),
                        )
                return
            first = False
            yield action

    play(session, actions, player=player)


@click.command()
@json_option
@game_option
@pass_session
def legal(session: Session, as_json: bool) -> None:
    """List the legal actions of the pending decision.

    With --json, print a JSON array of action objects exactly as the engine
    encodes them: any of them can be passed to `trv act`.

    \b
    Examples:
      trv legal
      trv legal --json
      trv act "$(trv legal --json | jq -c '.[0]')"
    """
    game = session.view()
    ruleset = game.ruleset
    options = ruleset.legal_actions(game.state)
    if as_json:
        echo_json([msgspec.Raw(ruleset.encode(a)) for a in options])
        return
    decision = ruleset.pending(game.state)
    if decision is None:
        click.echo("the game is over; nothing is legal")
        return
    click.echo(f"{decision.player}: {decision.kind}" + (f" ({decision.prompt})" if decision.prompt else ""))
    for a in options:
        click.echo(f"  {ruleset.describe_action(a)}")


@click.command()
@click.argument("action_json", metavar="ACTION_JSON")
@as_option
@game_option
@pass_session
def act(session: Session, action_json: str, player: str | None) -> None:
    """Apply one action object, as printed by `trv legal --json`.

    \b
    Examples:
      trv act '{"type":"assign","car":"red-medium","die":4}'
      trv act '{"type":"step","direction":"FR"}'
    """

    def actions(ruleset, state):
        try:
            action = ruleset.decode_action(action_json)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise RuleViolation("action JSON", f"{action_json!r} is not an action: {exc}",
                                [ruleset.encode(a).decode() for a in ruleset.legal_actions(state())]) from None
        yield action

    play(session, actions, player=player)


@click.command()
@click.argument("choice", nargs=-1, required=True)
@as_option
@game_option
@pass_session
def decide(session: Session, choice: tuple[str, ...], player: str | None) -> None:
    """Answer the pending decision by the printed name of an option (see `trv legal`).

    \b
    Examples:
      trv decide reroll
      trv decide assign 4 to red-medium
      trv decide FR
    """
    wanted = " ".join(choice)

    def actions(ruleset, state):
        options = ruleset.legal_actions(state())
        named = {ruleset.describe_action(a): a for a in options}
        if wanted in named:
            yield named[wanted]
            return
        folded = [a for name, a in named.items() if name.casefold() == wanted.casefold()]
        if len(folded) == 1:
            yield folded[0]
            return
        decision = ruleset.pending(state())
        what = f"{decision.kind} for {decision.player}" if decision else "game over"
        raise RuleViolation(what, f"{wanted!r} is not an option of the pending decision", list(named))

    play(session, actions, player=player)


COMMANDS = [turn, legal, act, decide]
