"""The pictures (issue 19, cases 15 and 20): names drawn as text, the format the file's name
asks for, the game-length histogram, titles and labels that fit and read alike."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from easymoney import simulate as S
from easymoney.board.state import BoardState
from easymoney.loading.loader import load_variant

from cli_helpers import cli, one_line_error

mpl = pytest.importorskip("matplotlib")

MONEY_NAMES = r"""name: dollars
extends: standard
modify:
  spaces:
    Arlington Avenue: {name: 'Pay $\foo$ now'}
    Beacon Street: {name: 'cost $5 or $6'}
"""


def _rendered(fig):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    return FigureCanvasAgg(fig).get_renderer()


def _texts(fig):
    return [t for t in fig.findobj(mpl.text.Text) if t.get_text()]


# --- case 15: names are text, never matplotlib's math ----------------------------------------

@pytest.fixture
def dollars(tmp_path: Path) -> Path:
    path = tmp_path / "dollars.yaml"
    path.write_text(MONEY_NAMES)
    return path


def test_issue19_case15_names_with_dollars_are_drawn_as_written(dollars, tmp_path, capsys):
    from easymoney.board.draw import board_figure, heatmap_figure
    variant = load_variant(str(dollars))
    names = {"Pay $\\foo$ now", "cost $5 or $6"}
    assert names <= {s.name for s in variant.spaces}
    boards = [board_figure(BoardState.empty(variant)),
              heatmap_figure(variant, [("x", [1.0] * len(variant.spaces))])]
    for fig in boards:
        _rendered(fig)
        shown = {t.get_text().replace("\n", " "): t for t in _texts(fig)}
        for name in names:
            assert name in shown, name
            assert not shown[name].get_parse_math()  # plain text: no italics, no error
    for path in ("b.png", "b.svg"):
        code, out, err = cli(capsys, "board", str(dollars), "-o", str(tmp_path / path))
        assert (code, err) == (0, ""), err
    svg = (tmp_path / "b.svg").read_text()
    assert "Pay $\\foo$" in svg and "cost $5 or" in svg  # (a name wraps in its cell)


def test_issue19_case15_simulate_plots_a_variant_with_dollars(dollars, tmp_path, capsys):
    code, out, err = cli(capsys, "simulate", str(dollars), "-n", "2", "--max-turns", "40",
                         "--workers", "1", "--plot", str(tmp_path / "p.png"))
    assert (code, err) == (0, f"wrote the figures to {tmp_path / 'p.png'}\n"), err
    assert (tmp_path / "p.png").read_bytes()[:4] == b"\x89PNG"


# --- case 20: plots ----------------------------------------------------------------------------

MAGIC = {"png": b"\x89PNG", "svg": b"<?xml", "pdf": b"%PDF"}


@pytest.mark.parametrize("command", [["simulate"], ["compare", "standard", "no-four-sides"],
                                     ["sweep", "--vary", "four_sides=on,off"]])
@pytest.mark.parametrize("ext", ["png", "svg", "pdf"])
def test_issue19_case20_a_plot_is_in_the_format_its_name_asks_for(command, ext, tmp_path,
                                                                   capsys):
    target = tmp_path / f"p.{ext}"
    code, out, err = cli(capsys, *command, "-n", "2", "--max-turns", "40", "--workers", "1",
                         "--plot", str(target))
    assert (code, err) == (0, f"wrote the figures to {target}\n"), err
    assert target.read_bytes().startswith(MAGIC[ext])


@pytest.mark.parametrize("name", ["p.jpg", "p", "p.PNG.txt"])
def test_issue19_case20_an_unknown_picture_format_is_refused_before_any_game(name, tmp_path,
                                                                             capsys):
    code, out, err = cli(capsys, "simulate", "-n", "5", "--plot", str(tmp_path / name))
    assert (code, out) == (2, "")  # no summary: no game was played
    assert one_line_error(err) == (f"error: --plot {tmp_path / name}: name a .png, .svg or "
                                   f".pdf file (the format follows the extension)")
    assert not list(tmp_path.iterdir())


@pytest.fixture(scope="module")
def summary_and_variant():
    batch = S.Batch(games=6, players=2, strategies=("greedy",), max_turns=80)
    result = S.run([S.Arm("standard")], batch, workers=1)
    return S.summarize(result), result.variants[0]


def test_issue19_case20_the_plot_of_a_known_variant_has_the_game_lengths(summary_and_variant):
    from easymoney.simulate.plot import summary_figure
    summary, variant = summary_and_variant
    fig = summary_figure(summary, variant)
    lengths = [ax for ax in fig.axes if ax.get_title() == "Game length"]
    assert len(lengths) == 1
    assert sum(p.get_height() for p in lengths[0].patches) == summary["games"]


def test_issue19_case20_heat_map_labels_read_alike_and_do_not_overlap(summary_and_variant):
    from easymoney.simulate.plot import summary_figure
    summary, variant = summary_and_variant
    fig = summary_figure(summary, variant)
    renderer = _rendered(fig)
    boards = [ax for ax in fig.axes if any((t.get_gid() or "").startswith("value-")
                                           for t in ax.texts)]
    assert len(boards) == 2
    for ax, pattern in zip(boards, [r"\d+\.\d%", r"\$\d{1,3}(,\d{3})*"]):
        values = [t for t in ax.texts if (t.get_gid() or "").startswith("value-")]
        assert len(values) == len(variant.spaces)
        for t in values:
            assert re.fullmatch(pattern, t.get_text()), t.get_text()
        names = [t for t in ax.texts if (t.get_gid() or "").startswith("name-")]
        for v in values:
            box = v.get_window_extent(renderer)
            for n in names:
                assert not box.overlaps(n.get_window_extent(renderer)), \
                    (v.get_text(), n.get_text())


def test_issue19_case20_the_sweep_plot_title_is_whole_and_clear_of_the_panels():
    from easymoney.simulate.plot import figures_figure
    title = ("sweep of standard: 20 games a cell, seed 0 (mean over the cells with each value; "
             "bars: 95% interval of the effect)")
    points = [("on", 1.0, 0.5, 1.5), ("off", 2.0, 1.5, 2.5)]
    fig = figures_figure(title, [[("mean turns", "four_sides", points)] * 2] * 3)
    renderer = _rendered(fig)
    whole = fig.bbox
    heading = fig._suptitle.get_window_extent(renderer)
    assert heading.x0 >= whole.x0 and heading.x1 <= whole.x1 and heading.y1 <= whole.y1
    assert fig._suptitle.get_text().replace("\n", " ") == title
    for ax in fig.axes:
        assert not heading.overlaps(ax.title.get_window_extent(renderer))
