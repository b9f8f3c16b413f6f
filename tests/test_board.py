"""The board: its square layout, the text board, the matplotlib drawing and heat maps, `easymoney board`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from easymoney.board.layout import CORNER, board_size, layout
from easymoney.board.state import BoardState
from easymoney.board.text import text_board
from easymoney.cli import main
from easymoney.loading.loader import load_variant
from easymoney.script.parser import parse
from easymoney.script.runner import ScriptRunner

ROOT = Path(__file__).resolve().parent.parent
VARIANTS = ["standard", "no-four-sides", "reference-card", "classic-1936"]


def played(text: str) -> BoardState:
    runner = ScriptRunner(parse(text))
    runner.run()
    return BoardState.of(runner.game, 1)


# --- the layout ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", VARIANTS)
def test_every_space_is_in_one_cell_once_in_play_order(name):
    v = load_variant(name)
    cells = layout(v)
    assert [i for c in cells for i in c.indices] == list(range(len(v.spaces)))


def test_the_corners_and_the_four_sides_sit_where_play_goes():
    v = load_variant("standard")
    cells = layout(v)
    corners = [c for c in cells if c.corner]
    assert [c.indices for c in corners] == [(0,), (12,), (24,), (36,)]
    size = board_size(v)
    assert [(c.x, c.y) for c in corners] == [(size - CORNER, 0), (0, 0), (0, size - CORNER),
                                           (size - CORNER, size - CORNER)]
    edge_of_side = {1: "bottom", 2: "left", 3: "top", 4: "right"}
    for c in cells:
        if not c.corner:
            for i in c.indices:
                assert edge_of_side[v.spaces[i].side] == c.edge, (i, c)
    # play goes right to left along the bottom, up the left, left to right along the top,
    # down the right: each next cell of a side is further along that way
    step = {"bottom": lambda a, b: b.x < a.x, "left": lambda a, b: b.y > a.y,
            "top": lambda a, b: b.x > a.x, "right": lambda a, b: b.y < a.y}
    for a, b in zip(cells, cells[1:]):
        if a.edge == b.edge and not b.corner:
            assert step[a.edge](a, b), (a, b)


def test_the_red_traffic_light_is_one_double_cell():
    v = load_variant("standard")
    cells = layout(v)
    double = [c for c in cells if len(c.indices) > 1]
    assert [c.indices for c in double] == [(41, 42)]
    single = next(c for c in cells if c.indices == (40,))
    assert double[0].h == pytest.approx(2 * single.h) and double[0].edge == "right"
    parts = double[0].parts()
    assert [p[0] for p in parts] == [41, 42] and parts[0][2] > parts[1][2]  # 41 above 42


def test_the_cells_tile_the_frame_without_overlap():
    v = load_variant("standard")
    size = board_size(v)
    area = sum(c.w * c.h for c in layout(v))
    assert area == pytest.approx(size * size - (size - 2 * CORNER) ** 2)


# --- the text board -----------------------------------------------------------------------

def test_the_text_board_shows_every_cell_once_within_79_columns():
    v = load_variant("standard")
    text = text_board(BoardState.empty(v))
    assert max(len(line) for line in text.splitlines()) <= 79
    numbers = re.findall(r"\|\s*(\d+(?:-\d+)?)(?=[A-Z.|])", text)
    assert sorted(numbers, key=lambda n: int(n.split("-")[0])) == \
        [str(i) for i in range(41)] + ["41-42"] + [str(i) for i in range(43, 48)]
    lines = text.splitlines()
    assert "24Cit" in lines[1] and "36Bin" in lines[1]      # top row: side 3
    assert "12Sto" in lines[-3] and " 0Bon" in lines[-3]     # bottom row: side 1


def test_the_text_board_shows_owners_houses_mortgages_and_men():
    state = played("players Ann Bob\nsetup Ann owns \"Dover Street\" 3 houses\n"
                   "setup Bob owns \"Waldorf Hotel\" mortgaged\nAnn rolls 1 2\nAnn declines\n"
                   "Ann passes\nBob passes\nBob rolls 3 4\n")
    text = text_board(state)
    assert "A3 *b" in text     # Dover Street: Ann's with 3 houses; Bob's MAN on it
    assert "Bm" in text        # the Waldorf Hotel: Bob's, mortgaged
    assert "*a" in text        # Ann's MAN on Beacon Street
    assert "A Ann" in text and "B Bob" in text


CROWD = ("name: crowd\nextends: standard\nplayers:\n  min: 2\n  max: 1000\nmoney:\n"
         "  smallest_bill: 1\n  starting_cash: 20000\n  bank_total: 20000000\n")


def crowd_script(folder: Path, players: int) -> Path:
    (folder / "crowd.yaml").write_text(CROWD)
    names = " ".join(f"P{k}" for k in range(players))
    script = folder / "crowd.game"
    script.write_text(f'variant "crowd.yaml"\nplayers {names}\nseed 1\nP0 rolls 3 4\n'
                      f"P0 buys\nP1 rolls 1 2\n")
    return script


@pytest.mark.parametrize("players", [36, 37, 1000])
def test_issue19_case14_any_number_of_players_has_distinct_marks(players):
    from easymoney.board.text import tokens
    names = [f"P{k}" for k in range(players)]
    marks = tokens(names)
    assert len(set(marks)) == players
    assert all(1 <= len(m) <= 2 for m in marks)
    assert len({m.lower() for m in marks}) == players  # the MEN's marks are distinct too
    if players > 36:  # one width for all: `*a1b2` reads as a1 and b2
        assert {len(m) for m in marks} == {2}


def test_issue19_case14_the_text_board_of_37_players_lists_every_player(tmp_path, capsys):
    script = crowd_script(tmp_path, 40)
    assert main(["board", str(script)]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    for k in range(40):
        assert re.search(rf"^\s*\S\S P{k} ", out, re.M), f"P{k} is not in the legend"
    assert max(len(line) for line in out.splitlines()) <= 79


# --- the drawing --------------------------------------------------------------------------

mpl = pytest.importorskip("matplotlib")


def _gids(fig) -> dict[str, object]:
    found: dict[str, object] = {}
    for artist in fig.findobj():
        gid = artist.get_gid()
        if gid:
            assert gid not in found, f"{gid} drawn twice"
            found[gid] = artist
    return found


def test_the_drawing_names_each_cell_once_inside_its_cell():
    from easymoney.board.draw import board_figure
    v = load_variant("standard")
    gids = _gids(board_figure(BoardState.empty(v)))
    for cell in layout(v):
        name = gids[f"name-{cell.indices[0]}"]
        assert name.get_text().replace("\n", " ") == v.spaces[cell.indices[0]].name
        x, y = name.get_position()
        assert cell.x <= x <= cell.x + cell.w and cell.y <= y <= cell.y + cell.h
        box = gids[f"space-{cell.indices[0]}"]
        assert (box.get_x(), box.get_y()) == (cell.x, cell.y)
    assert len([g for g in gids if g.startswith("name-")]) == len(layout(v))


def test_the_drawing_of_a_game_shows_houses_mortgages_and_men():
    from easymoney.board.draw import board_figure
    state = played("players Ann Bob\nsetup Ann owns \"Dover Street\" 5 houses\n"
                   "setup Bob owns \"Waldorf Hotel\" mortgaged\nsetup exemption Bob\n"
                   "Ann rolls 1 2\n")
    gids = _gids(board_figure(state))
    assert "houses-7" in gids            # a Subdivision: one block
    assert "mortgaged-8" in gids and "mortgaged-7" not in gids
    assert "man-0" in gids and "man-1" in gids
    texts = [t.get_text() for t in board_figure(state).findobj(mpl.text.Text)]
    assert "Special Exemption card: Bob" in texts and "$20,000" in texts


def test_png_and_svg_are_written_and_the_same_game_draws_the_same_bytes(tmp_path):
    from easymoney.board.draw import draw_board
    v = load_variant("standard")
    for ext in ("png", "svg"):
        a, b = tmp_path / f"a.{ext}", tmp_path / f"b.{ext}"
        draw_board(BoardState.empty(v), str(a))
        draw_board(BoardState.empty(v), str(b))
        assert a.read_bytes() == b.read_bytes()
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = ET.parse(tmp_path / "a.svg").getroot()
    ids = [e.get("id") for e in svg.iter() if (e.get("id") or "").startswith("name-")]
    assert sorted(ids) == sorted(f"name-{c.indices[0]}" for c in layout(v))


def test_heat_maps_colour_every_space_by_its_value_one_board_per_panel(tmp_path):
    from easymoney.board.draw import board_heatmaps, heatmap_figure
    v = load_variant("standard")
    landings = [float(i % 5) / 10 for i in range(48)]
    rents = [i * 10 for i in range(48)]
    fig = heatmap_figure(v, [("landings", landings), ("rents", rents)])
    values = [a for a in fig.findobj(mpl.text.Text) if (a.get_gid() or "").startswith("value-")]
    assert len(values) == 2 * 48
    texts = {a.get_gid(): a.get_text() for a in values[48:]}
    assert texts["value-47"] == "470" and texts["value-41"] == "410"
    assert len(fig.axes) == 4  # two boards, two colour bars
    board_heatmaps(v, [("landings", landings)], str(tmp_path / "h.png"))
    assert (tmp_path / "h.png").stat().st_size > 10_000
    from easymoney.errors import UsageError
    with pytest.raises(UsageError, match="has 3 values; the board of standard has 48"):
        board_heatmaps(v, [("bad", [1, 2, 3])], str(tmp_path / "x.png"))


# --- the command --------------------------------------------------------------------------

def test_board_prints_the_text_board_of_a_variant(capsys):
    assert main(["board", "standard"]) == 0
    out = capsys.readouterr().out
    assert "EASY MONEY  standard" in out and "41-42" in out


def test_board_draws_a_script_after_a_turn(tmp_path, capsys):
    script = tmp_path / "g.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\nAnn buys\nBob rolls 1 2\nBob buys\n"
                      "Ann rolls 1 1\n")
    assert main(["board", str(script), "--turn", "1"]) == 0
    out = capsys.readouterr().out
    assert "after turn 1" in out and "A1 *a" in out and "B1" not in out
    out_png = tmp_path / "b.png"
    assert main(["board", str(script), "-o", str(out_png)]) == 0
    assert out_png.read_bytes()[:4] == b"\x89PNG"


@pytest.mark.parametrize("argv, message", [
    (["board", "standard", "-o", "b.txt"], "name a .png, .svg or .pdf file"),
    (["board", "standard", "--turn", "2"], "--turn is for a game script"),
    (["board", "nosuch"], "nosuch"),
])
def test_board_errors_are_one_line_and_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err
    assert not list(tmp_path.iterdir())


def test_a_turn_beyond_the_script_is_refused(tmp_path, capsys):
    script = tmp_path / "g.game"
    script.write_text("players Ann Bob\nAnn rolls 3 4\nAnn buys\n")
    assert main(["board", str(script), "--turn", "5"]) == 2
    assert "--turn 5: the script plays 1 turn; give 0 to 1" in capsys.readouterr().err


# --- issue 19 case 19: the board drawn from the variant's own board ---------------------------

QUICK = ROOT / "tests" / "data" / "boards" / "quick_24.yaml"
QUICK_GAME = (f'variant "{QUICK}"\nplayers Ann Bob Cat\nseed 1\n'
              'setup Ann owns "Arlington Avenue" 3 houses\nsetup Ann owns "Grove Street" 2 houses\n'
              'setup Cat owns "Tremont Street" 3 houses\nsetup Bob owns "Oakland Road" mortgaged\n'
              "Ann rolls 3 4\n")


def test_issue19_case19_the_text_board_of_a_small_board_cuts_no_line():
    state = played(QUICK_GAME)
    text = text_board(state)
    assert "EASY MONEY" in text and "quick" in text and "after turn 1" in text
    for line in ("A Ann", "on 7 Grove Street", "Special Exemption card: not held",
                 "Give or Take cards in the pile: 24"):
        assert line in text, line
    assert "Subdivision (3 houses)" in text  # the variant's number, not the standard's 5
    assert "CS" in text and "A2" in text  # Tremont Street is a Subdivision; Grove Street not
    assert max(len(line) for line in text.splitlines()) <= 79


def _extent(artist, renderer):
    return artist.get_window_extent(renderer)


def _inside(inner, outer, slack=1.0) -> bool:
    return (inner.x0 >= outer.x0 - slack and inner.x1 <= outer.x1 + slack
            and inner.y0 >= outer.y0 - slack and inner.y1 <= outer.y1 + slack)


def _rendered(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    return FigureCanvasAgg(fig).get_renderer()


@pytest.mark.parametrize("game", ["quick", "standard, 40 players"])
def test_issue19_case19_the_centre_table_stays_in_the_centre_in_columns(game, tmp_path):
    from matplotlib.transforms import Bbox
    from easymoney.board.draw import board_figure
    if game == "quick":
        state = played(QUICK_GAME)
    else:
        runner = ScriptRunner(parse(crowd_script(tmp_path, 40).read_text(),
                                    str(tmp_path / "crowd.game")))
        runner.run()
        state = BoardState.of(runner.game, 1)
    fig = board_figure(state)
    renderer = _rendered(fig)
    ax = fig.axes[0]
    size = board_size(state.variant)
    centre = Bbox(ax.transData.transform([(CORNER, CORNER), (size - CORNER, size - CORNER)]))
    texts = [t for t in fig.findobj() if (t.get_gid() or "").startswith("centre-")]
    assert texts
    for t in texts:
        assert _inside(_extent(t, renderer), centre), (t.get_gid(), t.get_text())
    # the columns of each row do not overlap: name, cash, worth, space, left to right
    rows: dict[str, list] = {}
    for t in texts:
        _, kind, *rest = t.get_gid().split("-")
        if kind == "cell":
            rows.setdefault(rest[1], []).append((int(rest[0]), _extent(t, renderer)))
    assert rows
    for row in rows.values():
        boxes = [box for _, box in sorted(row, key=lambda r: r[0])]
        for left, right in zip(boxes, boxes[1:]):
            assert left.x1 < right.x0


def test_issue19_case19_a_subdivision_is_the_variants_number_of_houses():
    from easymoney.board.draw import board_figure
    state = played(QUICK_GAME)
    gids = _gids(board_figure(state))
    tremont = state.variant.space_named("Tremont Street").index
    grove = state.variant.space_named("Grove Street").index
    assert f"houses-{tremont}" in gids and f"houses-{tremont}-0" not in gids  # one block
    assert {f"houses-{grove}-0", f"houses-{grove}-1"} <= set(gids)


@pytest.mark.parametrize("street", ["Grove Street", "Dover Street", "Lincoln Street",
                                    "Tremont Street"])  # one on each side
def test_issue19_case19_the_subdivision_label_stays_in_its_block(street):
    from easymoney.board.draw import board_figure
    state = played(f'players Ann Bob\nsetup Ann owns "{street}" 5 houses\nAnn rolls 1 2\n')
    fig = board_figure(state)
    renderer = _rendered(fig)
    gids = _gids(fig)
    i = state.variant.space_named(street).index
    label = gids[f"subdivision-{i}"]
    assert label.get_text() == "Subdivision"
    assert _inside(_extent(label, renderer), _extent(gids[f"houses-{i}"], renderer))
