"""Thunder Road: Vendetta - Carnival of Chaos (rulebook 002).

Not yet a registered ruleset: this package holds the arena's component data
(``components``) and the pure arena, scrap and scoring rules the ruleset will
be built from (docs/rules-decisions.md "Carnival of Chaos" says what is done).
"""
