"""scorer.folders: mjscore's per-user folders are platformdirs' (the library made for this,
an independent oracle), worked out without importing it: the config folder here, the cache
folder in tests/rules/test_store_portable.py."""

from __future__ import annotations

import ntpath
import os
import posixpath
from pathlib import Path

import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from scorer import folders


@pytest.mark.parametrize("xdg", [None, "/etc/ann", "relative/config", ""])
@pytest.mark.parametrize("kind", ["config", "cache"])
def test_the_folders_are_platformdirs_on_linux_and_macos(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: str | None, kind: str) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "ann"))
    var = folders.KINDS[kind][0]
    if xdg is None:
        monkeypatch.delenv(var, raising=False)
    else:
        monkeypatch.setenv(var, xdg)
    linux = getattr(platformdirs.unix.Unix("mjscore", appauthor=False), f"user_{kind}_dir")
    macos = getattr(platformdirs.macos.MacOS("mjscore", appauthor=False), f"user_{kind}_dir")
    assert folders.folder(kind, "linux") == linux
    assert folders.folder(kind, "darwin") == macos
    if kind == "config":  # by hand: XDG_CONFIG_HOME when absolute, else ~/.config
        assert linux == (f"{xdg}/mjscore" if xdg and xdg.startswith("/")
                         else str(tmp_path / "ann" / ".config" / "mjscore"))


@pytest.mark.parametrize("kind", ["config", "cache"])
def test_the_folders_are_platformdirs_on_windows(monkeypatch: pytest.MonkeyPatch,
                                                 kind: str) -> None:
    local = "C:\\Users\\ann\\AppData\\Local"
    monkeypatch.setenv("LOCALAPPDATA", local)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder",
                        platformdirs.windows.get_win_folder_from_env_vars)
    monkeypatch.setattr(os, "path", ntpath)  # Windows paths: as platformdirs joins them
    expected = getattr(platformdirs.windows.Windows("mjscore", appauthor=False),
                       f"user_{kind}_dir")
    monkeypatch.undo()
    assert folders.folder(kind, "win32", {"LOCALAPPDATA": local}, ntpath) == expected
    assert folders.folder(kind, "win32", {}, ntpath) is None


def test_no_home_no_folder() -> None:
    for env in ({}, {"HOME": ""}, {"HOME": "relative"}):
        for platform in ("linux", "darwin"):
            assert folders.folder("config", platform, env, posixpath) is None, env
