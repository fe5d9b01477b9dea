"""The play page in a real headless Chromium, driven by Selenium.

Debian's ``chromium`` and ``chromium-driver`` are used by their paths (CI installs them); nothing
is downloaded at test time. For each game the test opens the page, plays a whole game on a small
board by clicking sites and buttons against the random agent, and checks after every move that
the board the page shows is the engine's; then it takes a move back, downloads the record, loads
it back through the file picker and steps through it, and plays on from an earlier step.

Run as a script, this module also writes the README's screenshots::

    python tests/play/test_play_browser.py docs/images
"""

from __future__ import annotations

import json
import os
import random
import socket
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait

import stonefield as sf
from stonefield.play import play_url
from stonefield.play._app import create_app

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

#: Small boards, so that whole games take seconds.
GAMES: list[tuple[str, dict[str, Any], list[str]]] = [
    ("smallholder", {"board": "hex3"}, ["human", "random"]),
    ("windflowers", {"grid": "square", "size": 3, "max_moves": 40}, ["human", "random"]),
    ("faraday", {"order": 3}, ["human", "random"]),
    ("subsume", {"size": 3}, ["random", "human"]),
    (
        "windflowers",
        {"players": 3, "grid": "hex", "size": 3, "max_moves": 45},
        ["human", "random", "random"],
    ),
]


class Server:
    """uvicorn serving the page on a free port in a background thread."""

    def __init__(self, app: Any = None) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(64)
        self.base = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app or create_app(), log_level="warning", lifespan="off")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True
        )

    def __enter__(self) -> Server:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def chromium(downloads: Path, width: int = 1280, height: int = 900) -> WebDriver:
    """Headless Chromium from the system's packages (Selenium Manager is never asked)."""
    os.environ["SE_OFFLINE"] = "true"
    options = Options()
    options.binary_location = CHROMIUM
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--disable-gpu",
        f"--window-size={width},{height}",
        "--force-device-scale-factor=1",
        "--no-first-run",
        "--disable-extensions",
    ):
        options.add_argument(arg)
    options.add_experimental_option(
        "prefs",
        {
            "download.default_directory": str(downloads),
            "download.prompt_for_download": False,
        },
    )
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.execute_cdp_cmd(
        "Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(downloads)}
    )
    return driver


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    with Server() as s:
        yield s


@pytest.fixture(scope="module")
def downloads(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("downloads")


@pytest.fixture(scope="module")
def browser(downloads: Path) -> Iterator[WebDriver]:
    driver = chromium(downloads)
    yield driver
    driver.quit()


# ---- reading the page --------------------------------------------------------------------

_READ = """
const body = document.body;
const stones = Array.from(document.querySelectorAll('#board svg .stone')).map(
    (e) => [Number(e.dataset.site), e.getAttribute('class')]);
return {
  state: body.dataset.state,
  step: Number(body.dataset.step),
  version: Number(body.dataset.version),
  session: body.dataset.session,
  sites: document.querySelectorAll('#board svg .site').length,
  stones: stones,
  legal: Array.from(document.querySelectorAll('#board .hit.legal')).map(
      (e) => Number(e.dataset.site)),
  buttons: Array.from(document.querySelectorAll('#buttons button.action')).map(
      (e) => Number(e.dataset.action)),
  moves: Array.from(document.querySelectorAll('#moves li')).map((e) => Number(e.dataset.action)),
  offer: !document.getElementById('offer-colour').hidden,
  turn: document.getElementById('turn').textContent,
  message: document.getElementById('message').textContent,
};
"""


def read(driver: WebDriver) -> dict[str, Any]:
    page: dict[str, Any] = driver.execute_script(_READ)
    return page


def wait_idle(driver: WebDriver, changed_from: int | None = None, timeout: float = 30) -> None:
    """Waits until no request is in flight (and the game changed, when asked)."""

    def ready(d: WebDriver) -> bool:
        page = read(d)
        if page["state"] != "idle":
            return False
        return changed_from is None or page["version"] != changed_from

    WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)


def page_board(page: dict[str, Any]) -> list[int]:
    board = [0] * page["sites"]
    for site, cls in page["stones"]:
        player = next(int(c[1:]) for c in cls.split() if c.startswith("p") and c[1:].isdigit())
        board[site] = player + 1
    return board


def engine_state(game: str, options: dict[str, Any], actions: list[int]) -> sf.State:
    state = sf.make(game, **options).new_state()
    for a in actions:
        state.apply(a)
    return state


def api(driver: WebDriver, path: str) -> Any:
    """A GET of the JSON API from inside the page (same origin, as the page itself does)."""
    script = "const done = arguments[0]; fetch(%s).then((r) => r.json()).then(done);"
    return driver.execute_async_script(script % json.dumps(path))


def check_board(driver: WebDriver, game: str, options: dict[str, Any]) -> dict[str, Any]:
    """The page's board equals the engine's after the moves the page lists (up to its step),
    and equals the server's session."""
    page = read(driver)
    actions = page["moves"][: page["step"]]
    state = engine_state(game, options, actions)
    assert page_board(page) == state.board.tolist(), (game, actions)
    served = api(driver, f"/api/sessions/{page['session']}")
    assert served["board"] == state.board.tolist()
    assert served["line"] == page["moves"]
    if not state.is_terminal() and served["human_to_move"]:
        n = state.game.num_sites
        legal = set(state.legal_actions().tolist())
        sites = {a % n for a in legal if a < n or (page["offer"] and a < 2 * n)}
        assert set(page["legal"]) == sites
        assert set(page["buttons"]) == {a for a in legal if a >= n} - (
            set(range(n, 2 * n)) if page["offer"] else set()
        )
    return page


def set_seats(driver: WebDriver, session: str, seats: list[str]) -> None:
    """Changes the seats through the API, from inside the page."""
    driver.execute_async_script(
        "const done = arguments[2];"
        "fetch(`/api/sessions/${arguments[0]}/seats`, {method: 'POST',"
        " headers: {'content-type': 'application/json'},"
        " body: JSON.stringify({seats: arguments[1]})})"
        ".then((r) => r.json()).then(done);",
        session,
        seats,
    )


def click_site(driver: WebDriver, site: int) -> None:
    hit = driver.find_element(By.CSS_SELECTOR, f'#board .hit[data-site="{site}"]')
    # To the middle of the window, clear of the turn line that stays at its top.
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", hit)
    hit.click()


def play_whole_game(
    driver: WebDriver, game: str, options: dict[str, Any], rng: random.Random
) -> list[float]:
    """Clicks random legal sites and buttons until the game ends, checking every position."""
    timings: list[float] = []
    page = check_board(driver, game, options)
    for _ in range(400):
        if "Game over" in page["turn"]:
            break
        choices = [("site", s) for s in page["legal"]] + [("button", b) for b in page["buttons"]]
        assert choices, page
        kind, value = rng.choice(choices)
        # Passing ends Windflowers only when everyone passes: pass a little more than uniformly.
        if page["buttons"] and game == "windflowers" and rng.random() < 0.15:
            kind, value = "button", page["buttons"][0]
        if page["offer"] and rng.random() < 0.5:
            driver.find_element(By.CSS_SELECTOR, 'input[name="colour"][value="1"]').click()
        before = page["version"]
        if kind == "site":
            click_site(driver, value)
        else:
            driver.find_element(By.CSS_SELECTOR, f'button.action[data-action="{value}"]').click()
        wait_idle(driver, changed_from=before)
        page = check_board(driver, game, options)
    else:
        pytest.fail(f"{game} did not end")
    served = api(driver, f"/api/sessions/{page['session']}")
    assert served["terminal"]
    state = engine_state(game, options, page["moves"])
    assert served["ranks"] == state.ranks().tolist()
    timings.extend(driver.execute_script("return window.sfTimings.slice()"))
    return timings


def step_to(driver: WebDriver, button: str) -> dict[str, Any]:
    before = read(driver)["version"]
    driver.find_element(By.ID, button).click()
    wait_idle(driver, changed_from=before)
    return read(driver)


@pytest.mark.parametrize(("game", "options", "seats"), GAMES, ids=lambda x: str(x))
def test_play_a_whole_game_undo_and_replay_the_record(
    server: Server,
    browser: WebDriver,
    downloads: Path,
    tmp_path: Path,
    game: str,
    options: dict[str, Any],
    seats: list[str],
) -> None:
    rng = random.Random(f"{game}{len(seats)}")
    browser.get(play_url(server.base, game, options, seats))
    wait_idle(browser)
    page = read(browser)
    assert page["stones"] == [] or seats[0] != "human"
    timings = play_whole_game(browser, game, options, rng)
    browser.save_screenshot(str(tmp_path / f"{game}-{len(seats)}-end.png"))
    print(f"\n{game} {options}: {len(timings)} human moves, click to board " + _ms(timings))

    # Undo takes back the agents' replies and the last human move.
    page = read(browser)
    total = len(page["moves"])
    page = step_to(browser, "undo")
    assert page["step"] < total and "your move" in page["turn"]
    assert len(page["moves"]) == page["step"]
    check_board(browser, game, options)

    # Download the record and check it.
    for old in downloads.glob("*.json"):
        old.unlink()
    browser.find_element(By.ID, "download").click()
    WebDriverWait(browser, 10).until(lambda d: list(downloads.glob("*.json")))
    path = next(downloads.glob("*.json"))
    WebDriverWait(browser, 10).until(lambda d: path.stat().st_size > 0)
    record = json.loads(path.read_text(encoding="utf-8"))
    assert record["actions"] == page["moves"]
    assert sf.load_record(path).history == page["moves"]

    # Load it back through the file picker and step through it.
    before = page["version"]
    browser.find_element(By.ID, "load").send_keys(str(path))
    wait_idle(browser, changed_from=before)
    page = read(browser)
    assert "Loaded" in page["message"]
    assert page["moves"] == record["actions"] and page["step"] == len(record["actions"])
    check_board(browser, game, options)
    page = step_to(browser, "first")
    assert page["step"] == 0 and page["stones"] == []
    check_board(browser, game, options)
    for expected in (1, 2):
        page = step_to(browser, "forward")
        assert page["step"] == expected
        check_board(browser, game, options)
    page = step_to(browser, "back")
    assert page["step"] == 1
    middle = len(record["actions"]) // 2
    before = page["version"]
    browser.execute_script(
        "const s = document.getElementById('slider'); s.value = arguments[0];"
        "s.dispatchEvent(new Event('change'));",
        middle,
    )
    wait_idle(browser, changed_from=before)
    page = check_board(browser, game, options)
    assert page["step"] == middle
    page = step_to(browser, "last")
    assert page["step"] == len(record["actions"])
    check_board(browser, game, options)

    # Continue from an earlier step: the line is cut there and play goes on.
    page = step_to(browser, "first")
    page = step_to(browser, "forward")
    if "your move" not in page["turn"]:
        page = step_to(browser, "forward")
    k = page["step"]
    page = step_to(browser, "continue")
    # The agents to move from here have moved; the human is to move.
    assert page["moves"][:k] == record["actions"][:k] and len(page["moves"]) == page["step"]
    assert "your move" in page["turn"], page
    site = page["legal"][0] if page["legal"] else None
    before = page["version"]
    if site is not None:
        click_site(browser, site)
    else:
        browser.find_element(By.CSS_SELECTOR, "button.action").click()
    wait_idle(browser, changed_from=before)
    page = check_board(browser, game, options)
    # The agents have answered: the human is to move again (or the game is over).
    assert page["moves"][:k] == record["actions"][:k] and page["step"] > k
    assert "your move" in page["turn"] or "Game over" in page["turn"], page
    browser.save_screenshot(str(tmp_path / f"{game}-{len(seats)}-continued.png"))
    assert (tmp_path / f"{game}-{len(seats)}-continued.png").stat().st_size > 0


def test_the_form_starts_a_game_and_reports_errors(
    server: Server, browser: WebDriver, tmp_path: Path
) -> None:
    browser.get(server.base + "/")
    WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "setup")
    select = browser.find_element(By.ID, "game")
    options = [o.get_attribute("value") for o in select.find_elements(By.TAG_NAME, "option")]
    assert options == sf.games()
    browser.execute_script(
        "const s = document.getElementById('game'); s.value = 'windflowers';"
        "s.dispatchEvent(new Event('change'));"
    )
    fields = browser.find_elements(By.CSS_SELECTOR, "#options [name]")
    assert [f.get_attribute("name") for f in fields] == list(sf.make("windflowers").options)
    # Four players give four seats.
    browser.execute_script(
        "const s = document.querySelector('#options [name=players]'); s.value = '4';"
        "s.dispatchEvent(new Event('change'));"
    )
    assert len(browser.find_elements(By.CSS_SELECTOR, "#seats .seat")) == 4
    size = browser.find_element(By.CSS_SELECTOR, "#options [name=size]")
    size.clear()
    size.send_keys("99")
    browser.find_element(By.ID, "new-game").click()
    WebDriverWait(browser, 10).until(lambda d: "size" in read(d)["message"])
    size.clear()
    size.send_keys("3")
    for p in range(1, 4):
        browser.execute_script(
            f"document.querySelector('#seats [name=seat{p}]').value = 'random';"
            f"document.querySelector('#seats [name=seat{p}]').dispatchEvent(new Event('change'));"
        )
    browser.find_element(By.ID, "new-game").click()
    wait_idle(browser)
    page = read(browser)
    served = api(browser, f"/api/sessions/{page['session']}")
    assert served["num_players"] == 4 and served["options"]["size"] == 3
    assert [p["kind"] for p in served["players"]] == ["human", "random", "random", "random"]
    assert page["legal"] and "your move" in page["turn"]
    # A click on a site that is not legal says so and changes nothing.
    click_site(browser, page["legal"][0])
    wait_idle(browser, changed_from=page["version"])
    page = read(browser)
    taken = next(s for s, _ in page["stones"] if s not in page["legal"])
    click_site(browser, taken)
    assert "not a legal move" in read(browser)["message"]
    assert read(browser)["version"] == page["version"]
    # A file that is not a record is refused with the reader's message; the game stays.
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "stonefield-record", "format_version": 1, "game": "chess", "actions": []}'
    )
    browser.find_element(By.ID, "load").send_keys(str(bad))
    WebDriverWait(browser, 10).until(lambda d: "unknown game" in read(d)["message"])
    assert read(browser)["session"] == page["session"]


def test_an_agent_thinks_live_without_blocking_the_page(
    downloads: Path, browser: WebDriver
) -> None:
    """A stand-in agent publishes two snapshots of its search and waits to be released; the page
    draws the value bar and the heat map meanwhile and stays usable."""
    release = threading.Event()
    published = threading.Event()

    def slow_agent(seat: Any, state: sf.State, seed: int, publish: Any) -> int:
        legal = [int(a) for a in state.legal_actions() if a < state.game.num_sites]
        for k, value in ((1, -0.5), (2, 0.4)):
            shares = {str(s): 1.0 / (i + 1) for i, s in enumerate(legal[:5])}
            publish(
                {
                    "player": state.current_player,
                    "value": value,
                    "iterations": 500 * k,
                    "budget": 1000,
                    "best": legal[0],
                    "sites": shares,
                    "actions": {},
                }
            )
        published.set()
        release.wait(timeout=20)
        return legal[0]

    with Server(create_app(choose=slow_agent)) as server:
        browser.get(play_url(server.base, "subsume", {"size": 4}, ["random", "human"]))
        WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "thinking")
        assert published.wait(timeout=10)
        WebDriverWait(browser, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .heat-mark")) == 5
        )
        text = browser.find_element(By.ID, "think-text").text
        assert "+0.40" in text and "1,000 of 1,000 iterations" in text
        width = browser.execute_script("return document.getElementById('think-fill').style.width")
        assert width == "70%"
        assert browser.find_elements(By.CSS_SELECTOR, "#board .heat-label")
        # The page still answers: its controls work while the agent thinks.
        browser.find_element(By.ID, "setup").click()
        assert browser.find_element(By.ID, "setup").get_attribute("open") is not None
        assert "thinking" in read(browser)["turn"]
        release.set()
        WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "idle")
        page = read(browser)
        assert page["step"] == 1 and "your move" in page["turn"]
        assert not browser.find_element(By.ID, "think").get_attribute("hidden")


def test_a_whole_game_against_mcts(server: Server, browser: WebDriver) -> None:
    options = {"size": 3}
    browser.get(play_url(server.base, "subsume", options, ["human", "mcts:iterations=400"]))
    wait_idle(browser)
    play_whole_game(browser, "subsume", options, random.Random(2))
    think = browser.find_element(By.ID, "think")
    assert think.is_displayed()
    assert "of 400 iterations" in browser.find_element(By.ID, "think-text").text
    assert "MCTS 400" in browser.find_element(By.ID, "players").text


def test_agents_alone_pause_and_keys_step(server: Server, browser: WebDriver) -> None:
    from selenium.webdriver.common.keys import Keys

    seats = ["mcts:iterations=20000", "mcts:iterations=20000"]
    browser.get(play_url(server.base, "subsume", {"size": 5}, seats))
    WebDriverWait(browser, 20).until(lambda d: d.find_element(By.ID, "pause").is_displayed())
    browser.find_element(By.ID, "pause").click()
    wait_idle(browser, timeout=60)
    page = read(browser)
    time.sleep(0.5)
    assert read(browser)["step"] == page["step"] >= 1  # paused: no further moves
    assert browser.find_element(By.ID, "continue").is_displayed()
    body = browser.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait_idle(browser, changed_from=page["version"])
    assert read(browser)["step"] == page["step"] - 1
    check_board(browser, "subsume", {"size": 5})
    before = read(browser)["version"]
    body.send_keys(Keys.END)
    wait_idle(browser, changed_from=before)
    assert read(browser)["step"] == page["step"]
    # Continue: the agents play on.
    browser.find_element(By.ID, "continue").click()
    WebDriverWait(browser, 30).until(lambda d: read(d)["step"] > page["step"])
    browser.find_element(By.ID, "pause").click()
    wait_idle(browser, timeout=60)
    check_board(browser, "subsume", {"size": 5})


#: Each game at its default options, and how many human moves to play before the picture.
DEFAULTS = [("smallholder", 8), ("windflowers", 9), ("faraday", 10), ("subsume", 12)]


def play_defaults(
    driver: WebDriver, base: str, outdir: Path, thinker: str | None = None
) -> dict[str, list[float]]:
    """Plays the first moves of every game at its defaults by clicks against the random agent,
    checking each position, saves a screenshot of each as ``play-GAME.png`` in ``outdir``, and
    returns the click-to-board times. With a ``thinker`` (an MCTS seat), it takes over after
    the opening and the picture is taken while it thinks, heat map and all."""
    timings: dict[str, list[float]] = {}
    for game, moves in DEFAULTS:
        rng = random.Random(game)
        driver.get(play_url(base, game, {}, ["human", "random"]))
        wait_idle(driver)
        page = read(driver)
        for i in range(moves + (20 if thinker else 0)):
            if thinker and i == moves:
                set_seats(driver, page["session"], ["human", thinker])
            choices = [("site", s) for s in page["legal"]] or [("button", page["buttons"][0])]
            if page["offer"]:
                colour = "1" if rng.random() < 0.5 else "0"
                driver.find_element(
                    By.CSS_SELECTOR, f'input[name="colour"][value="{colour}"]'
                ).click()
            kind, value = rng.choice(choices)
            before = page["version"]
            if kind == "site":
                click_site(driver, value)
            else:
                driver.find_element(
                    By.CSS_SELECTOR, f'button.action[data-action="{value}"]'
                ).click()
            if thinker and i >= moves:
                # Until the thinker is to move (Faraday's runs keep the turn), then its heat map.
                def moved(d: WebDriver, before: int = before) -> bool:
                    now = read(d)
                    return now["state"] == "thinking" or (
                        now["state"] == "idle" and now["version"] != before
                    )

                WebDriverWait(driver, 60, poll_frequency=0.02).until(moved)
                if read(driver)["state"] == "thinking":
                    WebDriverWait(driver, 60, poll_frequency=0.02).until(
                        lambda d: d.find_elements(By.CSS_SELECTOR, "#board .heat-label")
                    )
                    time.sleep(0.4)  # a later snapshot of the search
                    break
            wait_idle(driver, changed_from=before, timeout=120)
            page = check_board(driver, game, {})
            if "Game over" in page["turn"] or (not thinker and i == moves - 1):
                break
        driver.execute_script("window.scrollTo(0, 0)")
        driver.save_screenshot(str(outdir / f"play-{game}.png"))
        timings[game] = driver.execute_script("return window.sfTimings.slice()")
        wait_idle(driver, timeout=120)
    return timings


def test_every_default_board_in_play(server: Server, browser: WebDriver, tmp_path: Path) -> None:
    """Every game at its default size, clicked through its opening; the click-to-board times
    are printed (the page answers a human move in a few tens of milliseconds), not asserted."""
    timings = play_defaults(browser, server.base, tmp_path)
    for game, _ in DEFAULTS:
        assert (tmp_path / f"play-{game}.png").stat().st_size > 10_000
        assert timings[game]
        print(f"\n{game} (defaults): click to new board {_ms(timings[game])}")


def _ms(values: list[float]) -> str:
    if not values:
        return "(none)"
    ordered = sorted(values)
    return f"median {ordered[len(ordered) // 2]:.1f} ms, max {ordered[-1]:.1f} ms"


def write_screenshots(outdir: Path) -> None:
    """The README's pictures: every game at its defaults against MCTS, taken mid-search, and a
    reviewed game (``play-review.png``)."""
    outdir.mkdir(parents=True, exist_ok=True)
    with Server() as server:
        driver = chromium(outdir, width=1200, height=860)
        try:
            thinker = "mcts:preset=strong,iterations=50000"
            for game, times in play_defaults(driver, server.base, outdir, thinker).items():
                print(f"{game}: {outdir / f'play-{game}.png'}; click to board {_ms(times)}")
            write_review(driver, server.base, outdir / "play-review.png")
            print(f"review: {outdir / 'play-review.png'}")
        finally:
            driver.quit()


def write_review(driver: WebDriver, base: str, path: Path) -> None:
    """A whole Smallholder game on its default board, clicked against MCTS, then reviewed; the
    picture shows the graph beside the final position (the rules folded away)."""
    rng = random.Random(4)
    driver.get(play_url(base, "smallholder", {}, ["human", "mcts:iterations=2000"]))
    wait_idle(driver)
    page = read(driver)
    while "Game over" not in page["turn"]:
        click_site(driver, rng.choice(page["legal"]))
        wait_idle(driver, changed_from=page["version"], timeout=120)
        page = read(driver)
    driver.execute_script("document.getElementById('rules-panel').open = false")
    driver.find_element(By.ID, "review").click()
    WebDriverWait(driver, 120).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#review-graph .review-point")
    )
    driver.execute_script("window.scrollTo(0, 0)")
    driver.save_screenshot(str(path))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: python tests/play/test_play_browser.py OUTDIR")
    write_screenshots(Path(sys.argv[1]))


def test_perfect_play_marks_every_move_and_review_marks_a_lost_draw(
    server: Server, browser: WebDriver
) -> None:
    """On a small board, Perfect play writes W / D / L on every legal site as the API answers,
    and after a move that turns a draw into a loss the review marks it."""
    from urllib.parse import quote

    from stonefield.play._session import action_name

    options = {"size": 3, "max_moves": 12}
    game = sf.make("windflowers", **options)
    line = [12, 6, 0, 5, 10, 11, 9, 7]  # a draw for Black to move; passing (14) loses it
    names = ",".join(quote(action_name(game, a)) for a in line)
    browser.get(
        play_url(server.base, "windflowers", options, ["human", "human"]) + f"&moves={names}"
    )
    WebDriverWait(browser, 20).until(lambda d: read(d)["step"] == len(line))
    wait_idle(browser)
    browser.find_element(By.ID, "perfect").click()
    WebDriverWait(browser, 30).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#board .perfect-mark")
    )
    marks = {
        int(e.get_attribute("data-site")): e.get_attribute("data-word")
        for e in browser.find_elements(By.CSS_SELECTOR, "#board .perfect-mark")
    }
    state = engine_state("windflowers", options, line)
    res = sf.solve(state)
    words = {
        int(a): {1: "win", 0: "draw", -1: "loss"}[int(o)] for a, o in zip(res.actions, res.outcomes)
    }
    assert game.action_site(14) is None and words.pop(14) == "loss"
    assert marks == {game.action_site(a): w for a, w in words.items()}
    assert set(marks.values()) == {"draw"}
    passing = browser.find_element(By.CSS_SELECTOR, 'button.action[data-action="14"]')
    assert "perfect-loss" in (passing.get_attribute("class") or "")
    text = browser.find_element(By.ID, "perfect-text").text
    assert "a draw for the player to move" in text and "loss" in text
    before = read(browser)["version"]
    passing.click()
    wait_idle(browser, changed_from=before)
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .perfect-mark")  # a new position
    browser.find_element(By.ID, "review").click()
    WebDriverWait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#moves li.changed")
    )
    changed = browser.find_elements(By.CSS_SELECTOR, "#moves li.changed")
    assert [e.get_attribute("data-step") for e in changed] == [str(len(line) + 1)]
    notes = browser.find_element(By.ID, "review-notes").text
    assert "draw → loss" in notes
    # On a board too big for the solver, the button says so and asks nothing.
    browser.get(play_url(server.base, "subsume", {}, ["human", "human"]))
    wait_idle(browser)
    browser.find_element(By.ID, "perfect").click()
    shown = browser.find_element(By.ID, "message").text
    assert "at most 30 sites" in shown and "this one has 91" in shown
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .perfect-mark")
