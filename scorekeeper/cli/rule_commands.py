"""The rules engine on the command line: `check`, `solve`, `hit`, `score`, `rate` and
`standings`, for settling a question at the table."""

from __future__ import annotations

import argparse
import json
from typing import Any

from .. import i18n
from ..i18n import _, ngettext
from ..rules.cards import parse_card, parse_cards
from ..rules.phases import GroupKind
from ..rules.ruleset import Rules, make_rules, parse_option_args
from .common import BadInput, Command, game_arg, json_arg, number, read_game


def _rules(args: argparse.Namespace) -> Rules:
    return make_rules(args.rules, parse_option_args(args.option or []))


def _cards(text: str, rules: Rules):
    cards = parse_cards(text, rules.suit_colours)
    if not cards:
        raise BadInput(_("no cards given"))
    return cards


def _print_verdict(result: dict[str, Any], args: argparse.Namespace, text: str) -> None:
    print(json.dumps(result) if args.json else text)


def cmd_check(args: argparse.Namespace) -> int:
    from ..rules.check import check_phase

    rules = _rules(args)
    groups = [_cards(group, rules) for group in args.groups]
    verdict = check_phase(rules, args.phase, groups)
    phase = rules.phase(args.phase)
    lines = [
        _("Phase %(number)s (%(phase)s): valid", number=args.phase, phase=phase)
        if verdict.valid
        else _("Phase %(number)s (%(phase)s): not valid", number=args.phase, phase=phase)
    ]
    lines += [f"- {reason.cited()}" for reason in verdict.problems]
    _print_verdict({**verdict.to_json(), "phase": args.phase}, args, "\n".join(lines))
    return 0 if verdict.valid else 1


def cmd_solve(args: argparse.Namespace) -> int:
    from ..rules.solve import solve

    rules = _rules(args)
    solution = solve(rules, args.phase, _cards(args.hand, rules))
    if solution.can_make:
        groups = " | ".join(
            " ".join(card.code for card in group) for group in solution.groups or ()
        )
        text = _("Phase %(number)s can be made: %(groups)s", number=args.phase, groups=groups)
    else:
        text = ngettext(
            "Phase %(number)s cannot be made yet: %(num)s card missing",
            "Phase %(number)s cannot be made yet: %(num)s cards missing",
            solution.missing,
            number=args.phase,
        ) + "".join(f"\n- {need}" for need in solution.missing_cards)
    _print_verdict({**solution.to_json(), "phase": args.phase}, args, text)
    return 0 if solution.can_make else 1


def cmd_hit(args: argparse.Namespace) -> int:
    from ..rules.hit import check_hit

    rules = _rules(args)
    kind = GroupKind("colour" if args.kind == "color" else args.kind)
    card = parse_card(args.card, rules.suit_colours)
    verdict = check_hit(rules, kind, _cards(args.group, rules), card)
    text = (
        _("%(card)s fits: %(where)s", card=card.code, where=verdict.where)
        if verdict.valid
        else _("%(card)s does not fit", card=card.code)
    )
    text += "".join(f"\n- {reason.cited()}" for reason in verdict.problems)
    _print_verdict(verdict.to_json(), args, text)
    return 0 if verdict.valid else 1


def cmd_score(args: argparse.Namespace) -> int:
    from ..rules.cards import impossible
    from ..rules.scoring import hand_points

    rules = _rules(args)
    cards = parse_cards(args.cards, rules.suit_colours)
    problems = impossible(cards, rules.super_wild)
    if problems:
        raise BadInput("; ".join(problems))
    points = hand_points(rules, cards)
    words = ngettext("%(points)s point", "%(points)s points", points, points=number(points))
    _print_verdict({"points": points, "cards": len(cards)}, args, words)
    return 0


def cmd_rate(args: argparse.Namespace) -> int:
    """Rate a phase list (the given one, a drawn one, or the rules' own); 1 if a phase
    needs more cards than a hand holds."""
    import random
    import secrets

    from ..rules import rating
    from ..rules.draw import draw_phases
    from ..rules.phases import parse_phase_list

    rules = _rules(args)
    if args.phases and args.draw:
        raise BadInput(_("give a phase list or --draw, not both"))
    if not 0 <= args.turns <= rating.MAX_TURNS:
        raise BadInput(_("--turns must be from 0 to %(most)s", most=rating.MAX_TURNS))
    if not 1 <= args.trials <= rating.MAX_TRIALS:
        raise BadInput(_("--trials must be from 1 to %(most)s", most=rating.MAX_TRIALS))
    seed = args.seed
    if args.draw:
        drawn = secrets.randbelow(10**6) if seed is None else seed
        phases = draw_phases(random.Random(drawn))
    elif args.phases:
        phases = parse_phase_list(args.phases)
    else:
        phases = tuple(rules.phase(n) for n in rules.sequence)
    found = rating.rate(
        phases,
        rules,
        turns=args.turns,
        trials=args.trials,
        seed=rating.DEFAULT_SEED if seed is None else seed,
        ordered=not args.as_given,
    )
    answer = found.to_json()
    if args.draw:
        answer["drawn"] = drawn
    if args.json:
        print(json.dumps(answer))
        return 1 if found.too_big else 0

    percent = i18n.percent
    print(
        ngettext(
            "The chance that 10 dealt cards and %(num)s drawn, with nothing discarded, hold "
            "each phase (%(trials)s deals, 95%% interval):",
            "The chance that 10 dealt cards and %(num)s drawn, with nothing discarded, hold "
            "each phase (%(trials)s deals, 95%% interval):",
            found.turns,
            trials=number(found.trials),
        )
    )
    for rated in found.phases:
        low, high = rated.interval
        figures = (
            _("never: more cards than a hand holds")
            if rated.too_big
            else f"{percent(rated.chance):>5} ({percent(low)}–{percent(high)})"
        )
        print(f"{rated.number:>3}. {str(rated.phase):<36} {figures}")
    low, high = found.interval
    print(
        _(
            "A hand holds %(average)s of this list's phases on average (%(low)s–%(high)s).",
            average=percent(found.average),
            low=percent(low),
            high=percent(high),
        )
    )
    if args.draw:
        print(_("Drawn with --seed %(seed)s.", seed=drawn))
    return 1 if found.too_big else 0


def cmd_standings(args: argparse.Namespace) -> int:
    standings = read_game(args.game)[1]
    result = standings.to_json()
    if args.json:
        print(json.dumps(result))
        return 0
    for p in standings.players:
        state = _("done") if p.finished else _("phase %(number)s", number=p.phase)
        points = ngettext("%(points)5s point", "%(points)5s points", p.score, points=p.score)
        print(f"{p.name:<20} {state:<9} {points}")
    if standings.ended_early:
        print(_("Ended early after hand %(number)s.", number=standings.hands_played))
    if standings.over and standings.winner:
        print(_("Winner: %(player)s", player=standings.winner))
    elif standings.tiebreak:
        print(_("Tiebreak between: %(players)s", players=i18n.join(standings.tiebreak)))
    else:
        print(
            _(
                "Next hand: %(number)s, dealt by %(dealer)s",
                number=standings.hand_number,
                dealer=standings.dealer,
            )
        )
    return 0


def rule_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--rules",
        default="official",
        help=_(
            "rule profile: official, plus10, even, ten-hands, masters, "
            "mixed-up, super-wild (default: official)"
        ),
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help=_("a house rule, e.g. wild_points=20 or natural=phase (repeatable)"),
    )
    json_arg(parser)


def add_commands(command: Command) -> None:
    """`check`, `solve`, `hit`, `score`, `rate` and `standings`, with their arguments."""
    p = command("check", _("Is this a valid phase? Give each group as one argument."), cmd_check)
    rule_args(p)
    p.add_argument("--phase", type=int, required=True, help=_("the phase number"))
    p.add_argument(
        "groups",
        nargs="+",
        metavar="GROUP",
        help=_('the cards of one group, e.g. "R7 B7 W" (a run\'s cards in any order)'),
    )

    p = command("solve", _("Can this hand make the phase, and how?"), cmd_solve)
    rule_args(p)
    p.add_argument("--phase", type=int, required=True, help=_("the phase number"))
    p.add_argument("hand", help=_('the cards in hand, e.g. "R1 B2 W S G5"'))

    p = command("hit", _("Does this card fit that laid-down group, and where?"), cmd_hit)
    rule_args(p)
    p.add_argument(
        "--kind",
        required=True,
        choices=["set", "run", "colour", "color"],
        help=_("the kind of group"),
    )
    p.add_argument("group", help=_("the group's cards (a run in order, each Wild where it stands)"))
    p.add_argument("card", help=_("the card to hit with"))

    p = command("score", _("How many points are these cards left in hand?"), cmd_score)
    rule_args(p)
    p.add_argument("cards", help=_('the cards, e.g. "R7 B11 W S"'))

    _rate_command(command)

    p = command("standings", _("Replay a game file (JSON) into the standings."), cmd_standings)
    game_arg(p)
    json_arg(p)


def _rate_command(command: Command) -> None:
    p = command(
        "rate",
        _(
            "How hard is this phase list? The chance that 10 dealt cards and N drawn ones, "
            "with nothing discarded, hold each phase, by dealing many hands (easiest first)."
        ),
        cmd_rate,
    )
    rule_args(p)
    p.add_argument(
        "phases",
        nargs="?",
        metavar="PHASES",
        help=_(
            "the phases, separated by ';', e.g. \"2 sets of 3; run of 7\" "
            "(default: the rules' own list)"
        ),
    )
    p.add_argument("--draw", action="store_true", help=_("draw a random list of ten phases"))
    p.add_argument(
        "--turns",
        type=int,
        default=5,
        help=_("cards drawn after the 10 dealt, one a turn (default 5)"),
    )
    p.add_argument(
        "--trials", type=int, default=1000, help=_("hands dealt for the estimate (default 1000)")
    )
    p.add_argument(
        "--seed",
        type=int,
        help=_("repeat a rating or a drawn list exactly (default: the same figures every time)"),
    )
    p.add_argument(
        "--as-given", action="store_true", help=_("keep the list's order (default: easiest first)")
    )
