"""The ruleset store on every table's laptop (scorer.rules.store): the platform's cache
folder, Windows simulated (no owners, no modes: os.getuid removed), and the faults a
laptop or a container meets -- HOME unset for a user without a home, a FIFO where an
entry should be, a cache that cannot be written, Windows refusing a replace -- each of
which scores as without a cache (exit 0, the same answer) and says so in one line.

The expected folders are platformdirs' (the library made for this, an independent
oracle): the store works them out without importing it (6 ms of every start).
"""

from __future__ import annotations

import contextlib
import json
import ntpath
import os
import posixpath
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import platformdirs.macos
import platformdirs.unix
import platformdirs.windows
import pytest

from scorer.rules import notices, store
from scorer.rules.files import builtin_path

ROOT = Path(__file__).resolve().parents[2]
HAND = ["score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw", "--json"]
PAYMENTS = {"E": 12, "S": -4, "W": -4, "N": -4}  # tests/cli/test_app.py's worked hand


# -- the folder -----------------------------------------------------------------------------
@pytest.mark.parametrize("xdg", [None, "/var/cache/ann", "relative/cache", ""])
def test_the_folder_is_platformdirs_folder_on_linux_and_macos(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, xdg: str | None) -> None:
    monkeypatch.setenv("HOME", str(tmp_path / "ann"))
    if xdg is None:
        monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    else:
        monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    linux = platformdirs.unix.Unix("mjscore", appauthor=False).user_cache_dir
    assert store.folder("linux") == linux
    assert linux == (f"{xdg}/mjscore" if xdg and xdg.startswith("/")
                     else str(tmp_path / "ann" / ".cache" / "mjscore"))
    macos = platformdirs.macos.MacOS("mjscore", appauthor=False).user_cache_dir
    assert store.folder("darwin") == macos


def test_the_folder_is_platformdirs_folder_on_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    # platformdirs asks Windows for the Local AppData folder (SHGetKnownFolderPath), which
    # is LOCALAPPDATA: given here, as on Windows, through its environment fallback
    local = "C:\\Users\\ann\\AppData\\Local"
    monkeypatch.setenv("LOCALAPPDATA", local)
    monkeypatch.setattr(platformdirs.windows, "get_win_folder",
                        platformdirs.windows.get_win_folder_from_env_vars)
    monkeypatch.setattr(os, "path", ntpath)  # Windows paths: as platformdirs joins them
    expected = platformdirs.windows.Windows("mjscore", appauthor=False).user_cache_dir
    monkeypatch.undo()
    assert expected == "C:\\Users\\ann\\AppData\\Local\\mjscore\\Cache"
    assert store.folder("win32", {"LOCALAPPDATA": local}, ntpath) == expected
    assert store.folder("win32", {}, ntpath) is None  # no LOCALAPPDATA: no cache


def test_no_home_no_folder() -> None:
    for env in ({}, {"HOME": ""}, {"HOME": "relative"}):
        assert store.folder("linux", env, posixpath) is None, env
        assert store.folder("darwin", env, posixpath) is None, env


def test_mjscore_cache_dir_names_the_folder(monkeypatch: pytest.MonkeyPatch,
                                             tmp_path: Path) -> None:
    monkeypatch.setattr(store, "_said", [])
    notices.take()
    monkeypatch.setenv("MJSCORE_CACHE_DIR", str(tmp_path / "c"))
    assert store.directory() == tmp_path / "c"
    monkeypatch.setenv("MJSCORE_CACHE_DIR", "relative/c")
    assert store.directory() is None
    assert store.read_built(str(builtin_path("mcr")), "id: mcr") is None
    assert store.read_built(str(builtin_path("mcr")), "id: mcr") is None
    # once, and as a notice: said after a run that succeeds (scorer.rules.notices)
    assert [str(n) for n in notices.take()] == [
        "MJSCORE_CACHE_DIR is not an absolute path; rulesets are read from their files "
        "(MJSCORE_NO_CACHE=1 turns the cache off)"]


# -- the command, in a child process, with a fault ----------------------------------------
def child(env: dict[str, str], prelude: str = "", args: list[str] = HAND,
          timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``mjscore ARGS`` in a child with exactly ``env`` (plus PATH and the suite's
    PYTHONPATH) after ``prelude``; its last stderr line says whether PyYAML was imported
    (no: the ruleset came from a built entry)."""
    code = (f"import os, sys\n{prelude}\nfrom scorer.cli.entry import main\ncode = 0\n"
            f"try:\n    main({args!r})\nexcept SystemExit as e:\n    code = e.code\n"
            "print('yaml' in sys.modules, file=sys.stderr)\nsys.exit(code)\n")
    base = {k: os.environ[k] for k in ("PATH", "PYTHONPATH", "PYTHONSAFEPATH", "SYSTEMROOT")
            if k in os.environ}
    base["MJSCORE_LANG"] = "en"  # (the notices' English words; zh: tests/rules/test_store.py)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**base, **env},
                          capture_output=True, text=True, timeout=timeout, check=False)


def scored(r: subprocess.CompletedProcess[str]) -> tuple[list[str], bool]:
    """(the lines on stderr before the probe's, whether PyYAML was imported), after
    checking the child scored the hand right."""
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["payments"] == PAYMENTS
    *lines, probe = r.stderr.splitlines()
    return lines, probe == "True"


UNUSED = "; rulesets are read from their files (MJSCORE_NO_CACHE=1 turns the cache off)"

# No owners, no modes, Windows' folder: os.getuid is what tells the store it has owners
# to check (Windows has none), and the folder follows the platform given.
# Windows: no owners, and every folder (the cache's, the config's: scorer.folders) where
# Windows keeps it
WINDOWS = ("del os.getuid\nimport functools\nimport scorer.rules.store as store\n"
           "import scorer.folders as folders\n_folder = folders.folder\n"
           "folders.folder = lambda kind, platform=None, environ=None, path=os.path: "
           "_folder(kind, 'win32', environ, path)\n"
           "store.folder = functools.partial(store.folder, 'win32')")


def test_windows_scores_and_caches_where_windows_keeps_caches(tmp_path: Path) -> None:
    env = {"LOCALAPPDATA": str(tmp_path / "Local")}
    first = scored(child(env, WINDOWS))
    assert first == ([], True)  # built from the file (PyYAML), no complaint
    d = tmp_path / "Local" / "mjscore" / "Cache"
    assert sorted(p.suffix for p in d.iterdir()) == [".built", ".json"]
    # modes mean nothing on Windows: a folder and entries "open to others" are still read
    d.chmod(0o777)
    for e in d.iterdir():
        e.chmod(0o666)
    assert scored(child(env, WINDOWS)) == ([], False)  # from the built entry: no PyYAML
    # the same folder on POSIX is refused, and one line says why
    lines, yaml = scored(child({"MJSCORE_CACHE_DIR": str(d)}))
    assert lines == [f"mjscore: not using the ruleset cache {d}: group or others may use "
                     f"it (chmod 700 makes it private){UNUSED}"] and yaml


def test_windows_without_localappdata_scores_without_a_cache() -> None:
    lines, yaml = scored(child({}, WINDOWS))
    assert lines == ["mjscore: no cache folder is known (HOME, or LOCALAPPDATA on Windows, is "
                     f"not set){UNUSED}"] and yaml


def test_home_unset_for_a_user_without_a_home(tmp_path: Path) -> None:
    # `docker run --user 12345` and `env -i`: no HOME, and no passwd entry to find one in
    no_entry = "import pwd\ndef _gone(uid):\n    raise KeyError(uid)\npwd.getpwuid = _gone"
    lines, yaml = scored(child({}, no_entry))
    assert lines == ["mjscore: no cache folder is known (HOME, or LOCALAPPDATA on Windows, is "
                     f"not set){UNUSED}"] and yaml
    # with a passwd entry, HOME unset still finds the home folder (os.path.expanduser)
    assert store.folder("linux", None) is not None


def test_a_fifo_or_device_where_an_entry_should_be_is_never_opened(tmp_path: Path) -> None:
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    hz = builtin_path("hangzhou")
    text = hz.read_text(encoding="utf-8")
    for name in (store.entry_key(str(hz), text) + store.DOC_SUFFIX,
                 store._built_name(str(hz), text)):
        os.mkfifo(d / name, 0o600)  # opened for reading, a FIFO waits for a writer: forever
    env = {"MJSCORE_CACHE_DIR": str(d)}
    assert scored(child(env, timeout=30)) == ([], True)
    assert all(p.is_file() for p in d.iterdir())  # replaced by the entries
    assert scored(child(env)) == ([], False)
    # and read_private never opens one, whatever its name
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo, 0o600)
    assert store.read_private(fifo) is None
    assert store.read_private(Path("/dev/null")) is None and store.read_private(d) is None


@contextlib.contextmanager
def read_only(d: Path) -> Iterator[str]:
    """``d`` made read-only for this user; yields the prelude a child needs if the system
    could not make it so (root ignores modes: chattr +i then, where the filesystem has it;
    else the child's writes are refused as the system would refuse them)."""
    d.chmod(0o500)
    immutable = False
    if os.geteuid() == 0 and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(d)], capture_output=True,
                                   check=False).returncode == 0
    try:
        probe = d / "probe"
        try:
            probe.write_text("")
            probe.unlink()
            prelude = ("import tempfile\ndef _refuse(*a, **k):\n"
                       "    raise PermissionError(13, 'Permission denied')\n"
                       "tempfile.NamedTemporaryFile = _refuse")
        except OSError:
            prelude = ""  # the system refuses, as on a read-only disk or for a user
        yield prelude
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(d)], check=True)
        d.chmod(0o700)


def test_a_cache_that_cannot_be_written(tmp_path: Path) -> None:
    d = tmp_path / "cache"
    d.mkdir(mode=0o700)
    env = {"MJSCORE_CACHE_DIR": str(d)}
    with read_only(d) as prelude:
        lines, yaml = scored(child(env, prelude))
        # (chattr's refusal is "Operation not permitted")
        assert lines in ([f"mjscore: cannot write the ruleset cache {d} ({why}){UNUSED}"]
                         for why in ("Permission denied", "Operation not permitted")) and yaml
        assert list(d.iterdir()) == []
    scored(child(env))  # writable again: the entries are written
    with read_only(d) as prelude:
        # a read-only cache that holds the entry is still read, and nothing is said
        assert scored(child(env, prelude)) == ([], False)


def test_windows_refusing_a_replace_is_tried_again(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    # Windows refuses to replace a file another process has open (a start reading it)
    real = os.replace
    refusals = [PermissionError(13, "Access is denied")] * 2

    def replace(src: str, dst: Path) -> None:
        if refusals:
            raise refusals.pop()
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    monkeypatch.delattr(os, "getuid")
    store.write_private(tmp_path, "x.json", b"{}")
    assert (tmp_path / "x.json").read_bytes() == b"{}" and refusals == []
    assert [p.name for p in tmp_path.iterdir()] == ["x.json"]


def test_on_posix_a_refused_replace_leaves_nothing(tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(src: str, dst: Path) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(store, "_said", [])
    monkeypatch.setattr(os, "replace", refuse)
    notices.take()
    store.write_private(tmp_path, "x.json", b"{}")
    assert list(tmp_path.iterdir()) == []  # the temporary file removed
    said = [str(n) for n in notices.take()]
    assert len(said) == 1 and said[0].startswith(
        f"cannot write the ruleset cache {tmp_path} (Permission denied)")


def test_without_owners_only_the_file_type_and_size_are_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    entry = tmp_path / "e.json"
    entry.write_bytes(b"{}")
    entry.chmod(0o666)
    assert store.read_private(entry) is None  # POSIX: others may write it
    monkeypatch.delattr(os, "getuid")
    assert store.read_private(entry) == b"{}"
    assert store.read_private(entry, limit=1) is None
    assert store._trusted_dir(os.lstat(tmp_path)) == ""
    link = tmp_path / "link"
    link.symlink_to(tmp_path)
    assert store._trusted_dir(os.lstat(link)) == "not_dir"  # (trust.not_dir: not a directory)
