"""Playing: `trv turn`, `trv legal`, `trv act`, `trv decide`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click
import msgspec

from trvendetta.core.errors import RuleViolation

from .common import (Session, after_option, echo_json, game_option, json_option, legal_names, pass_session, play,
                     played_json, seen, service)

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


def _flag_option(flag, choices: tuple[str, ...] = ()) -> click.Option:
    """The click option of a declared turn flag (hidden: ``--help`` lists it
    under its ruleset's heading).  A valued flag always collects every
    occurrence, so a repeat is never silently dropped: ``ruleset_flags``
    refuses it where the game's ruleset takes one.  The shell completes
    ``choices`` (every ruleset's choices of the flag)."""
    kw: dict = {"hidden": True, "multiple": True, "metavar": flag.metavar or None}
    if choices:
        kw["shell_complete"] = lambda ctx, param, incomplete: [c for c in choices if c.startswith(incomplete)]
    if flag.kind == "switch":
        return click.Option([f"--{flag.name}/--no-{flag.name}"], flag.key, default=None, hidden=True)
    if flag.kind == "flag":
        return click.Option([f"--{flag.name}"], flag.key, is_flag=True, hidden=True)
    if flag.kind == "int":
        kw["type"] = int
    if flag.kind == "steps":
        kw["callback"] = parse_path
    return click.Option([f"--{flag.name}"], flag.key, **kw)


def _declared() -> list:
    """(ruleset, its turn flags) for every ruleset, in registry order."""
    from trvendetta import rulesets

    return [(rs, rs.turn_flags) for rs in rulesets.every()]


class TurnCommand(click.Command):
    """`trv turn`: its flags are the ones the registered rulesets declare.  Running, it
    parses only the flags of the game's own ruleset, once the game is known (``parse_flags``:
    no other ruleset is imported, unless a flag is not the game's, to say whose it is); its
    ``--help`` shows each ruleset's flags under its own heading, and the shell completes
    every ruleset's."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        """Parse the command's own options (--as, --json, --dry-run, --game...); the rest, the
        turn flags, wait in ``ctx.args`` for the game's ruleset (``parse_flags``)."""
        if ctx.resilient_parsing:  # completing: every ruleset's flags are parameters
            return super().parse_args(ctx, args)
        takes = {o: not (p.is_flag or p.count) for p in super().get_params(ctx) if isinstance(p, click.Option)
                 for o in [*p.opts, *p.secondary_opts]}
        own: list[str] = []
        rest: list[str] = []
        i = 0
        while i < len(args):
            arg = args[i]
            name = arg.split("=", 1)[0]
            if arg == "--":
                rest.extend(args[i:])
                break
            if name in takes:
                own.append(arg)
                if takes[name] and "=" not in arg and i + 1 < len(args):
                    own.append(args[i + 1])
                    i += 1
            else:
                rest.append(arg)
            i += 1
        super().parse_args(ctx, own)
        ctx.args = rest
        return rest

    def flag_params(self) -> list[click.Option]:
        merged: dict = {}
        choices: dict[str, dict[str, None]] = {}
        for rs, flags in _declared():
            for f in flags:
                known = merged.setdefault(f.name, f)
                if known.kind != f.kind:
                    raise TypeError(f"turn flag --{f.name}: {rs.name} declares it {f.kind}, another ruleset {known.kind}")
                choices.setdefault(f.name, {}).update(dict.fromkeys(f.choices))
        return [_flag_option(f, tuple(choices[f.name])) for f in merged.values()]

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list:
        """The shell completes every ruleset's flags too (hidden from the option list, which
        ``--help`` prints under each ruleset's heading instead)."""
        from click.shell_completion import CompletionItem

        results = super().shell_complete(ctx, incomplete)
        if incomplete.startswith("-"):
            seen = {r.value for r in results}
            results += [CompletionItem(name) for p in self.flag_params() for name in [*p.opts, *p.secondary_opts]
                        if name.startswith(incomplete) and name not in seen]
        return results

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        if ctx.resilient_parsing:  # completing: every ruleset's flags
            params = super().get_params(ctx)
            help_option = self.get_help_option(ctx)
            head = [p for p in params if p is not help_option]
            return head + self.flag_params() + ([help_option] if help_option is not None else [])
        return super().get_params(ctx)

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        super().format_options(ctx, formatter)
        for rs, flags in _declared():
            by_crew: dict[str, list] = {}
            for f in flags:
                name = f"--{f.name}/--no-{f.name}" if f.kind == "switch" else f"--{f.name}"
                if f.kind not in ("flag", "switch"):
                    name += f" {f.metavar or f.kind.upper()}"
                by_crew.setdefault(f.crew, []).append((name, f.help + (" (repeat)" if f.multiple else "")))
            for crew, rows in sorted(by_crew.items(), key=lambda item: item[0] != ""):
                crews = f", with the {crew} crew" if crew else ""
                with formatter.section(f"{rs.title or rs.name} (--ruleset {rs.name}){crews} flags"):
                    formatter.write_dl(rows)


_COUNT = {1: "one", 2: "two", 3: "three", 4: "four"}


def flag_groups(grouping, own: dict, order: list[str], flags: dict) -> list[dict]:
    """Split ``--bike N ... --bike M ...`` (any grouping flag: ``TurnFlag.groups``) into groups.

    Without the grouping flag each flag of its group means what it always meant.  With
    it, each of them belongs to the group of the grouping flag given before it; the
    groups come back in order (the Final Five's: the first motorcycle moves first)."""
    key, option, noun = grouping.key, f"--{grouping.name}", grouping.noun or "group"
    valued = [k for k in grouping.groups if own[k].kind not in ("flag", "switch")]
    values = {k: list(flags[k] or ()) for k in valued}
    heads = list(flags[key] or ())
    groups: list[dict] = []
    top: dict = {}
    for name in order:
        if name == key:
            groups.append({key: heads[len(groups)]})
        elif name in grouping.groups:
            into = groups[-1] if groups else top
            flag = "--" + name.replace("_", "-")
            if name in into:
                if groups:
                    raise click.UsageError(f"{flag} given twice for {option} {groups[-1][key]}; one per {noun}")
                raise click.UsageError(f"{flag} given twice; give it once (or once after each {option})")
            into[name] = values[name].pop(0) if name in values else True
    if grouping.most and len(groups) > grouping.most:
        raise click.UsageError(f"{option} given {len(groups)} times; a turn moves at most "
                               f"{_COUNT.get(grouping.most, grouping.most)} {noun}s")
    if groups and top:
        first = "--" + next(iter(top)).replace("_", "-")
        raise click.UsageError(f"{first} comes before the first {option}; put each {noun}'s flags after its {option}")
    out = [{key: g[key], **{k: g.get(k) if k in values else bool(g.get(k)) for k in grouping.groups}} for g in groups]
    for g in out:
        for k in grouping.groups:
            for other in own[k].excludes:
                if g[k] not in (None, False) and g.get(other.replace("-", "_")):
                    raise click.UsageError(f"--{own[k].name} and --{other} exclude each other ({option} {g[key]})")
    return out


class _OrderedFlags(click.Command):
    """One ruleset's turn flags as a command of their own: parsing records the order the
    options were given in (a grouping flag, ``TurnFlag.groups``: the Final Five's ``--bike``,
    starts a group)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            _, _, order = self.make_parser(ctx).parse_args(args=list(args))
            ctx.meta["trv.order"] = [p.name for p in order]
        except click.UsageError:
            pass  # the real parse below reports it
        return super().parse_args(ctx, args)


def parse_flags(ruleset, args: list[str], parent: click.Context | None = None) -> tuple[dict, list[str]]:
    """The values of ``ruleset``'s turn flags among ``args`` (what `trv turn` left unparsed) and the
    order they were given in.  A flag of another ruleset is a usage error naming whose it is
    (the only case that imports the other rulesets)."""
    command = _OrderedFlags("turn", params=[_flag_option(f, f.choices) for f in ruleset.turn_flags],
                            add_help_option=False)
    try:
        ctx = command.make_context("turn", list(args), resilient_parsing=False)
    except click.NoSuchOption as exc:
        name = exc.option_name
        owners = [rs.name for rs, flags in _declared() for f in flags if f"--{f.name}" == name
                  or (f.kind == "switch" and f"--no-{f.name}" == name)]
        if owners:
            raise click.UsageError(f"{name} is a flag of {' and '.join(owners)}, not of {ruleset.name} "
                                   f"(this game is {ruleset.name}; see `trv turn --help`)", ctx=parent) from None
        import difflib

        known = {o for c in (command, parent.command if parent is not None else None) if c is not None
                 for p in c.get_params(parent or ctx) for o in [*p.opts, *p.secondary_opts]}
        raise click.NoSuchOption(name, possibilities=difflib.get_close_matches(name, sorted(known)),
                                 ctx=parent) from None
    except click.UsageError as exc:
        raise click.UsageError(exc.message, ctx=parent) from None
    return ctx.params, ctx.meta.get("trv.order", [])


def ruleset_flags(ruleset, values: dict, order: Sequence[str] = ()) -> dict:
    """The flags of ``ruleset`` from the parsed values; a flag given that
    belongs to another ruleset (or repeated where this one takes one) is a
    usage error naming the ruleset it belongs to."""
    from trvendetta.core.turnflags import by_key

    own = by_key(ruleset.turn_flags)
    given = {}
    for key, value in values.items():
        if value is None or value in ((), []) or (value is False and (key not in own or own[key].kind != "switch")):
            continue
        if key not in own:
            owners = [rs.name for rs, flags in _declared() for f in flags if f.key == key]
            belongs = " and ".join(owners or ["no ruleset"])
            raise click.UsageError(f"--{key.replace('_', '-')} is a flag of {belongs}, not of {ruleset.name} "
                                   f"(this game is {ruleset.name}; see `trv turn --help`)")
        given[key] = value
        for one in value if isinstance(value, (list, tuple)) else [value]:
            if own[key].refuses(one):
                from .args import unknown

                raise click.BadParameter(unknown(key.replace("_", " "), str(one), own[key].choices),
                                         param_hint=f"--{own[key].name}")
    out: dict = {}
    for grouping in (f for f in ruleset.turn_flags if f.groups and given.get(f.key)):  # the Final Five's --bike
        grouped = {k: values.get(k) for k in (grouping.key, *grouping.groups)}
        out[grouping.key + "s"] = flag_groups(grouping, own, list(order), grouped)
        given = {k: v for k, v in given.items() if k != grouping.key and k not in grouping.groups}
    for key, value in given.items():
        name = "--" + key.replace("_", "-")
        flag = own[key]
        if flag.multiple:
            out[key] = list(value) if isinstance(value, (list, tuple)) else [value]
        elif isinstance(value, (list, tuple)) and flag.kind != "steps" or (
                flag.kind == "steps" and value and isinstance(value[0], list)):
            if len(value) > 1:
                raise click.UsageError(f"{name} given {len(value)} times; a {ruleset.name} turn takes one")
            out[key] = value[0]
        else:
            out[key] = value
    for key in [k for k in out if k in own]:
        for other in own[key].excludes:
            if other.replace("-", "_") in out:
                raise click.UsageError(f"--{own[key].name} and --{other} exclude each other")
    return out


@click.command(cls=TurnCommand)
@as_option
@after_option
@json_option
@click.option("--dry-run", is_flag=True,
              help="Play the flags on a copy and print what they would record, where the turn stops and what is "
                   "legal there; record nothing (no die is rolled: a preview stops before one).")
@game_option
@pass_session
def turn(session: Session, player: str | None, seen_at: int | None, as_json: bool, dry_run: bool,
         **values: object) -> None:
    """Play the active player's turn from flags, then say what happened.

    The flags answer the turn's decisions in order (each ruleset's flags are
    listed below under its own heading).  Every flag given must be used: a
    flag this turn cannot use refuses the whole command (nothing recorded),
    naming the flag, why, and what was legal.  When a die roll changes the
    turn (a slam, a revealed hazard), what was played before it stands, the
    flags it made unusable are listed, and the turn waits on its next
    decision.  When the game waits on a choice the flags do not answer (a
    slam reroll that belongs to another player, say), the command says so
    and exits 0; answer it with `trv decide` or another `trv turn`.

    With --dry-run the flags are played on a copy: the command prints the
    events they would record, where the turn stops and what is legal there
    (what is in reach to shoot, say), or the refusal; it records nothing and
    stops before any die roll or hidden token.

    \b
    Examples:
      trv turn --car medium --assign 4
      trv turn --car small --assign 3 --path F,FR,F --dry-run
      trv turn --car small --assign 3 --path F,FR,F --road-die --shoot blue-medium
      trv turn --car large --assign 2 --command nitro --command-die 1 --no-shoot
      trv turn --reroll

    \b
    The Final Five (two motorcycles a turn, the first one moves first):
      trv turn --bike 1 --assign 4 --path F,FR,F,F --bike 3 --assign 2 --shoot blue-small
      trv turn --bike 2 --assign 5 --command nitro --command-die 1

    \b
    The Big Rig (--steering only on the round's first turn):
      trv turn --steering 2 --section front --command cow-catcher --assign 3 --path F,FR,F
      trv turn --section rear --command hazard-dispenser --assign 1 --hazard-at c4 --no-shoot
      trv turn --section mid --command traction-drive --assign 2 --path F,FR --place-damage rear:hazard-dispenser
      trv turn --car large --assign 4 --shoot red-front --target-command missile-launcher

    \b
    Classic (1986) games:
      trv turn --move 6:F,F,FR --move 5:F,F --move 4:FL --ram 6:blue-5
      trv turn --move 6:3+road:F,F,F,F --chopper blue-4 --shoot 5:blue-6
    """
    notes: list = []  # FlagProblems reported after a die roll changed the turn
    chance: list[bool | str] = [False]  # whether chance changed the turn, then what did

    def observe(events) -> None:
        if chance[0]:
            return
        for event in events:
            kind = rules.event_kind(event)
            if kind == "turn-ended":
                return
            if rules.reveals(event):
                chance[0] = True
                chance.append(rules.describe(event))  # what changed the turn, named in the message
                return

    rules: Any = None  # the game's ruleset, once ``actions`` is asked for the turn's actions
    # an exchange or host game stops at the first action that needs the other players' (or the
    # host's) dice: ``left`` keeps the driver and the state there, to name the flags not played
    left: dict = {}

    def actions(ruleset, state):
        nonlocal rules
        rules = ruleset
        ctx = click.get_current_context()
        # on a club server the turn goes on after the host rolled: the same flags, where they stopped
        driver = left.get("driver")
        if driver is None:
            flags, order = parse_flags(ruleset, ctx.args, ctx)
            driver = ruleset.turn_driver(ruleset_flags(ruleset, {**values, **flags}, order))
        played = left.get("played", 0)
        while True:
            action = driver.next(state())
            if action is None:
                if chance[0] and hasattr(driver, "go_on") and driver.go_on():
                    continue  # a die roll made some flags unusable: they are reported, the rest are played
                break
            played += 1
            left.update(driver=driver, state=state(), action=action, played=played)
            yield action
        left.clear()  # every action was played: the turn did not stop for dice
        problems = driver.finish(state())
        if problems and not chance[0]:
            first = problems[0]
            more = "".join(f"; {p.text()}" for p in problems[1:])
            raise RuleViolation("trv turn: every flag answers a decision of this turn",
                                f"{first.text()}{more}; nothing was played",
                                first.legal or (() if played else legal_names(ruleset, state())))
        notes.extend(problems)
        if not played:
            decision = ruleset.pending(state())
            if decision is not None:
                raise RuleViolation(
                    f"{decision.kind} for {decision.player}",
                    "these flags do not answer the pending decision",
                    legal_names(ruleset, state()),
                )

    if dry_run:
        from .identity import keyring_for

        preview = service(session).preview(session.game_id(), actions, player=player,
                                           keyring_for=lambda loaded: keyring_for(loaded, player))
        return print_preview(preview, left, as_json)
    played = play(session, actions, player=player, observe=observe, quiet=as_json, seen_at=seen_at)
    while left and session.server_send is not None and session.server_send():
        # the server rolled the dice the turn stopped for (printed): the rest of the flags play on
        if not chance[0]:
            chance[:] = [True, "the host's roll"]
        played = play(session, actions, player=player, observe=observe, quiet=as_json)
    later = [p for p in notes if p.waits]
    unused = [p for p in notes if not p.waits]
    lines: list[str] = []
    resume = None
    if unused:
        what = f" ({chance[1]})" if len(chance) > 1 else ""
        lines.append(f"not used after chance changed the turn{what}: " + "; ".join(p.text() for p in unused))
    if later:
        said, resume = resume_flags(played.ruleset, played.state, later, player)
        lines += said
    if left:
        said, resume = waiting_flags(rules, left)
        lines += said
        if resume:  # withdrawn or confirmed once the dice are in (`trv import`: check_hint)
            decision = played.ruleset.pending(left["state"])
            save_hint(session, played.loaded.game, decision.player if decision else player, resume,
                      played.loaded.version)
    else:
        drop_hint(session, played.loaded.game)  # this turn played: an older hint is spent
    if as_json:
        echo_json(played_json(played, unused=[p.text() for p in unused], resume=resume, said=lines))
        return
    for line in lines:
        click.echo(line)


def print_preview(preview, left: dict, as_json: bool = False) -> None:
    """``trv turn --dry-run``: the events the flags would record, where the turn stops, what is
    legal there (what is in reach to shoot, the road die...), the flags not reached."""
    ruleset, state = preview.ruleset, preview.state
    stopped = None if preview.stopped_before is None else ruleset.describe_action(preview.stopped_before)
    driver = left.get("driver")
    flags = [p.flag for p in driver.unplayed(state)] if stopped is not None and driver is not None else []
    decision = None if preview.ended else ruleset.pending(state)
    if as_json:
        events = [{"n": n, "kind": ruleset.event_kind(e), "text": ruleset.describe(e),
                   "event": msgspec.Raw(ruleset.encode(e))} for n, e in enumerate(preview.events, preview.first)]
        doc = {"dry_run": True, "events": events, "stopped_before": stopped, "not_previewed": flags,
               "turn_ends": preview.ended, "pending": None if decision is None else {
                   "player": decision.player, "kind": decision.kind, "prompt": decision.prompt,
                   "legal": legal_names(ruleset, state)}}
        echo_json(doc)
        return
    click.echo("dry run: nothing is recorded")
    for number, event in enumerate(preview.events, start=preview.first):
        click.echo(f"{number:>5}. {ruleset.describe(event)}")
    if stopped is not None:
        click.echo(f"stops before {stopped!r}: it rolls a die or turns a hidden token, which a preview never shows")
        if flags:
            click.echo(f"not previewed: {', '.join(flags)}")
    if preview.ended:
        click.echo("the turn ends there")
    elif decision is not None:
        click.echo(f"then {decision.player}: {decision.kind}"
                   + (f" ({decision.prompt})" if decision.prompt else "")
                   + ": " + ", ".join(legal_names(ruleset, state)))


def resume_flags(ruleset, state, later: list, player: str | None) -> tuple[list[str], str]:
    """The turn waits on a decision no flag answered (a slam reroll, another player's): the flags of
    its later decisions are kept in the one command that plays them once it is answered."""
    decision = ruleset.pending(state)
    flags = [p.flag for p in later]
    who = decision.player if decision is not None else "the game"
    what = f"{who}'s {decision.kind}" if decision is not None else "its next decision"
    again = f"trv turn{f' --as {player}' if player else ''} {' '.join(flags)}"
    return [f"not played yet (the turn waits on {what}): {', '.join(flags)}",
            f"once {who} has answered (trv decide ...), play them with: {again}"], again


def _hint_file(session: Session, game: str):
    """Where `trv turn` keeps the command it printed for after the dice (``$TRV_HOME/hints``), by
    store and game."""
    import hashlib

    from .identity import home

    key = hashlib.sha256(f"{session.location().kind}:{session.location().target}\0{game}".encode()).hexdigest()
    return home() / "hints" / f"{key[:32]}.json"


def save_hint(session: Session, game: str, player: str | None, command: str, version: int) -> None:
    """Keep ``command`` (a `trv turn` printed for after another store's dice) so the import of
    the dice can say whether it still applies."""
    path = _hint_file(session, game)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(msgspec.json.encode({"game": game, "player": player, "command": command,
                                         "version": version}).decode(), encoding="utf-8")


def drop_hint(session: Session, game: str) -> None:
    _hint_file(session, game).unlink(missing_ok=True)


def check_hint(session: Session, game: str) -> str | None:
    """After an import: the `trv turn` a turn printed for after the dice, if the game has moved on
    since, checked by a preview: withdrawn (and forgotten) when the dice changed the turn so that
    it no longer applies, else said again.  None when there is none to check."""
    import shlex

    from trvendetta.core.errors import TrvError

    path = _hint_file(session, game)
    try:
        hint = msgspec.json.decode(path.read_bytes())
    except (OSError, msgspec.DecodeError):
        return None
    if session.store().version(game) <= hint["version"]:
        return None  # the dice are not in yet
    argv = shlex.split(hint["command"])[2:]

    def actions(ruleset, state):
        values, order = parse_flags(ruleset, argv, click.get_current_context(silent=True))
        driver = ruleset.turn_driver(ruleset_flags(ruleset, values, order))
        played = 0
        while (action := driver.next(state())) is not None:
            played += 1
            yield action
        problems = driver.finish(state())
        if problems or not played:
            raise RuleViolation("trv turn", "; ".join(p.text() for p in problems)
                                or "its flags answer no decision the game waits on now", ())

    from .identity import keyring_for

    player = hint["player"]
    try:
        service(session).preview(game, actions, player=player, keyring_for=lambda loaded: keyring_for(loaded, player))
    except (TrvError, click.UsageError) as exc:
        path.unlink(missing_ok=True)
        why = exc.message if isinstance(exc, click.UsageError) else str(exc)
        return f"withdrawn: `{hint['command']}`, printed while the turn waited for the dice, no longer applies: {why}"
    return f"still to play, now that the dice are in: {hint['command']} (--dry-run shows it first)"


def waiting_flags(ruleset, left: dict) -> tuple[list[str], str | None]:
    """The turn stopped at an action that waits for remote dice: name every flag it did not play
    (nothing is dropped silently) and how to play them once the dice are in."""
    driver = left["driver"]
    flags = [p.flag for p in getattr(driver, "unplayed", driver.finish)(left["state"])]
    what = ruleset.describe_action(left["action"])
    if not flags:
        return [f"every flag was played; {what!r} waits for the dice"], None
    again = f"trv turn {' '.join(flags)}"
    return [f"not played yet ({what!r} waits for the dice): {', '.join(flags)}",
            f"once the reply is imported, play them with: {again}"], again


def _print_targets(game, as_json: bool) -> None:
    """`trv legal --targets` (``app.targets.reachable_targets``)."""
    from trvendetta.app.targets import reachable_targets

    reach = reachable_targets(game.ruleset, game.state)
    if as_json:
        echo_json({"player": reach.player, "kind": reach.kind, "targets": reach.targets,
                   "chance": reach.chance, "truncated": reach.truncated})
        return
    click.echo(f"{reach.player}: {reach.kind}; in reach of a shot this turn (no command; ways through a slam "
               "or a hidden token not followed):")
    for first, found in reach.targets.items():
        ways = ", ".join(f"{target} ({'; '.join(way) or 'now'})" for target, way in sorted(found.items()))
        cut = reach.chance.get(first, 0)
        note = f" [{cut} way{'s' if cut != 1 else ''} cut by chance]" if cut else ""
        click.echo(f"  {first}: {ways or 'nothing'}{note}")
    if reach.truncated:
        click.echo("the search stopped at its budget: options listed last may reach more")


@click.command()
@json_option
@click.option("--targets", is_flag=True,
              help="For each option, the vehicles a shot can reach this turn and a shortest way to each.")
@game_option
@pass_session
def legal(session: Session, as_json: bool, targets: bool) -> None:
    """List the legal actions of the pending decision.

    With --json, print a JSON array of action objects exactly as the engine
    encodes them: any of them can be passed to `trv act`.

    With --targets, what each option leads to a shot at this turn: for each
    option (each die on each car), the vehicles in reach and one shortest way
    to each (the names `trv decide` takes, or the steps of `trv turn
    --path`).  Like a dry run it never tells chance: a way through a slam or
    a hidden token is not followed (said per option), and commands are left
    out (each way takes no-command).

    \b
    Examples:
      trv legal
      trv legal --targets                 # which die on which car reaches a shot
      trv legal --json
      trv act "$(trv legal --json | jq -c '.[0]')"
    """
    game = session.view()
    if targets:
        return _print_targets(game, as_json)
    ruleset = game.ruleset
    state = seen(session, game)  # a favor dealt to you face down is yours to play
    options = ruleset.legal_actions(state)
    if as_json:
        echo_json([msgspec.Raw(ruleset.encode(a)) for a in options])
        return
    decision = ruleset.pending(state)
    if decision is None:
        click.echo("the game is over; nothing is legal")
        return
    click.echo(f"{decision.player}: {decision.kind}" + (f" ({decision.prompt})" if decision.prompt else ""))
    for line in ruleset.legal_lines(state, options):
        click.echo(f"  {line}")


@click.command()
@click.argument("action_json", metavar="ACTION_JSON")
@as_option
@after_option
@json_option
@game_option
@pass_session
def act(session: Session, action_json: str, player: str | None, seen_at: int | None, as_json: bool) -> None:
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
            quoted = repr(action_json) if len(action_json) <= 80 else \
                f"{action_json[:60]!r}... ({len(action_json)} characters)"
            raise RuleViolation("action JSON", f"{quoted} is not an action: {_clip(str(exc))}",
                                [ruleset.encode(a).decode() for a in ruleset.legal_actions(state())]) from None
        yield action

    played = play(session, actions, player=player, quiet=as_json, seen_at=seen_at)
    if as_json:
        echo_json(played_json(played))


@click.command()
@click.argument("choice", nargs=-1, required=True)
@as_option
@json_option
@game_option
@pass_session
def decide(session: Session, choice: tuple[str, ...], player: str | None, as_json: bool) -> None:
    """Answer the pending decision by the printed name of an option (see `trv legal`).

    \b
    Examples:
      trv decide reroll
      trv decide assign 4 to red-medium
      trv decide FR
    """
    wanted = " ".join(choice)

    def actions(ruleset, state):
        yield ruleset.parse_action(state(), wanted)  # the ruleset's notation (as records read move text)

    played = play(session, actions, player=player, quiet=as_json)
    if as_json:
        echo_json(played_json(played))


COMMANDS = [turn, legal, act, decide]


def _clip(text: str, most: int = 200) -> str:
    """An error's own words, at most ``most`` characters (an input quoted in it may be huge)."""
    return text if len(text) <= most else text[:most] + "..."
