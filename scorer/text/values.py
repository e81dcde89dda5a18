"""How a value is shown in every message: as a ruleset file writes it.

>>> show(None), show(True), show(64), show("flip")
('none', 'true', '64', 'flip')
"""

from __future__ import annotations

from typing import Any


def show(v: Any) -> str:
    """A value as a ruleset file writes it: ``none``, ``true``/``false``, else ``str(v)``.

    >>> show(False), show(1.5)
    ('false', '1.5')
    """
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)
