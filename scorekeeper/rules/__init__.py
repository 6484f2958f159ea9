"""The rules engine: cards, phases, checks, hits, the solver, scoring and replaying a game,
plain Python (docs/rules.md is what it implements, docs/architecture.md lists its modules).

Layer: the bottom, used by every other layer; imports only ``i18n`` (each reason and word
in the reader's language), and no Flask, SQLite or reportlab.
"""
