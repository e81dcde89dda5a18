"""Where a user's files live, by the platform's conventions: the one home of mjscore's folders.

The cache of built rulesets (:mod:`scorer.rules.store`) and the configuration file
(:mod:`scorer.cli.config`) live in the folders platformdirs gives (``appauthor=False``),
worked out here without importing it (importing platformdirs is 6 ms of every start;
tests/test_folders.py holds these folders equal to platformdirs' own):

* cache: ``$XDG_CACHE_HOME/mjscore``, else ``~/.cache/mjscore``; macOS
  ``~/Library/Caches/mjscore``; Windows ``%LOCALAPPDATA%\\mjscore\\Cache``;
* config: ``$XDG_CONFIG_HOME/mjscore``, else ``~/.config/mjscore``; macOS
  ``~/Library/Application Support/mjscore``; Windows ``%LOCALAPPDATA%\\mjscore``.

An ``XDG_*`` variable counts on macOS too (as platformdirs reads it since 4.6), and only when
it is an absolute path (a relative one is ignored, as the XDG specification says).
Nothing here is created or read: a folder is only named.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import Any

__all__ = ["KINDS", "folder"]

# kind -> (its XDG variable, its folder under the home on Linux, on macOS, its tail on Windows)
KINDS: dict[str, tuple[str, tuple[str, ...], tuple[str, ...], tuple[str, ...]]] = {
    "cache": ("XDG_CACHE_HOME", (".cache",), ("Library", "Caches"), ("Cache",)),
    "config": ("XDG_CONFIG_HOME", (".config",), ("Library", "Application Support"), ()),
}


def folder(kind: str, platform: str | None = None, environ: Mapping[str, str] | None = None,
           path: Any = os.path) -> str | None:
    """The per-user folder of ``kind`` (``"cache"`` or ``"config"``) by the platform's
    conventions, or None when it cannot be known (no home folder); ``path`` is ``os.path``
    (``ntpath``/``posixpath`` in tests).

    >>> import ntpath, posixpath
    >>> folder("cache", "win32", {"LOCALAPPDATA": "C:\\\\Users\\\\ann\\\\AppData\\\\Local"}, ntpath)
    'C:\\\\Users\\\\ann\\\\AppData\\\\Local\\\\mjscore\\\\Cache'
    >>> folder("config", "darwin", {"HOME": "/Users/ann"}, posixpath)
    '/Users/ann/Library/Application Support/mjscore'
    >>> folder("config", "linux", {"HOME": "/home/ann", "XDG_CONFIG_HOME": "rel"}, posixpath)
    '/home/ann/.config/mjscore'
    """
    xdg_var, linux, macos, windows = KINDS[kind]
    platform = sys.platform if platform is None else platform
    env = os.environ if environ is None else environ
    if platform == "win32":  # platformdirs' CSIDL_LOCAL_APPDATA, then "mjscore" (and a tail)
        local = env.get("LOCALAPPDATA", "")
        return str(path.join(local, "mjscore", *windows)) if path.isabs(local) else None
    xdg = env.get(xdg_var, "")
    if path.isabs(xdg):  # a relative one is ignored, as the XDG specification says
        return str(path.join(xdg, "mjscore"))
    # HOME unset: the passwd entry, if there is one (a container's --user N has none)
    home = env.get("HOME", "") if "HOME" in env or environ is not None else os.path.expanduser("~")
    if not path.isabs(home):  # HOME empty or relative, or a uid without a passwd entry
        return None
    return str(path.join(home, *(macos if platform == "darwin" else linux), "mjscore"))
