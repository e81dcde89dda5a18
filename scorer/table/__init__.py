"""What a table does with scored hands: compare rulings, settle a round, keep the ledger.

* :mod:`.dispute` — one hand under two rulesets (or two option settings), compared;
* :mod:`.round` — a Sichuan round from its events in order, settled;
* :mod:`.ledger` — the evening's payments booked to players, totals and transfers.

Pure computations over :mod:`scorer.engine`'s results (no I/O); :mod:`scorer.views`
renders them.
"""
