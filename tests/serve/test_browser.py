"""The serve page in a real browser: headless Chromium driven by Selenium (marker ``browser``).

Deselected by default; ``.ci/run`` runs ``pytest -m browser`` in a step of its own after
installing Debian's ``chromium`` and ``chromium-driver`` and the ``[browser]`` extra. A
player's actions are done as a player does them: tap tiles on the keyboard, tick a
flag, read the payments off the page. The expected payments are the CLI's
(``mjscore score --json``) and the README's worked examples. The screenshots
docs/serve-phone.png and docs/serve-laptop.png are written by the last test
(with MJSCORE_SCREENSHOTS=docs).
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from scorer.cli.app import app
from tests.helpers.serving import Live as Server
from tests.helpers.serving import running

pytestmark = pytest.mark.browser
# Without the [browser] extra this module still collects (its tests are deselected unless
# -m browser is asked for), and asked for, they fail saying what to install: never a skip.
try:
    from selenium import webdriver
    from selenium.common.exceptions import StaleElementReferenceException, TimeoutException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
except ImportError:
    webdriver = None  # type: ignore[assignment]

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("db") / "t.sqlite3") as srv:
        yield srv


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if webdriver is None:
        pytest.fail("the browser tests need Selenium: pip install '.[browser]'")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        pytest.fail("the browser tests need chromium and chromium-driver (apt-get install -y "
                    "chromium chromium-driver)")
    opts = webdriver.ChromeOptions()
    opts.binary_location = chromium
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--window-size=1280,1000", "--lang=zh-CN"):
        opts.add_argument(arg)
    service = webdriver.ChromeService(executable_path=driver_path)
    drv = webdriver.Chrome(options=opts, service=service)
    drv.set_page_load_timeout(30)
    yield drv
    drv.quit()


def cli_json(*argv: str) -> dict[str, Any]:
    res = runner.invoke(app, [*argv, "--json"])
    assert res.exit_code == 0, res.output
    out: dict[str, Any] = json.loads(res.stdout)
    return out


def open_page(drv: Any, srv: Server, rules: str) -> None:
    host, port = srv.server_address[:2]
    drv.get(f"http://{host}:{port}/?rules={rules}")
    WebDriverWait(drv, 20).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")
    # script errors and refused content (a CSP violation); a 400 for a hand half tapped in
    # is an answer the page shows, not an error of the page
    errors = [e for e in drv.get_log("browser") if e.get("level") == "SEVERE"
              and e.get("source") != "network"]
    assert not errors, errors


def click(drv: Any, css: str) -> None:
    """Tap what ``css`` selects, scrolled to the middle of the screen as a thumb would
    (found again if the page drew it anew meanwhile: a live sheet is redrawn as it changes)."""
    for attempt in range(3):
        e = drv.find_element(By.CSS_SELECTOR, css)
        try:
            drv.execute_script("arguments[0].scrollIntoView({block: 'center'})", e)
            e.click()
            return
        except StaleElementReferenceException:
            if attempt == 2:
                raise


def tap(drv: Any, *tiles: str) -> None:
    for tl in tiles:
        click(drv, f'#keyboard button[data-tile="{tl}"]')


def tap_hand(drv: Any, notation_tiles: str) -> None:
    """Tap the tiles of a hand written tile by tile: '1m 2m P ...'."""
    tap(drv, *notation_tiles.split())


def payments_on_page(drv: Any, side: str | None = None) -> dict[str, int]:
    """The per-seat table as the page shows it (the cells' text, read in one go: the
    result is redrawn as answers come in)."""
    sel = "#dispute td[data-seat]" if side else "#result td[data-seat]"
    cells = drv.execute_script(
        "return [...document.querySelectorAll(arguments[0])].map("
        "c => [c.dataset.seat, c.dataset.side || '', c.textContent])", sel)
    return {seat: int(text.replace("+", "")) for seat, s, text in cells
            if side is None or s == side}


def groups_on_page(drv: Any) -> list[str]:
    """The groups of the result's reading as the page shows them."""
    out: list[str] = drv.execute_script(
        "return [...document.querySelectorAll('#result .reading .group')].map(g => g.textContent)")
    return out


def wait_for(drv: Any, what: Any, timeout: float = 20) -> Any:
    """What ``what(drv)`` returns once it is truthy; an element redrawn while it was being
    read counts as not yet (the live sheet redraws as the other phone books)."""
    return WebDriverWait(drv, timeout, ignored_exceptions=(StaleElementReferenceException,)
                         ).until(lambda d: what(d))


def text_of(drv: Any, css: str) -> str:
    """The text ``css`` selects as the page shows it, found and read in one step."""
    text: str = drv.execute_script("return document.querySelector(arguments[0]).innerText", css)
    return text


def test_a_hand_tapped_in_scores_as_the_cli(server: Server, browser: Any) -> None:
    open_page(browser, server, "hangzhou")
    # examples/hangzhou.txt: 123m456m789p234s55s --self-draw: 自摸 1 番, each idle pays 2
    tap_hand(browser, "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s")
    assert browser.find_element(By.ID, "notation").get_attribute("value") == "123456m789p2345s5s"
    click(browser, "#f-self_draw")
    want = cli_json("score", "123456m789p2345s5s", "--rules", "hangzhou", "--self-draw")
    assert want["payments"] == {"E": 6, "S": -2, "W": -2, "N": -2}
    got = wait_for(browser, lambda d: payments_on_page(d) == want["payments"] and payments_on_page(d))
    assert got == want["payments"]
    # the seat and a number: W wins after two wildcard discards (README: 双财飘 8 番)
    click(browser, "#clear")
    tap_hand(browser, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m")
    click(browser, '#f-seat option[value="W"]')
    piao = browser.find_element(By.ID, "f-piao")
    piao.clear()
    piao.send_keys("2")
    want = cli_json("score", "123m456p789s234sP9m", "--rules", "hangzhou", "--self-draw",
                    "--piao", "2", "--seat", "W")
    assert want["payments"] == {"E": -16, "S": -8, "W": 32, "N": -8}
    assert wait_for(browser, lambda d: payments_on_page(d) == want["payments"])
    # the reading as the report marks it: the 财神 P read as 9m ('*'), the winning group '←'
    assert want["best"]["reading"] == ["123m", "456p", "234s", "789s", "9*9m←"]
    assert wait_for(browser, lambda d: groups_on_page(d) == want["best"]["reading"])
    marked = browser.execute_script(
        "return [...document.querySelectorAll('#result .reading .group.has-wild.win')]"
        ".map(g => g.textContent)")
    assert marked == ["9*9m←"]
    assert browser.find_element(By.CSS_SELECTOR, "#result .legend").text == want["best"]["legend"]
    # the why line of 暴头: what the hand waited on without the winning tile
    assert browser.find_element(By.CSS_SELECTOR, "#result .why .text").text == want["best"]["why"][0]
    assert want["best"]["why"][0].endswith("单独一张财神 — 听任意牌")


def test_a_wildcard_hand_with_a_meld(server: Server, browser: Any) -> None:
    open_page(browser, server, "jinhua")
    # README (Jinhua): 123m456m789m3m3m2mP4m --wild 3m --from W: ×8, W pays 16, S and N 8
    browser.find_element(By.ID, "notation").send_keys("123m456m789m3m3m2mP4m")
    wild = browser.find_element(By.ID, "f-wild")
    wild.send_keys("3m")
    click(browser, '#f-discarder option[value="W"]')
    want = cli_json("score", "123m456m789m3m3m2mP4m", "--rules", "jinhua", "--wild", "3m",
                    "--from", "W")
    assert want["payments"] == {"E": 32, "S": -8, "W": -16, "N": -8}
    assert wait_for(browser, lambda d: payments_on_page(d) == want["payments"])
    assert browser.find_elements(By.CSS_SELECTOR, "#result .wilds .tile.wild")
    # P stands in for the 财神's face 3m ('~'), the three 3m are themselves ('*')
    assert want["best"]["reading"] == ["123~m", "23*4m←", "456m", "789m", "3*3*m"]
    assert wait_for(browser, lambda d: groups_on_page(d) == want["best"]["reading"])
    stand = browser.find_element(By.CSS_SELECTOR, "#result .stand-ins")
    assert stand.find_element(By.CSS_SELECTOR, ".tile.stand-in").get_attribute("data-tile") == "P"
    assert stand.text.endswith("→ 3m")
    assert "×3 → 3m（本身） ×3" in browser.find_element(By.CSS_SELECTOR, "#result .wilds").text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#result .wilds .tile.wild")) == 1
    # a meld tapped in: [CCC,1] claimed from 上家, as the Xiamen README hand writes it
    open_page(browser, server, "xiamen")
    click(browser, '#offer option[value="1"]')
    click(browser, "#meld")
    tap(browser, "C", "C", "C")
    click(browser, "#meld-done")
    click(browser, '#offer option[value="2"]')
    click(browser, "#meld")
    tap(browser, "E", "E", "E", "E")
    click(browser, "#meld-done")
    tap_hand(browser, "1m 2m 3m 4p 5p 6p N N N 9s 5s")
    assert browser.find_element(By.ID, "notation").get_attribute("value") == \
        "[CCC,1][EEEE,2]123m456p9sNNN5s"
    browser.find_element(By.ID, "f-wild").send_keys("9s")
    click(browser, "#f-self_draw")
    want = cli_json("score", "[CCC,1][EEEE,2]123m456pNNN9s5s", "--rules", "xiamen", "--wild",
                    "9s", "--self-draw")
    assert wait_for(browser, lambda d: payments_on_page(d) == want["payments"])


def test_tapping_a_hand_tile_removes_it_and_a_short_hand_shows_waits(server: Server,
                                                                     browser: Any) -> None:
    open_page(browser, server, "mcr")
    tap_hand(browser, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2p 3p 5p 5p 9m")
    click(browser, '#hand button[data-tile="9m"]')  # removed
    assert browser.find_element(By.ID, "notation").get_attribute("value") == "123m234556p789s5p"
    # 13 tiles: the waits (tests/engine/test_ready.py: 123m456p789s2355p waits on 1p 4p 6p 7p)
    want = runner.invoke(app, ["waits", "123m456p789s2355p", "--rules", "mcr", "--json"])
    tiles = [t for e in json.loads(want.stdout)["entries"] for t in e["tiles"]]
    shown = wait_for(browser, lambda d: d.execute_script(
        "return [...document.querySelectorAll('#result .waits .tiles .tile')].map(b => b.dataset.tile)"))
    assert shown == tiles and set(tiles) >= {"1p", "4p"}


def test_dispute_side_by_side(server: Server, browser: Any) -> None:
    open_page(browser, server, "hangzhou")
    browser.find_element(By.ID, "notation").send_keys("1111m2222m3333p55s")
    click(browser, "#f-self_draw")
    streak = browser.find_element(By.ID, "f-dealer_streak")
    streak.clear()
    streak.send_keys("3")
    click(browser, "#vs-on")
    browser.find_element(By.ID, "vs-option").send_keys("cap=64")
    # scorer/table/dispute.py: 32 番 at 3 老庄, each idle pays 256; with 封顶 64, 64
    want = cli_json("score", "1111m2222m3333p55s", "--rules", "hangzhou", "--self-draw",
                    "--dealer-streak", "3", "--vs-option", "cap=64")
    assert want["a"]["payments"]["S"] == -256 and want["b"]["payments"]["S"] == -64
    assert wait_for(browser, lambda d: payments_on_page(d, "a") == want["a"]["payments"] and
                    payments_on_page(d, "b") == want["b"]["payments"])
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, "#dispute .side h3")]
    assert titles == ["A = hangzhou", "B = hangzhou (cap=64)"]
    marked = browser.find_elements(By.CSS_SELECTOR, "#dispute .diff")
    assert marked, "the differing rows are marked"
    # the tier's name (docs/rulings.md Hangzhou: 清七对 with three 豪华 is 三豪华清七对)
    # the headline is the report's chain: the tier's name, the count, the unit
    shown = browser.find_element(By.CSS_SELECTOR, "#result .patterns").text
    assert shown == want["a"]["best"]["chain"] and shown.startswith("三豪华清七对")


def test_house_file_upload_and_language(server: Server, browser: Any) -> None:
    open_page(browser, server, "jinhua")
    text = (ROOT / "examples" / "house" / "jinhua-renhu4.yaml").read_text(encoding="utf-8")
    name = browser.find_element(By.ID, "house-name")
    name.clear()
    name.send_keys("renhu4.yaml")
    browser.execute_script("document.getElementById('house-text').value = arguments[0];", text)
    click(browser, "#house-load")
    wait_for(browser, lambda d: "renhu4.yaml" in d.find_element(By.ID, "house-status").text)
    click(browser, "#lang-en")
    assert "Human" in browser.find_element(By.CSS_SELECTOR, "label[for='f-human']").text
    browser.find_element(By.ID, "notation").send_keys("123m456m789m55m23m4m")
    browser.find_element(By.ID, "f-wild").send_keys("9p")
    click(browser, "#f-human")
    click(browser, '#f-seat option[value="S"]')
    # examples/house/README.md: at this table ×16, each of the three pays 32, S +96
    assert wait_for(browser, lambda d: payments_on_page(d) == {"E": -32, "S": 96, "W": -32, "N": -32})
    assert "Full flush" in browser.find_element(By.CSS_SELECTOR, "#result .patterns").text


@pytest.mark.parametrize(("width", "name"), [(1280, "serve-laptop.png")])
def test_screenshots(server: Server, browser: Any, width: int, name: str, tmp_path: Path) -> None:
    """The page fits a 360 px phone and a laptop; MJSCORE_SCREENSHOTS=docs writes the
    README's pictures (docs/serve-*.png), otherwise they go to a temporary folder."""
    browser.set_window_size(width, 900)
    open_page(browser, server, "hangzhou")
    tap_hand(browser, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m")
    click(browser, "#f-self_draw")
    wait_for(browser, lambda d: payments_on_page(d) == {"E": 12, "S": -4, "W": -4, "N": -4})
    inner, wide = browser.execute_script("return [document.documentElement.clientWidth, "
                                         "document.documentElement.scrollWidth]")
    assert wide <= inner, f"the page is wider ({wide} px) than the window ({inner} px)"
    height = browser.execute_script("return document.documentElement.scrollHeight")
    browser.set_window_size(width, min(int(height) + 120, 2400))
    browser.execute_script("document.activeElement.blur(); window.scrollTo(0, 0)")
    folder = ROOT / "docs" if os.environ.get("MJSCORE_SCREENSHOTS") == "docs" else tmp_path
    assert browser.save_screenshot(str(folder / name))
    browser.set_window_size(1280, 1000)


# -- the table's evening on two phones ------------------------------------------------------
def phone(width: int = 390, height: int = 844) -> Any:
    """A second browser, a phone of ``width`` × ``height`` CSS pixels (Chrome's emulation:
    a headless window cannot be made narrower than 500 px)."""
    if webdriver is None:
        pytest.fail("the browser tests need Selenium: pip install '.[browser]'")
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium") or shutil.which("chromium-browser") or ""
    for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                f"--window-size={max(width, 500)},{height}"):
        opts.add_argument(arg)
    opts.add_experimental_option("mobileEmulation", {"deviceMetrics": {
        "width": width, "height": height, "pixelRatio": 2.0, "touch": True}})
    drv = webdriver.Chrome(options=opts, service=webdriver.ChromeService(
        executable_path=shutil.which("chromedriver") or "chromedriver"))
    drv.set_page_load_timeout(30)
    return drv


def ready(drv: Any, url: str) -> None:
    drv.get(url)
    WebDriverWait(drv, 30).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-ready") == "1")


def keyboard_top(drv: Any) -> float:
    top: float = drv.execute_script(
        "return document.getElementById('keyboard').getBoundingClientRect().top + window.scrollY")
    return top


def js_tap(drv: Any, *tiles: str) -> None:
    for tl in tiles:
        drv.execute_script("arguments[0].click()", drv.find_element(
            By.CSS_SELECTOR, f'#keyboard button[data-tile="{tl}"]'))


def book_tapped(drv: Any, tiles: str, *clicks: str, **fields: str) -> int:
    """Tap a hand in, tick what ``clicks`` names, set the flag fields (``seat="S"``: the
    control #f-seat), book it; returns the sheet's version after."""
    before = int(drv.find_element(By.ID, "sheet").get_attribute("data-version"))
    drv.execute_script("window.mjscore.clear()")
    js_tap(drv, *tiles.split())
    for css in clicks:
        drv.execute_script("arguments[0].click()", drv.find_element(By.CSS_SELECTOR, css))
    for name, value in fields.items():
        drv.execute_script("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                           " e.dispatchEvent(new Event('change'))", f"f-{name}", value)
    wait_for(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#result td[data-seat]"))
    drv.execute_script("document.getElementById('book').click()")
    wait_for(drv, lambda d: int(d.find_element(By.ID, "sheet").get_attribute("data-version")) > before)
    return int(drv.find_element(By.ID, "sheet").get_attribute("data-version"))


def sheet_totals(drv: Any) -> dict[str, int]:
    cells = drv.execute_script("return [...document.querySelectorAll('#sheet-lines td[data-player]')]"
                               ".map(c => [c.dataset.player, c.textContent])")
    return {name: int(text.replace("+", "")) for name, text in cells}


def test_an_evening_on_two_phones(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    a = phone()
    b = phone()
    try:
        with running(db) as srv:
            port = srv.server_address[1]
            ready(a, srv.url + "/?rules=hangzhou")
            for seat, name in zip("ESWN", ("Ann", "Bo", "Cy", "Di"), strict=True):
                a.find_element(By.ID, f"name-{seat}").send_keys(name)
            a.execute_script("document.getElementById('create-table').click()")
            link = wait_for(a, lambda d: d.find_elements(By.ID, "table-link"))[0].get_attribute("href")
            # the keyboard stays where it is while a hand of 18 tiles goes in (four kongs)
            top = keyboard_top(a)
            for tl in ("1m", "9p", "E", "C"):
                a.execute_script("document.getElementById('m-angang').click()")
                js_tap(a, tl)
                assert keyboard_top(a) == top
            js_tap(a, "5s")
            assert keyboard_top(a) == top
            js_tap(a, "5s")
            assert keyboard_top(a) == top
            assert a.find_element(By.ID, "notation").get_attribute("value") == \
                "[1111m][9999p][EEEE][CCCC]5s5s"
            keys = a.execute_script("return [...document.querySelectorAll('#keyboard button')]"
                                    ".map(k => k.getBoundingClientRect().width)")
            assert min(keys) >= 44
            # 1: Ann (E) self-draws 暴头: +12, each other −4 (examples/hangzhou.txt)
            v = book_tapped(a, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m", "#f-self_draw")
            assert v == 2
            ready(b, link)  # the second phone joins by the link
            assert sheet_totals(b) == {"Ann": 12, "Bo": -4, "Cy": -4, "Di": -4}
            # 2 on phone B: 自摸 1 番, Ann +6, each other −2
            book_tapped(b, "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s", "#f-self_draw")
            # phone A sees it live
            wait_for(a, lambda d: sheet_totals(d) == {"Ann": 18, "Bo": -6, "Cy": -6, "Di": -6})
            # 3 on phone A: S (Bo) 暴头 self-drawn: E −4, S +8, W −2, N −2; the deal passes
            book_tapped(a, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m", "#f-self_draw", seat="S")
            wait_for(b, lambda d: "E Bo" in text_of(d, "#seating"))
            # phone B undoes line 2: phone A sees it struck through, totals without it
            b.execute_script("document.querySelector('#sheet-lines tr[data-n=\"2\"] .undo-line').click()")
            wait_for(a, lambda d: d.find_elements(By.CSS_SELECTOR, '#sheet-lines tr.undone[data-n="2"]'))
            assert sheet_totals(a) == {"Ann": 8, "Bo": 4, "Cy": -6, "Di": -6}
            # a reload keeps the table and the language
            a.find_element(By.ID, "lang-en").click()
            a.refresh()
            WebDriverWait(a, 30).until(lambda d: d.find_element(By.TAG_NAME, "body")
                                       .get_attribute("data-ready") == "1")
            assert a.find_element(By.ID, "lang-en").get_attribute("aria-pressed") == "true"
            assert sheet_totals(a) == {"Ann": 8, "Bo": 4, "Cy": -6, "Di": -6}
        # the server restarts (same database, same port): nothing is lost
        with running(db, port=port) as srv:
            # 4 on phone B: W (Di) 双财飘 with Bo dealing: E −16, S −8, W +32, N −8 (README)
            book_tapped(b, "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m", "#f-self_draw",
                        seat="W", piao="2")
            want = {"Ann": 8 - 8, "Bo": 4 - 16, "Cy": -6 - 8, "Di": -6 + 32}
            wait_for(a, lambda d: sheet_totals(d) == want)
            # 5 on phone B: an adjustment, Di gives Ann 5 (the amounts sum to zero)
            b.execute_script(
                "for (const l of document.querySelectorAll('#adjust label')) {"
                " const v = arguments[0][l.textContent.trim().split(' ')[1]];"
                " if (v !== undefined) l.querySelector('input').value = String(v); }"
                " document.getElementById('book-adjust').click()", {"Ann": 5, "Di": -5})
            want = {**want, "Ann": want["Ann"] + 5, "Di": want["Di"] - 5}
            wait_for(a, lambda d: sheet_totals(d) == want)
            assert "+5" in text_of(a, '#sheet-lines tr[data-n="5"] .what')
            # the exported file, totalled by batch, is the sheet
            totals = exported_totals(a, link.rsplit("=", 1)[1], tmp_path)
            assert {p["name"]: p["net"] for p in totals["players"]} == want
            # no sideways scroll in either language, on the phone and on a laptop
            for drv in (a, b):
                for lang in ("zh", "en"):
                    drv.find_element(By.ID, f"lang-{lang}").click()
                    inner, wide = drv.execute_script("return [document.documentElement.clientWidth,"
                                                     " document.documentElement.scrollWidth]")
                    assert wide <= inner, (lang, wide, inner)
            if os.environ.get("MJSCORE_SCREENSHOTS") == "docs":
                for drv, name in ((a, "serve-phone-en.png"), (b, "serve-phone.png")):
                    drv.find_element(By.ID, "lang-en" if "en" in name else "lang-zh").click()
                    height = drv.execute_script("return document.documentElement.scrollHeight")
                    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                        "width": 390, "height": min(int(height), 4000), "deviceScaleFactor": 1,
                        "mobile": True})
                    drv.execute_script("window.scrollTo(0, 0)")
                    drv.save_screenshot(str(ROOT / "docs" / name))
    finally:
        a.quit()
        b.quit()


# -- an evening of eight hands, tapped in on two phones, at a phone's size and a laptop's -----
# The hands (README and examples/hangzhou.txt, worked there; Hangzhou: a dealer's win or
# loss counts double, wins are self-drawn): the winner's seat -> E, S, W, N's points.
BAOTOU = "1m 2m 3m 4p 5p 6p 7s 8s 9s 2s 3s 4s P 9m"  # 暴头 2 番: an idle pays 2, the dealer 4
ZIMO = "1m 2m 3m 4m 5m 6m 7p 8p 9p 2s 3s 4s 5s 5s"  # 自摸 1 番: an idle pays 1, the dealer 2
EVENING = [  # (phone, tiles, flags, seating before the line, points by player)
    ("a", BAOTOU, {"seat": "E"}, "Ann Bo Cy Di", {"Ann": 12, "Bo": -4, "Cy": -4, "Di": -4}),
    ("b", ZIMO, {"seat": "E"}, "Ann Bo Cy Di", {"Ann": 6, "Bo": -2, "Cy": -2, "Di": -2}),
    ("a", BAOTOU, {"seat": "S"}, "Ann Bo Cy Di", {"Ann": -4, "Bo": 8, "Cy": -2, "Di": -2}),
    # 双财飘 (README): the two wildcards discarded first, 8 番
    ("b", BAOTOU, {"seat": "W", "piao": "2"}, "Bo Cy Di Ann",
     {"Bo": -16, "Cy": -8, "Di": 32, "Ann": -8}),
    ("a", "penalty N 5", {}, "Cy Di Ann Bo", {"Cy": 5, "Di": 5, "Ann": 5, "Bo": -15}),
    ("b", ZIMO, {"seat": "S"}, "Cy Di Ann Bo", {"Cy": -2, "Di": 4, "Ann": -1, "Bo": -1}),
    ("a", BAOTOU, {"seat": "E"}, "Di Ann Bo Cy", {"Di": 12, "Ann": -4, "Bo": -4, "Cy": -4}),
    ("b", BAOTOU, {"seat": "N"}, "Di Ann Bo Cy", {"Di": -4, "Ann": -2, "Bo": -2, "Cy": 8}),
]
UNDONE = 2  # line 2 is undone on phone B after line 3
AFTER = "Ann Bo Cy Di"  # line 8's winner (N) was not the dealer: the deal passes again


def device(width: int, height: int) -> Any:
    """A phone (``width`` < 500: Chrome's mobile emulation) or a laptop window."""
    if width < 500:
        return phone(width, height)
    drv = phone(width, height)
    drv.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
        "width": width, "height": height, "deviceScaleFactor": 1, "mobile": False})
    return drv


def exported_totals(drv: Any, tid: str, tmp_path: Path) -> dict[str, Any]:
    """The table's export (the batch file the page offers), totalled by ``mjscore batch
    --totals``: its totals record."""
    text = drv.execute_script("return fetch(arguments[0]).then(r => r.text())",
                              f"/api/tables/{tid}/export.txt")
    path = tmp_path / "evening.txt"
    path.write_text(text, encoding="utf-8")
    res = runner.invoke(app, ["batch", str(path), "--totals", "--format", "jsonl"])
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout.splitlines()[-1])  # type: ignore[no-any-return]


def seating_text(drv: Any) -> str:
    """The seating line's names, E S W N (``E Ann (庄) · S Bo · …``), read in one go: the
    live sheet redraws the line as other phones book, and an element found and then read
    in two steps can be gone between them."""
    text = text_of(drv, "#seating")
    return " ".join(part.split()[1] for part in text.split(" · "))


def set_flags(drv: Any, fields: dict[str, str]) -> None:
    """Self-drawn, and each field (``seat``: #f-seat) set as a player sets it."""
    drv.execute_script(
        "const sd = document.getElementById('f-self_draw'); if (!sd.checked) sd.click();"
        "for (const [k, v] of Object.entries(arguments[0])) {"
        " const e = document.getElementById('f-' + k); e.value = v;"
        " e.dispatchEvent(new Event('change')); }",
        {"seat": "E", "piao": "", **fields})


def book_line(drv: Any, tiles: str, fields: dict[str, str]) -> None:
    """Book one line on this phone: a false win (``penalty SEAT AMOUNT``), or a hand tapped
    in key by key and booked; waits until the sheet shows it."""
    before = int(drv.find_element(By.ID, "sheet").get_attribute("data-version"))
    if tiles.startswith("penalty "):
        _, seat, amount = tiles.split()
        drv.execute_script("document.getElementById('pen-seat').value = arguments[0]", seat)
        box = drv.find_element(By.ID, "pen-amount")
        box.clear()
        box.send_keys(amount)
        click(drv, "#book-penalty")
    else:
        click(drv, "#clear")
        tap_hand(drv, tiles)
        set_flags(drv, fields)
        wait_for(drv, lambda d: d.find_elements(By.CSS_SELECTOR, "#result td[data-seat]"))
        click(drv, "#book")
    wait_for(drv, lambda d: int(d.find_element(By.ID, "sheet").get_attribute("data-version"))
             > before)


def english_on_page(drv: Any) -> list[str]:
    """English words the page shows under zh, once what is not words is taken out: the
    players' names, tile notation and flags, the table's link, file formats."""
    import re

    # the rulesets' ids (what --rules takes), the button that says "English", the flags' and
    # keys' names (code) are no words to translate
    text: str = drv.execute_script(
        "const c = document.body.cloneNode(true);"
        "for (const e of c.querySelectorAll('#ruleset, #vs-rules, #lang-en, #options, code, script'))"
        " e.remove();"
        "return c.textContent")
    text = re.sub(r"https?://\S+|--[\w-]+|Ann|Bo|Cy|Di|\b(?:mjscore|Unicode|txt|json|csv|"
                  r"KEY=VALUE|cap=64|YAML|extends|hangzhou)\b", " ", text)
    # tile notation: a run of digits, suits, honors and meld marks with a digit in it
    text = re.sub(r"[\dmpsESWNCFP\[\],*~←]*\d[\dmpsESWNCFP\[\],*~←]*", " ", text)
    return [text[max(0, m.start() - 12):m.end() + 12].replace("\n", "|")
            for m in re.finditer(r"[A-Za-z]{2,}", text)]


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 800)])
def test_an_evening_of_eight_hands_on_two_phones(tmp_path: Path, width: int, height: int) -> None:
    """Phone A in Chinese, phone B in English; eight lines tapped in turn on both (a false
    win among them), line 2 undone, a reload after line 4 and a server restart after line
    5; the seats rotate as the deal passes; the sheet's totals are those worked by hand
    and those of ``batch --totals`` on the exported file."""
    db = tmp_path / "t.sqlite3"
    a, b = device(width, height), device(width, height)
    phones = {"a": a, "b": b}
    try:
        srv_cm = running(db)
        srv = srv_cm.__enter__()
        port = srv.server_address[1]
        ready(a, srv.url + "/?rules=hangzhou")
        for seat, name in zip("ESWN", ("Ann", "Bo", "Cy", "Di"), strict=True):
            a.find_element(By.ID, f"name-{seat}").send_keys(name)
        click(a, "#create-table")
        link = wait_for(a, lambda d: d.find_elements(By.ID, "table-link"))[0].get_attribute("href")
        tid = link.rsplit("=", 1)[1]
        assert a.find_element(By.CSS_SELECTOR, "img.qr").get_attribute("src").endswith(
            f"/api/tables/{tid}/qr.svg")
        ready(b, link)  # the second phone joins by the link
        click(b, "#lang-en")
        want = {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}
        for n, (who, tiles, fields, seated, points) in enumerate(EVENING, 1):
            drv, other = phones[who], phones["b" if who == "a" else "a"]
            try:  # the seats as the sheet has them once this phone has heard the last line
                wait_for(drv, lambda d, seated=seated: seating_text(d) == seated, timeout=10)
            except TimeoutException:
                assert seating_text(drv) == seated, n
            book_line(drv, tiles, fields)
            want = {p: want[p] + points[p] for p in want}
            # the other phone sees the line live, and the seats as they are now
            wait_for(other, lambda d, n=n: d.find_elements(
                By.CSS_SELECTOR, f'#sheet-lines tr[data-n="{n}"]'))
            if n == UNDONE + 1:  # phone B undoes line 2: phone A sees it struck through
                click(b, f'#sheet-lines tr[data-n="{UNDONE}"] .undo-line')
                want = {p: want[p] - EVENING[UNDONE - 1][4][p] for p in want}
                wait_for(a, lambda d: d.find_elements(
                    By.CSS_SELECTOR, f'#sheet-lines tr.undone[data-n="{UNDONE}"]'))
            if n == 4:  # a reload keeps the table, the language and the sheet
                b.refresh()
                WebDriverWait(b, 30).until(lambda d: d.find_element(By.TAG_NAME, "body")
                                           .get_attribute("data-ready") == "1")
                assert b.find_element(By.ID, "lang-en").get_attribute("aria-pressed") == "true"
            if n == 5:  # the server restarts: same database, same port
                srv_cm.__exit__(None, None, None)
                # while it is down, a phone that asks says so in its language, keeps the
                # hand, and answers again after a retry once the server is back
                a.execute_script("window.mjscore.setHand('123m456p789s234sP9m', [])")
                wait_for(a, lambda d: d.find_element(By.ID, "offline").is_displayed())
                assert a.find_element(By.ID, "offline-text").text.startswith("连不上服务器")
                assert a.execute_script("return document.getElementById('notation').value"
                                        ) == "123m456p789s234sP9m"
                srv_cm = running(db, port=port)
                srv = srv_cm.__enter__()
                # (scrolled to as a thumb would: selenium's own scroll leaves it under the
                # sticky header)
                a.execute_script("document.getElementById('offline')"
                                 ".scrollIntoView({block: 'center'})")
                a.find_element(By.ID, "retry").click()
                wait_for(a, lambda d: not d.find_element(By.ID, "offline").is_displayed())
                a.execute_script("window.mjscore.clear()")
            for d in (a, b):  # both phones, live: the totals worked by hand so far
                try:
                    wait_for(d, lambda d, want=want: sheet_totals(d) == want)
                except TimeoutException:
                    raise AssertionError((n, sheet_totals(d), want)) from None
        # worked by hand from EVENING's lines, line 2 left out
        assert want == {"Ann": -2, "Bo": -34, "Cy": -7, "Di": 43}
        wait_for(a, lambda d: seating_text(d) == AFTER)
        # the transfers that settle it: each who lost pays Di, who won
        shown = a.execute_script("return [...document.querySelectorAll('#transfers li')]"
                                 ".map(li => li.textContent)")
        assert sorted(shown) == ["Ann 付 Di 2", "Bo 付 Di 34", "Cy 付 Di 7"]
        # the exported file, totalled by batch, is the sheet
        totals = exported_totals(a, tid, tmp_path)
        assert {p["name"]: p["net"] for p in totals["players"]} == want
        assert len(totals["penalties"]) == 1
        # no sideways scroll in either language; no English words under zh
        for drv in (a, b):
            for lang in ("zh", "en"):
                click(drv, f"#lang-{lang}")
                inner, wide = drv.execute_script("return [document.documentElement.clientWidth,"
                                                 " document.documentElement.scrollWidth]")
                assert wide <= inner, (width, lang, wide, inner)
                if lang == "zh":
                    assert english_on_page(drv) == [], (width, english_on_page(drv))
        srv_cm.__exit__(None, None, None)
    finally:
        a.quit()
        b.quit()


def set_fields(drv: Any, fields: dict[str, str]) -> None:
    """Set flag fields as a player does (``discarder``: the control #f-discarder)."""
    drv.execute_script(
        "for (const [k, v] of Object.entries(arguments[0])) {"
        " const e = document.getElementById('f-' + k); e.value = v;"
        " e.dispatchEvent(new Event('change')); }", fields)


def version_of(drv: Any) -> int:
    return int(drv.find_element(By.ID, "sheet").get_attribute("data-version"))


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_a_sichuan_table_on_a_phone(tmp_path: Path, lang: str) -> None:
    """A Sichuan table at 390×844: only the suits' keys and no prevailing wind; a whole
    血战 round booked from its events, a hand tapped in, then corrected (the discarder
    was N, not S) with the change on the sheet; the export totalled by batch is the sheet."""
    drv = phone()
    try:
        with running(tmp_path / "t.sqlite3") as srv:
            ready(drv, srv.url + "/?rules=sichuan")
            if lang == "en":
                click(drv, "#lang-en")
            keys = drv.execute_script("return [...document.querySelectorAll('#keyboard button')]"
                                      ".map(k => k.dataset.tile)")
            assert len(keys) == 27 and not set(keys) & set("ESWNCFP"), keys
            assert not drv.find_elements(By.ID, "f-round")  # 圈风: no honors, no wind to set
            for seat, name in zip("ESWN", "甲乙丙丁", strict=True):
                drv.find_element(By.ID, f"name-{seat}").send_keys(name)
            click(drv, "#create-table")
            wait_for(drv, lambda d: d.find_elements(By.ID, "round-text"))
            # examples/sichuan-round.txt, worked there: E +4, S +4, W +8, N −16
            text = (ROOT / "examples" / "sichuan-round.txt").read_text(encoding="utf-8")
            drv.execute_script("document.getElementById('round-text').value = arguments[0]", text)
            click(drv, "#book-round")
            wait_for(drv, lambda d: sheet_totals(d) == {"甲": 4, "乙": 4, "丙": 8, "丁": -16})
            # E (甲) did not win: the deal passes (E 乙, S 丙, W 丁, N 甲)
            assert seating_text(drv) == "乙 丙 丁 甲"
            # README's worked Sichuan hand: 龙七对 32, W (丁) wins on S's (丙) discard
            tap_hand(drv, "1m 1m 1m 1m 3m 3m 3m 3m 5m 5m 2p 2p 4p 4p")
            set_fields(drv, {"seat": "W", "discarder": "S"})
            wait_for(drv, lambda d: payments_on_page(d) == {"E": 0, "S": -32, "W": 32, "N": 0})
            tapped = drv.find_element(By.ID, "notation").get_attribute("value")
            before = version_of(drv)
            click(drv, "#book")
            wait_for(drv, lambda d: sheet_totals(d) == {"甲": 4, "乙": 4, "丙": -24, "丁": 16})
            # the discarder was N (甲): line 2 corrected in its place
            wait_for(drv, lambda d: version_of(d) > before)
            click(drv, '#sheet-lines tr[data-n="2"] .edit-line')
            assert drv.find_element(By.ID, "notation").get_attribute("value") == tapped
            assert drv.find_element(By.ID, "f-seat").get_attribute("value") == "W"
            set_fields(drv, {"discarder": "N"})
            wait_for(drv, lambda d: payments_on_page(d) == {"E": 0, "S": 0, "W": 32, "N": -32})
            assert drv.execute_script("return document.getElementById('book').textContent") == (
                "改正第 2 局" if lang == "zh" else "Correct line 2")
            click(drv, "#book")
            want = {"甲": 4 - 32, "乙": 4, "丙": 8, "丁": -16 + 32}
            wait_for(drv, lambda d: sheet_totals(d) == want)
            rows = drv.execute_script("return document.querySelectorAll('#sheet-lines tr[data-n]')"
                                      ".length")
            assert rows == 2  # corrected, not booked again
            # (read in one go: the sheet is drawn again as the server says it changed)
            tid = drv.execute_script("return document.getElementById('table-link').href"
                                     ).rsplit("=", 1)[1]
            totals = exported_totals(drv, tid, tmp_path)
            assert {p["name"]: p["net"] for p in totals["players"]} == want
            inner, wide = drv.execute_script("return [document.documentElement.clientWidth,"
                                             " document.documentElement.scrollWidth]")
            assert wide <= inner, (lang, wide, inner)
            if lang == "zh":
                assert english_on_page(drv) == [], english_on_page(drv)
    finally:
        drv.quit()
