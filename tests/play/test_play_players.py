"""The play page for players, in a real headless Chromium (the fixtures and page readers of
test_play_browser): moves typed in the core's notation, resignation, share links, hints and the
review, the rules panel, the preview on hover, clocks, the heat map on an open board, and the
layout of a 390 px wide screen.
"""

from __future__ import annotations

import json
import random
import re
import threading
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support.ui import WebDriverWait
from test_play_browser import (
    Server,
    api,
    browser,
    check_board,
    chromium,
    click_site,
    downloads,
    engine_state,
    read,
    server,
    wait_idle,
)

import stonefield as sf
from stonefield.play import _coach, play_url
from stonefield.play._app import create_app
from stonefield.play._rules import _find_change
from stonefield.play._session import action_name

__all__ = ["browser", "downloads", "server"]  # the fixtures, used by name

#: Small boards, so that whole games take seconds.
TYPED = [
    ("smallholder", {"board": "hex3"}, ["human", "random"]),
    ("windflowers", {"grid": "square", "size": 3, "max_moves": 40}, ["human", "random"]),
    ("faraday", {"order": 3}, ["human", "random"]),
    ("subsume", {"size": 3}, ["random", "human"]),
]


def type_move(driver: WebDriver, text: str) -> None:
    box = driver.find_element(By.ID, "move-input")
    box.clear()
    box.send_keys(text + Keys.ENTER)


def served(driver: WebDriver) -> dict[str, Any]:
    page: dict[str, Any] = api(driver, f"/api/sessions/{read(driver)['session']}")
    return page


@pytest.mark.parametrize(("game", "options", "seats"), TYPED, ids=lambda x: str(x))
def test_a_whole_game_typed_in_notation(
    server: Server, browser: WebDriver, game: str, options: dict[str, Any], seats: list[str]
) -> None:
    """Every human move is typed as the core names it (sites, pass, second N, accept, swap);
    the move list shows those names, and a move that is not legal is refused, changing
    nothing."""
    rng = random.Random(game)
    browser.get(play_url(server.base, game, options, seats))
    wait_idle(browser)
    g = sf.make(game, **options)
    refused = False
    for _ in range(400):
        view = served(browser)
        if view["over"]:
            break
        assert view["human_to_move"]
        if not refused:
            before = read(browser)["version"]
            type_move(browser, "no such move")
            WebDriverWait(browser, 10).until(lambda d: read(d)["message"])
            assert (
                "no action is named" in read(browser)["message"]
                and read(browser)["version"] == before
            )
            refused = True
        action = rng.choice(view["legal"])
        before = read(browser)["version"]
        type_move(
            browser,
            action_name(g, action).upper() if rng.random() < 0.2 else action_name(g, action),
        )
        wait_idle(browser, changed_from=before)
        page = check_board(browser, game, options)
        assert action in page["moves"][len(view["line"]) :]
    else:
        pytest.fail(f"{game} did not end")
    view = served(browser)
    state = engine_state(game, options, view["line"])
    assert state.is_terminal() and view["ranks"] == state.ranks().tolist()
    names = browser.execute_script(
        "return Array.from(document.querySelectorAll('#moves li')).map((e) => e.dataset.name)"
    )
    assert names == [action_name(g, a) for a in view["line"]]
    assert "Game over" in read(browser)["turn"]


def test_resign_ends_the_game_and_undo_takes_it_back(
    server: Server, browser: WebDriver, downloads: Path
) -> None:
    browser.get(play_url(server.base, "subsume", {"size": 4}, ["human", "random"]))
    wait_idle(browser)
    page = read(browser)
    click_site(browser, page["legal"][0])
    wait_idle(browser, changed_from=page["version"])
    page = read(browser)
    resign = browser.find_element(By.ID, "resign")
    resign.click()
    assert "again" in resign.text and read(browser)["version"] == page["version"]
    resign.click()
    wait_idle(browser, changed_from=page["version"])
    page = read(browser)
    assert "Black resigned; White wins" in page["turn"]
    view = served(browser)
    assert view["over"] and view["resigned"] == 0 and not view["terminal"]
    assert page["legal"] == [] and not browser.find_element(By.ID, "hint").is_enabled()
    record = api(browser, f"/api/sessions/{page['session']}/record")
    assert record["resigned"] == {"player": 0, "reason": "resigned"}
    names = sf.make("subsume", size=4).site_names
    assert record["moves"] == [names[a] for a in record["actions"]]
    # Undo takes the resignation back: Black is to move again, the moves unchanged.
    before = page["version"]
    browser.find_element(By.ID, "undo").click()
    wait_idle(browser, changed_from=before)
    page = read(browser)
    assert "your move" in page["turn"] and len(page["moves"]) == 2
    check_board(browser, "subsume", {"size": 4})


def test_a_share_link_reopens_the_same_position(server: Server, browser: WebDriver) -> None:
    options = {"order": 3}
    rng = random.Random(5)
    browser.get(play_url(server.base, "faraday", options, ["human", "random"]))
    wait_idle(browser)
    g = sf.make("faraday", **options)
    for _ in range(6):
        view = served(browser)
        if view["over"]:
            break
        before = read(browser)["version"]
        type_move(browser, action_name(g, rng.choice(view["legal"])))
        wait_idle(browser, changed_from=before)
    page = read(browser)
    browser.find_element(By.ID, "share").click()
    link = browser.find_element(By.ID, "share-link").get_attribute("value")
    assert link
    query = parse_qs(urlsplit(link).query)
    assert query["game"] == ["faraday"] and query["o.order"] == ["3"]
    assert query["seats"] == ["human,random"]
    assert query["moves"] == [",".join(action_name(g, a) for a in page["moves"])]
    browser.get(server.base + "/")
    browser.get(link)
    WebDriverWait(browser, 20).until(lambda d: read(d)["state"] == "idle" and read(d)["session"])
    reopened = read(browser)
    assert reopened["session"] != page["session"]
    assert reopened["moves"] == page["moves"] and reopened["step"] == len(page["moves"])
    assert reopened["stones"] == page["stones"]
    check_board(browser, "faraday", options)
    # A link with a move that is not legal opens the form and says which move.
    browser.get(link.replace("moves=", "moves=nonsense%2C"))
    WebDriverWait(browser, 20).until(lambda d: read(d)["state"] == "setup")
    assert "move 1" in read(browser)["message"]


def test_the_hint_is_the_strong_agents_choice(server: Server, browser: WebDriver) -> None:
    options = {"size": 4}
    browser.get(play_url(server.base, "subsume", options, ["human", "random"]))
    wait_idle(browser)
    page = read(browser)
    click_site(browser, page["legal"][3])
    wait_idle(browser, changed_from=page["version"])
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 30).until(
        lambda d: d.find_element(By.ID, "hint-text").get_attribute("data-action")
    )
    text = browser.find_element(By.ID, "hint-text")
    action = int(text.get_attribute("data-action") or -1)
    seed = int(text.get_attribute("data-seed") or -1)
    iterations = int(text.get_attribute("data-iterations") or -1)
    # The same search through the Python API gives the same move and value.
    state = engine_state("subsume", options, read(browser)["moves"])
    result = sf.MCTS(iterations=iterations, seed=seed, preset="strong").analyse(state)
    assert action == int(result.best)
    value = f"{float(result.value):+.2f}"
    assert f"Hint: {state.game.site_names[action]}, value {value} for Black" in text.text
    marks = browser.find_elements(By.CSS_SELECTOR, "#board .hint-mark")
    assert [m.get_attribute("data-site") for m in marks] == [str(action)]
    # Playing a move clears the hint.
    click_site(browser, action)
    wait_idle(browser, changed_from=read(browser)["version"])
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .hint-mark")


def test_the_hint_on_a_default_board_is_the_experts(
    server: Server, browser: WebDriver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Where the game's network coaches (the measured list _coach.EXPERT_COACHES decides).
    monkeypatch.setattr(_coach, "EXPERT_COACHES", ("subsume",))
    browser.get(play_url(server.base, "subsume", {}, ["human", "random"]))
    wait_idle(browser)
    browser.find_element(By.ID, "hint").click()
    WebDriverWait(browser, 60).until(
        lambda d: d.find_element(By.ID, "hint-text").get_attribute("data-action")
    )
    text = browser.find_element(By.ID, "hint-text")
    action = int(text.get_attribute("data-action") or -1)
    seed = int(text.get_attribute("data-seed") or -1)
    simulations = int(text.get_attribute("data-iterations") or -1)
    state = engine_state("subsume", {}, [])
    result = sf.expert(state.game, simulations=simulations, seed=seed).analyse(state)
    assert action == int(result.best)
    assert f"expert (trained network), {simulations:,} simulations" in text.text


def test_the_review_graphs_one_value_per_move(server: Server, browser: WebDriver) -> None:
    options = {"board": "hex232323"}
    browser.get(play_url(server.base, "smallholder", options, ["human", "random"]))
    wait_idle(browser)
    rng = random.Random(3)
    while "Game over" not in read(browser)["turn"]:
        page = read(browser)
        click_site(browser, rng.choice(page["legal"]))
        wait_idle(browser, changed_from=page["version"])
    moves = read(browser)["moves"]
    browser.find_element(By.ID, "review").click()
    WebDriverWait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#review-graph .review-point")
    )
    points = browser.find_elements(By.CSS_SELECTOR, "#review-graph .review-point")
    assert [int(p.get_attribute("data-step") or 0) for p in points] == list(
        range(1, len(moves) + 1)
    )
    review = browser.execute_async_script(
        "const done = arguments[0];"
        "fetch(`/api/sessions/${document.body.dataset.session}/review`, {method: 'POST',"
        " headers: {'content-type': 'application/json'}, body: '{}'})"
        ".then((r) => r.json()).then(done);"
    )
    assert [m["action"] for m in review["moves"]] == moves
    shown = [float(p.get_attribute("data-value") or 0) for p in points]
    assert shown == [m["black"] for m in review["moves"]]
    # The last move ends the game: its value is the result itself.
    last = review["moves"][-1]
    final = engine_state("smallholder", options, moves).returns()
    assert last["after"] == final[last["player"]]
    # The worst moves are marked, and a point steps the board there.
    worst = browser.find_elements(By.CSS_SELECTOR, "#review-graph .review-point.worst")
    assert [int(p.get_attribute("data-step") or 0) for p in worst] == review["worst"]
    listed = browser.find_elements(By.CSS_SELECTOR, "#moves li.worst")
    assert [int(li.get_attribute("data-step") or 0) for li in listed] == review["worst"]
    before = read(browser)["version"]
    browser.execute_script(
        "document.querySelector('#review-graph .review-point[data-step=\"2\"]')"
        ".dispatchEvent(new MouseEvent('click', {bubbles: true}))"
    )
    wait_idle(browser, changed_from=before)
    assert read(browser)["step"] == 2


def test_the_rules_follow_the_options(server: Server, browser: WebDriver) -> None:
    browser.get(server.base + "/")
    WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "setup")
    for game in sf.games():
        browser.execute_script(
            "const s = document.getElementById('game'); s.value = arguments[0];"
            "s.dispatchEvent(new Event('change'));",
            game,
        )
        WebDriverWait(browser, 10).until(
            lambda d, g=game: d.find_element(By.ID, "rules").get_attribute("data-game") == g
        )
        pictures = browser.find_elements(By.CSS_SELECTOR, "#rules figure img")
        assert len(pictures) >= 3, game
        sources = [p.get_attribute("src") or "" for p in pictures]
        assert all(src.startswith("data:image/svg+xml") for src in sources)
        assert any("rule-cross" in src for src in sources)
        # Drawn: the browser decoded every picture.
        assert browser.execute_script(
            "return Array.from(document.querySelectorAll('#rules figure img'))"
            ".every((i) => i.complete && i.naturalWidth > 0)"
        )
    # The Smallholder's territory under the hull rules.
    browser.get(play_url(server.base, "smallholder", {"ruleset": "hull_setbacks"}, ["human"] * 2))
    wait_idle(browser)
    WebDriverWait(browser, 10).until(
        lambda d: "smallest hexagon" in d.find_element(By.ID, "rules").text
    )
    assert "wholly inside your territory" in browser.find_element(By.ID, "rules").text


@pytest.mark.parametrize(
    ("game", "options", "want", "mark"),
    [
        ("smallholder", {}, "removed", "preview-removed"),
        ("subsume", {"size": 5}, "turned", "preview-turned"),
        ("windflowers", {}, "replaced", "preview-turned"),
    ],
)
def test_hovering_previews_what_a_placement_does(
    server: Server, browser: WebDriver, game: str, options: dict[str, Any], want: str, mark: str
) -> None:
    g = sf.make(game, **options)
    found = _find_change(g, want)
    assert found is not None
    state, action = found
    moves = ",".join(action_name(g, a) for a in state.history)
    seats = ["human"] * g.num_players
    browser.get(play_url(server.base, game, options, seats) + "&moves=" + moves)
    WebDriverWait(browser, 20).until(lambda d: read(d)["state"] == "idle" and read(d)["session"])
    hit = browser.find_element(By.CSS_SELECTOR, f'#board .hit[data-site="{action}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", hit)
    ActionChains(browser).move_to_element(hit).perform()
    WebDriverWait(browser, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, f"#board g.preview .{mark}")
    )
    preview = api(browser, f"/api/sessions/{read(browser)['session']}/hover?action={action}")
    key = "removed" if want == "removed" else "turned"
    shown = browser.find_elements(By.CSS_SELECTOR, f"#board g.preview .{mark}")
    assert sorted(int(e.get_attribute("data-site") or -1) for e in shown) == preview[key]
    assert preview[key] and browser.find_element(By.ID, "hover-text").text == preview["text"]
    # Nothing was played.
    assert read(browser)["moves"] == list(state.history)


def test_hovering_in_faraday_shows_the_charges_a_placement_changes(
    server: Server, browser: WebDriver
) -> None:
    g = sf.make("faraday")
    state = g.new_state()
    for a in ("3", "second 4", "second 10", "accept"):
        state.apply(g.parse_action(a))
    sites = [int(a) for a in state.legal_actions() if a < g.num_sites]
    action = sites[len(sites) // 2]
    moves = ",".join(action_name(g, a) for a in state.history)
    browser.get(play_url(server.base, "faraday", {}, ["human", "human"]) + "&moves=" + moves)
    WebDriverWait(browser, 20).until(lambda d: read(d)["state"] == "idle" and read(d)["session"])
    hit = browser.find_element(By.CSS_SELECTOR, f'#board .hit[data-site="{action}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", hit)
    ActionChains(browser).move_to_element(hit).perform()
    WebDriverWait(browser, 10).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#board g.preview .preview-charge")
    )
    preview = api(browser, f"/api/sessions/{read(browser)['session']}/hover?action={action}")
    shown = sorted(
        (int(e.get_attribute("data-player") or -1), int(e.get_attribute("data-site") or -1), e.text)
        for e in browser.find_elements(By.CSS_SELECTOR, "#board g.preview .preview-charge")
    )
    want = sorted(
        (int(k), site, str(count))
        for k, entries in preview["charges"].items()
        for site, count in entries
    )
    assert shown == want and want
    assert read(browser)["moves"] == list(state.history)


@pytest.mark.timing
def test_a_clock_running_out_loses_the_game(server: Server, browser: WebDriver) -> None:
    url = play_url(server.base, "subsume", {"size": 4}, ["human", "random"]) + "&clock=0.04"
    browser.get(url)
    wait_idle(browser)
    assert browser.find_element(By.ID, "clocks").is_displayed()
    # Read in one script (the clock is redrawn as it ticks, so a found element can go stale).
    # The running clock starts at the budget, 2.4 s shown as 0:03, and only counts down; on a
    # loaded machine it may already be lower, or have run out, by the time it is read.
    shown = browser.execute_script(
        "const c = document.querySelector('#clocks .clock.running');"
        "return c ? c.textContent.trim() : null;"
    )
    assert shown is None or re.fullmatch(r"0:0[0-3]", shown), shown
    WebDriverWait(browser, 30).until(lambda d: "ran out of time" in read(d)["turn"])
    view = served(browser)
    assert view["resigned"] == 0 and view["resign_reason"] == "time"


def test_the_heat_map_scales_to_the_top_share(browser: WebDriver) -> None:
    """An open board where the most visited site holds 3 % of the visits is drawn as strongly
    as a decided one: opacity follows the share relative to the top one."""
    release = threading.Event()

    def flat_agent(seat: Any, state: sf.State, seed: int, publish: Any) -> int:
        legal = [int(a) for a in state.legal_actions()]
        shares = {str(s): 0.03 if i == 0 else 0.015 for i, s in enumerate(legal[:40])}
        publish(
            {
                "player": state.current_player,
                "value": 0.0,
                "iterations": 100,
                "budget": 1000,
                "best": legal[0],
                "sites": shares,
                "actions": {},
            }
        )
        release.wait(timeout=20)
        return legal[0]

    with Server(create_app(choose=flat_agent)) as server:
        browser.get(play_url(server.base, "subsume", {}, ["random", "human"]))
        WebDriverWait(browser, 10).until(
            lambda d: len(d.find_elements(By.CSS_SELECTOR, "#board .heat-mark")) == 40
        )
        # Read at once: the map is redrawn at every poll of the search.
        opacities, labels = browser.execute_script(
            "return [Array.from(document.querySelectorAll('#board .heat-mark')).map("
            "(m) => Number(m.getAttribute('fill-opacity'))),"
            " Array.from(document.querySelectorAll('#board .heat-label')).map("
            "(e) => e.textContent)]"
        )
        assert max(opacities) >= 0.75 and min(opacities) == pytest.approx(0.44, abs=0.01)
        assert labels[0] == "3.0%"
        release.set()
        WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "idle")


def test_a_390px_screen_keeps_the_turn_line_in_view(tmp_path: Path) -> None:
    """On a phone-sized screen, after each move (the page scrolled down to the board's foot),
    the turn line and the value bar are inside the viewport."""
    driver = chromium(tmp_path, width=390, height=844)
    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True},
    )
    box = (
        "const b = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return [b.top, b.bottom, b.left, b.right, window.innerHeight, window.innerWidth];"
    )
    try:
        with Server() as server:
            seats = ["human", "mcts:iterations=300"]
            driver.get(play_url(server.base, "subsume", {}, seats))
            wait_idle(driver)
            assert driver.execute_script("return window.innerWidth") == 390
            players = served(driver)["players"]
            assert [(p["kind"], p.get("iterations")) for p in players] == [
                ("human", None),
                ("mcts", 300),
            ]
            rng = random.Random(1)
            for _ in range(4):
                page = read(driver)
                click_site(driver, rng.choice(page["legal"]))
                wait_idle(driver, changed_from=page["version"])
                driver.execute_script("window.scrollBy(0, 150)")
                for element in ("turn", "think"):
                    top, bottom, left, right, height, width = driver.execute_script(box, element)
                    assert 0 <= top < bottom <= height and 0 <= left < right <= width, element
                assert driver.execute_script("return document.documentElement.scrollWidth") <= 390
            driver.save_screenshot(str(tmp_path / "narrow.png"))
    finally:
        driver.quit()


def test_the_record_carries_the_notation(server: Server, browser: WebDriver) -> None:
    options = {"order": 3}
    browser.get(play_url(server.base, "faraday", options, ["human", "human"]))
    wait_idle(browser)
    # A site number, as earlier versions named sites, or a site's name.
    for text in ("4", "second a3", "pass", "swap"):
        before = read(browser)["version"]
        type_move(browser, text)
        wait_idle(browser, changed_from=before)
    record = api(browser, f"/api/sessions/{read(browser)['session']}/record")
    assert record["moves"] == ["b2", "second a3", "pass", "swap"]
    assert record["actions"] == [4, 19 + 7, 38, 40]
    # The record reads back as any other (the notation is an extra key readers ignore).
    assert sf.from_record(json.dumps(record)).history == record["actions"]


def test_edge_numbers_name_each_rows_ends(server: Server, browser: WebDriver) -> None:
    """Sites are numbered row by row from the bottom left: the edge numbers give each row's
    first and last site, so any site's name can be found from the edges."""
    options = {"grid": "square", "size": 3}
    browser.get(play_url(server.base, "windflowers", options, ["human", "human"]))
    wait_idle(browser)
    assert not browser.find_elements(By.CSS_SELECTOR, "#board .edge-number")
    browser.find_element(By.ID, "edges").click()
    labels = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board .edge-number'))"
        ".map((e) => Number(e.textContent))"
    )
    # A 4 x 4 square: rows 0-3, 4-7, 8-11, 12-15.
    assert sorted(labels) == [0, 3, 4, 7, 8, 11, 12, 15]
    # They stay after a move.
    page = read(browser)
    click_site(browser, 5)
    wait_idle(browser, changed_from=page["version"])
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board .edge-number")) == 8


def test_the_strong_search_is_the_default_opponent(server: Server, browser: WebDriver) -> None:
    browser.get(server.base + "/")
    WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "setup")
    seat = browser.find_element(By.CSS_SELECTOR, "#seats [name=seat1]")
    assert seat.get_attribute("value") == "strong"
    budget = browser.find_element(By.CSS_SELECTOR, "#seats [name=budget1]")
    budget.clear()
    budget.send_keys("300")
    browser.find_element(By.ID, "new-game").click()
    wait_idle(browser)
    players = served(browser)["players"]
    assert players[1]["preset"] == "strong" and players[1]["iterations"] == 300
    assert "strong MCTS 300" in browser.find_element(By.ID, "players").text
    # The address carries the seat, and opening it again gives the same seats.
    seats = parse_qs(urlsplit(browser.current_url).query)["seats"]
    assert seats == ["human,mcts:preset=strong,iterations=300"]
    browser.get(browser.current_url)
    wait_idle(browser)
    assert served(browser)["players"] == players


def test_the_expert_level_follows_the_strong_search(server: Server, browser: WebDriver) -> None:
    browser.get(server.base + "/")
    WebDriverWait(browser, 10).until(lambda d: read(d)["state"] == "setup")
    seat = browser.find_element(By.CSS_SELECTOR, "#seats [name=seat1]")
    levels = [o.get_attribute("value") for o in seat.find_elements(By.TAG_NAME, "option")]
    assert levels[-4:] == ["strong", "expert", "perfect", "agent"]
    browser.execute_script(
        "arguments[0].value = 'expert'; arguments[0].dispatchEvent(new Event('change'))", seat
    )
    assert not browser.find_element(By.CSS_SELECTOR, "#seats [name=budget1]").is_displayed()
    browser.find_element(By.ID, "new-game").click()
    wait_idle(browser)
    players = served(browser)["players"]
    assert players[1]["kind"] == "expert" and players[1]["agent"] == "expert"
    assert "Expert (trained network)" in browser.find_element(By.ID, "players").text
    # The address carries the level, and opening it again gives the same seats.
    assert parse_qs(urlsplit(browser.current_url).query)["seats"] == ["human,expert"]
    browser.get(browser.current_url)
    wait_idle(browser)
    assert served(browser)["players"] == players


@pytest.mark.parametrize(
    ("game", "options"),
    [
        ("windflowers", {"grid": "hex", "size": 3}),
        ("windflowers", {"grid": "square", "size": 3}),
        ("windflowers", {"grid": "trisquare", "size": 3}),
    ],
)
def test_the_board_edge_shows_the_coordinates(
    server: Server, browser: WebDriver, game: str, options: dict[str, Any]
) -> None:
    """The file letters and rank numbers that moves are named by sit beside the board, and the
    "coordinates" box hides and shows them."""
    browser.get(play_url(server.base, game, options, ["human", "human"]))
    wait_idle(browser)
    names = sf.make(game, **options).site_names
    files = len({n.rstrip("0123456789") for n in names})
    ranks = len({n.lstrip("abcdefghijklmnopqrstuvwxyz") for n in names})
    labels = browser.find_elements(By.CSS_SELECTOR, "#board .coordinate")
    texts = [e.text for e in labels]
    assert texts[:files] == [chr(ord("a") + k) for k in range(files)]
    assert texts[files:] == [str(r + 1) for r in range(ranks)]
    assert all(e.is_displayed() for e in labels)
    box = browser.find_element(By.ID, "coordinates")
    box.click()
    assert not any(e.is_displayed() for e in labels)
    box.click()
    assert all(e.is_displayed() for e in labels)
