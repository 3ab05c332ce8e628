"""Thunder Road: Vendetta - Carnival of Chaos (rulebook 002).

Not yet a registered ruleset: this package holds the arena's component data
(``components``) and the pure rules the ruleset will be built from
(``arena``, ``foundation``, ``scrap``, ``tina``, ``decrees``, ``favors``,
``weapons``, ``scoring``, ``render``); docs/architecture.md "Carnival of
Chaos" says how they plug into Vendetta's rules.
"""
