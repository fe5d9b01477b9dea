"""Proofs anyone can check: sf.solve(certificate=PATH) writes one, sf.verify_proof and
``stonefield verify-proof`` check it with the rules alone, and reject every altered file."""

from __future__ import annotations

import doctest
import hashlib
import json
from pathlib import Path

import pytest

import stonefield as sf
from stonefield.cli import main


def _state(name: str, moves: int = 0, **options: object) -> sf.State:
    s = sf.make(name, **options).new_state()
    for i in range(moves):
        a = s.random_action(seed=i)
        assert a is not None
        s.apply(a)
    return s


# (id, game, options, random moves in, value for the mover)
BOARDS = [
    ("smallholder-win", "smallholder", {"board": "hex232323"}, 0, 1),
    ("smallholder-loss", "smallholder", {"board": "hex232323", "ruleset": "stymie"}, 0, -1),
    ("windflowers-draw", "windflowers", {"size": 3, "max_moves": 6}, 0, 0),
    ("subsume-loss", "subsume", {"size": 3}, 6, -1),
    ("subsume-win", "subsume", {"size": 3}, 5, 1),
    ("smallholder-in", "smallholder", {"board": "hex232323"}, 4, 1),
    ("faraday-loss", "faraday", {"order": 3, "grid": "hex"}, 4, -1),
    ("faraday-win", "faraday", {"order": 3, "grid": "hex"}, 8, 1),
]


@pytest.mark.parametrize(
    ("game", "options", "moves", "value"),
    [b[1:] for b in BOARDS],
    ids=[b[0] for b in BOARDS],
)
def test_written_proof_verifies(
    tmp_path: Path, game: str, options: dict[str, object], moves: int, value: int
) -> None:
    state = _state(game, moves, **options)
    path = tmp_path / "p.proof"
    res = sf.solve(state, certificate=path)
    assert res.value == value
    check = sf.verify_proof(path)
    assert isinstance(check, sf.ProofCheck)
    assert check.value == value
    assert check.game == game
    assert check.actions == state.history
    assert check.positions > check.moves > 0
    header = json.loads(path.read_text().partition("\n")[0])
    assert [c["at_least"] for c in header["claims"]] == ([1] if value else [0, 0])
    assert sum(c["moves"] for c in header["claims"]) == check.moves


def test_unfinished_solve_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.proof"
    res = sf.solve(_state("smallholder", board="hex3"), max_nodes=50, certificate=path)
    assert res.value is None
    assert not path.exists()


def test_a_writing_out_of_time_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.proof"
    s = _state("smallholder", board="hex3")
    with pytest.raises(TimeoutError, match="nothing written"):
        sf.proofs.write_proof(s, 1, path, time=0.01)
    assert not path.exists()
    for bad in (0, -1.0, float("nan"), "1", True):
        with pytest.raises(sf.InvalidOptionError, match="time must be"):
            sf.proofs.write_proof(s, 1, path, time=bad)  # type: ignore[arg-type]
    assert not path.exists()


def test_a_claim_the_position_does_not_hold_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "p.proof"
    # hex232323 nibbler is a win for the mover: a loss cannot be proven.
    with pytest.raises(sf.InvalidOptionError, match="does not hold"):
        sf.proofs.write_proof(_state("smallholder", board="hex232323"), -1, path)
    assert not path.exists()


def test_finished_position_is_refused(tmp_path: Path) -> None:
    s = _state("windflowers", size=3, max_moves=2)
    while not s.is_terminal():
        s.apply(int(s.legal_actions()[0]))
    with pytest.raises(sf.InvalidOptionError, match="finished"):
        sf.proofs.write_proof(s, 0, tmp_path / "p.proof")


@pytest.fixture(scope="module")
def draw_proof(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("proof") / "draw.proof"
    assert sf.solve(_state("windflowers", size=3, max_moves=8), certificate=path).value == 0
    return path.read_text()


@pytest.fixture(scope="module")
def win_proof(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = tmp_path_factory.mktemp("proof") / "win.proof"
    assert sf.solve(_state("smallholder", board="hex232323"), certificate=path).value == 1
    return path.read_text()


def _reject(tmp_path: Path, text: str, match: str) -> None:
    path = tmp_path / "bad.proof"
    path.write_text(text)
    with pytest.raises(sf.RecordError, match=match):
        sf.verify_proof(path)


@pytest.mark.parametrize("which", ["draw", "win"])
def test_illegal_move_is_rejected_with_its_position(
    tmp_path: Path, which: str, draw_proof: str, win_proof: str
) -> None:
    text = draw_proof if which == "draw" else win_proof
    head, _, body = text.partition("\n")
    lines = body.split("\n")
    lines[0] = "100000"
    _reject(tmp_path, head + "\n" + "\n".join(lines), r"line 2: action 100000 is not legal after")


@pytest.mark.parametrize("which", ["draw", "win"])
def test_every_other_move_flipped_is_rejected(
    tmp_path: Path, which: str, draw_proof: str, win_proof: str
) -> None:
    text = draw_proof if which == "draw" else win_proof
    head, _, body = text.partition("\n")
    lines = body.split("\n")
    record = json.loads(head)["record"]
    root = sf.from_record(record)
    for a in root.legal_actions().tolist():
        if str(a) == lines[0]:
            continue
        changed = [str(a), *lines[1:]]
        _reject(tmp_path, head + "\n" + "\n".join(changed), r"line \d+")


@pytest.mark.parametrize("which", ["draw", "win"])
def test_dropped_line_is_rejected(
    tmp_path: Path, which: str, draw_proof: str, win_proof: str
) -> None:
    text = draw_proof if which == "draw" else win_proof
    head, _, body = text.partition("\n")
    lines = body.split("\n")
    for drop in (0, len(lines) // 2, len(lines) - 2):
        changed = lines[:drop] + lines[drop + 1 :]
        _reject(tmp_path, head + "\n" + "\n".join(changed), r"line \d+")


@pytest.mark.parametrize("which", ["draw", "win"])
def test_truncated_file_is_rejected(
    tmp_path: Path, which: str, draw_proof: str, win_proof: str
) -> None:
    text = draw_proof if which == "draw" else win_proof
    for cut in (10, len(text) // 2, len(text) - 1, len(text) - 3):
        _reject(tmp_path, text[:cut], r"line \d+")


def test_extra_lines_and_changed_checksum_are_rejected(tmp_path: Path, draw_proof: str) -> None:
    _reject(tmp_path, draw_proof + "5\n", "more lines than the proof uses")
    head, _, body = draw_proof.partition("\n")
    header = json.loads(head)
    header["sha256"] = "0" * 64
    _reject(tmp_path, json.dumps(header) + "\n" + body, "sha256 does not match")


def test_other_game_or_value_is_rejected(tmp_path: Path, draw_proof: str, win_proof: str) -> None:
    head, _, body = win_proof.partition("\n")
    header = json.loads(head)
    other = dict(header, record=dict(header["record"], game="subsume"))
    _reject(tmp_path, json.dumps(other) + "\n" + body, "line 1: record")
    bigger = dict(header["record"], options=dict(header["record"]["options"], board="hex3"))
    _reject(tmp_path, json.dumps(dict(header, record=bigger)) + "\n" + body, r"line \d+")
    head, _, body = draw_proof.partition("\n")
    header = json.loads(head)
    for value in (1, -1, 2, True, None):
        _reject(tmp_path, json.dumps(dict(header, value=value)) + "\n" + body, "line 1")
    _reject(tmp_path, json.dumps(dict(header, format="x")) + "\n" + body, "line 1")
    for version in (3, 0, True, "2", None):
        changed = json.dumps(dict(header, format_version=version))
        _reject(tmp_path, changed + "\n" + body, "line 1")


def _with_checksum(header: dict[str, object], lines: list[str]) -> str:
    """The file of ``lines`` under ``header`` with the checksum made to match, so that the
    checker's own play is what rejects it."""
    body = "\n".join(lines)
    return json.dumps(dict(header, sha256=hashlib.sha256(body.encode()).hexdigest())) + "\n" + body


def _references(lines: list[str]) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """The file lines of the "=N" lines and of the "a>N" lines, each with its N."""
    same = [(i + 2, int(t[1:])) for i, t in enumerate(lines) if t.startswith("=")]
    after = [(i + 2, int(t.partition(">")[2])) for i, t in enumerate(lines) if ">" in t]
    return same, after


def test_transpositions_are_written_once(draw_proof: str, win_proof: str) -> None:
    # Both proofs meet positions again by other orders of moves: a position of the claimant
    # as "=N", the line of its first meeting; a move to the other player's position that an
    # earlier move reached as "a>N", that move's line.
    for text, moves_to_known in ((draw_proof, True), (win_proof, False)):
        head, _, body = text.partition("\n")
        assert json.loads(head)["format_version"] == 2
        lines = body.split("\n")
        same, after = _references(lines)
        assert same and (bool(after) or not moves_to_known)
        for here, there in same + after:
            assert 2 <= there < here
        for _, there in after:
            assert lines[there - 2].partition(">")[0].isdigit()


def _move_target(lines: list[str], marker: str) -> int:
    """The index of the first reference line with ``marker`` whose line N holds a plain move
    (so the line after N stands in that move's subtree: complete, another position)."""
    return next(
        i
        for i, t in enumerate(lines)
        if marker in t and lines[int(t.partition(marker)[2]) - 2].isdigit()
    )


def _after_a_move(lines: list[str], marker: str) -> int:
    """The index of the first reference line with ``marker`` right below a plain move (the
    position of that move's line is then above it on its path, its proof not complete)."""
    return next(i for i, t in enumerate(lines) if marker in t and lines[i - 1].isdigit())


@pytest.mark.parametrize("which", ["draw", "win"])
def test_a_changed_reference_is_rejected_with_its_position(
    tmp_path: Path, which: str, draw_proof: str, win_proof: str
) -> None:
    text = draw_proof if which == "draw" else win_proof
    head, _, body = text.partition("\n")
    header = json.loads(head)
    lines = body.split("\n")
    i = _move_target(lines, "=")
    here, there = i + 2, int(lines[i][1:])
    for bad, match in [
        (f"={here}", f"line {here}: ={here} after actions .* not an earlier line of this claim"),
        (f"={here + 5}", "not an earlier line of this claim"),
        ("=1", "not an earlier line of this claim"),
        ("=0", "not an earlier line of this claim"),
        ("=x", f"line {here}: '=x' is not a line number"),
        ("=-3", "is not a line number"),
        ("=", "is not a line number"),
        (f"={there + 1}", f"line {here}: ={there + 1}: the position after actions .* is not"),
    ]:
        changed = [*lines[:i], bad, *lines[i + 1 :]]
        _reject(tmp_path, _with_checksum(header, changed), match)
    # A reference to the line just above it, where a move stands: that move leads here, so
    # its proof is not complete.
    j = _after_a_move(lines, "=")
    changed = [*lines[:j], f"={j + 1}", *lines[j + 1 :]]
    _reject(
        tmp_path,
        _with_checksum(header, changed),
        f"line {j + 2}: ={j + 1} after actions .*: the proof at line {j + 1} is not complete",
    )
    # Version 1 proofs are trees: a reference there is not an action.
    _reject(
        tmp_path,
        _with_checksum(dict(header, format_version=1), lines),
        r"line \d+: '=\d+' is not an action id",
    )


def test_a_changed_move_reference_is_rejected_with_its_position(
    tmp_path: Path, draw_proof: str
) -> None:
    head, _, body = draw_proof.partition("\n")
    header = json.loads(head)
    lines = body.split("\n")
    i = _move_target(lines, ">")
    here = i + 2
    move, _, there = lines[i].partition(">")
    n = int(there)
    for bad, match in [
        (f"{move}>{here}", f"line {here}: >{here} after actions .* not an earlier line"),
        (f"{move}>1", "not an earlier line of this claim"),
        (f"{move}>x", f"line {here}: 'x' after '>' is not a line number"),
        (f"{move}>", "after '>' is not a line number"),
        (f"x>{n}", "'x' is not an action id"),
        (f"100000>{n}", "action 100000 is not legal"),
        (f"{move}>{n + 1}", f"line {here}: >{n + 1}"),
    ]:
        changed = [*lines[:i], bad, *lines[i + 1 :]]
        _reject(tmp_path, _with_checksum(header, changed), match)
    j = _after_a_move(lines, ">")
    move = lines[j].partition(">")[0]
    changed = [*lines[:j], f"{move}>{j + 1}", *lines[j + 1 :]]
    _reject(
        tmp_path,
        _with_checksum(header, changed),
        f"line {j + 2}: >{j + 1} after actions .*: line {j + 1} has no move whose proof is "
        "complete",
    )


def test_a_reference_into_the_other_claim_is_rejected(tmp_path: Path, draw_proof: str) -> None:
    head, _, body = draw_proof.partition("\n")
    header = json.loads(head)
    first = header["claims"][0]["moves"]
    lines = body.split("\n")
    i = next(i for i, t in enumerate(lines) if i >= first and t.startswith("="))
    # Line 3 is complete in the first claim, but a claim stands on its own lines.
    changed = [*lines[:i], "=3", *lines[i + 1 :]]
    _reject(
        tmp_path,
        _with_checksum(header, changed),
        rf"line {i + 2}: =3 after actions .* not an earlier line of this claim "
        rf"\(lines {first + 2} to",
    )


def test_the_writer_leaves_only_the_finished_file(tmp_path: Path) -> None:
    # The lines go to a file beside the path, which takes its place when complete: no part
    # file is left, and a path that cannot be written raises with nothing left behind.
    state = _state("smallholder", board="hex232323")
    path = tmp_path / "p.proof"
    lines = sf.proofs.write_proof(state, 1, path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.proof"]
    head, _, body = path.read_text().partition("\n")
    assert len(body.splitlines()) == lines
    assert json.loads(head)["sha256"] == hashlib.sha256(body.encode()).hexdigest()
    with pytest.raises(OSError):
        sf.proofs.write_proof(state, 1, tmp_path / "missing" / "p.proof")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["p.proof"]
    # Written again over an older file: replaced whole.
    path.write_text("old\n" * 10_000)
    assert sf.proofs.write_proof(state, 1, path) == lines
    assert sf.verify_proof(path).moves == lines


def test_a_line_that_is_not_text_is_rejected(tmp_path: Path, draw_proof: str) -> None:
    data = draw_proof.encode()
    head, _, body = data.partition(b"\n")
    lines = body.split(b"\n")
    lines[3] = b"\xff\xfe"
    (tmp_path / "bad.proof").write_bytes(head + b"\n" + b"\n".join(lines))
    with pytest.raises(sf.RecordError, match="line 5: not UTF-8 text"):
        sf.verify_proof(tmp_path / "bad.proof")


def test_not_a_proof_is_rejected(tmp_path: Path) -> None:
    _reject(tmp_path, "", "line 1")
    _reject(tmp_path, "hello\n1\n", "line 1")
    _reject(tmp_path, "[1, 2]\n", "line 1")
    (tmp_path / "bin.proof").write_bytes(b"\xff\xfe\n")
    with pytest.raises(sf.RecordError):
        sf.verify_proof(tmp_path / "bin.proof")
    with pytest.raises(sf.RecordError, match="cannot be read"):
        sf.verify_proof(tmp_path / "missing.proof")


def test_command_line_writes_and_checks_a_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "cli.proof"
    argv = ["solve", "windflowers", "--option", "size=3", "--option", "max_moves=6"]
    assert main([*argv, "--proof", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["value"] == 0 and out["proof"] == str(path) and out["proof_moves"] > 0
    assert main(["verify-proof", str(path)]) == 0
    text = capsys.readouterr().out
    assert "draw for the player to move: proven" in text and "positions" in text
    assert main(["verify-proof", str(path), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["valid"] and checked["value"] == 0 and checked["moves"] == out["proof_moves"]
    assert checked["positions"] == sf.verify_proof(path).positions
    path.write_text(path.read_text()[:-3])
    assert main(["verify-proof", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("stonefield verify-proof: rejected: line ")


def test_command_line_unproven_value_writes_no_proof(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "none.proof"
    argv = ["solve", "smallholder", "--option", "board=hex3", "--nodes", "50"]
    assert main([*argv, "--proof", str(path)]) == 0
    assert "no proof written" in capsys.readouterr().err
    assert not path.exists()
    with pytest.raises(SystemExit) as exit_:
        main(["solve", "windflowers", "--graph", "--proof", str(path)])
    assert exit_.value.code == 2
    assert "--proof" in capsys.readouterr().err


def test_a_losing_move_with_a_fixed_checksum_fails_at_a_position(tmp_path: Path) -> None:
    # The checker does not lean on the checksum: a proof whose first move is changed to one
    # that does not win, with the checksum made to match, still fails where the play fails.
    state = _state("smallholder", 4, board="hex232323")
    path = tmp_path / "p.proof"
    res = sf.solve(state, certificate=path)
    assert res.value == 1
    head, _, body = path.read_text().partition("\n")
    header = json.loads(head)
    lines = body.split("\n")
    bad = [int(a) for a, o in zip(res.actions, res.outcomes) if o < 1]
    assert bad
    for a in bad:
        changed = "\n".join([str(a), *lines[1:]])
        header["sha256"] = hashlib.sha256(changed.encode()).hexdigest()
        text = json.dumps(header) + "\n" + changed
        _reject(
            tmp_path, text, r"line (\d\d*): (the game ends|the proof ends|action|minimax finds)"
        )


def test_solve_docstring_example_runs() -> None:
    finder = doctest.DocTestFinder(recurse=False)
    tests = finder.find(sf.solve, "solve", globs={})
    assert tests and tests[0].examples
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for t in tests:
        runner.run(t)
    assert runner.failures == 0


def test_minimax_leaves_are_checked(tmp_path: Path) -> None:
    # "?" leaves a claiming player's position to the checker's own minimax: a false one and
    # one too large for it are rejected with their position.
    state = _state("smallholder", 4, board="hex232323")
    path = tmp_path / "p.proof"
    res = sf.solve(state, certificate=path)
    head, _, body = path.read_text().partition("\n")
    assert "?" in body.split("\n")
    header = json.loads(head)
    for a in [int(a) for a, o in zip(res.actions, res.outcomes) if o < 1]:
        changed = f"{a}\n?\n"
        header["claims"][0]["moves"] = 2
        header["sha256"] = hashlib.sha256(changed.encode()).hexdigest()
        _reject(tmp_path, json.dumps(header) + "\n" + changed, r"line \d+: (minimax finds|the)")
    big = sf.make("smallholder", board="hex232323").new_state()
    path = tmp_path / "big.proof"
    sf.solve(big, certificate=path)
    head, _, body = path.read_text().partition("\n")
    header = json.loads(head)
    header["claims"][0]["moves"] = 1
    header["sha256"] = hashlib.sha256(b"?\n").hexdigest()
    _reject(tmp_path, json.dumps(header) + "\n?\n", r"line 2: .* needs more than")
