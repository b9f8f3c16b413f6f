"""Issue 32, part 1: the board a page draws (easymoney.web.svg): it fills its container,
names wrap between words, prices are readable at 1024x700, the MEN stand beside the price."""

from __future__ import annotations

import dataclasses
import html
import re
from pathlib import Path

import pytest

from easymoney.board.draw import space_caption
from easymoney.board.layout import layout
from easymoney.board.state import BoardState, Seat
from easymoney.script.table import new_game
from easymoney.web.svg import GLYPH, board_svg, wrap_name

ROOT = Path(__file__).resolve().parent.parent
BOARD_AT_1024 = 640  # pixels the board takes in a 1024x700 window (the CSS: 100vh - 60px)
VARIANTS = ["standard", str(ROOT / "examples/variants/railroads.yaml")]


def _variant(name: str):
    return new_game(name, ["Ann", "Bob"]).game.variant


def _width(svg: str) -> float:
    return float(re.search(r'viewBox="0 0 ([\d.]+) [\d.]+"', svg).group(1))


def _texts(svg: str, cls: str) -> list[tuple[float, float, float, str, str]]:
    """(x, y, font size, anchor, text) of each <text class=cls>."""
    found = []
    for m in re.finditer(r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)" '
                         r'text-anchor="(\w+)"[^>]*class="' + cls + r'"[^>]*>([^<]*)</text>', svg):
        found.append((float(m[1]), float(m[2]), float(m[3]), m[4], html.unescape(m[5])))
    return found


def _cells(svg: str) -> dict[int, str]:
    """Each space group's SVG, by its first space's number."""
    return {int(m[1]): m[2] for m in re.finditer(
        r'<g class="space" data-index="(\d+)"[^>]*>(.*?)\n</g>', svg, re.S)}


def test_issue32_part1_the_board_has_a_viewbox_and_no_size_of_its_own():
    svg = board_svg(BoardState.empty(_variant("standard")))
    root = svg.split(">", 1)[0]
    assert 'viewBox="0 0 900 900"' in root
    assert " width=" not in root and " height=" not in root


@pytest.mark.parametrize("variant", VARIANTS)
def test_issue32_part1_names_wrap_between_words_never_inside_one(variant):
    v = _variant(variant)
    cells = _cells(board_svg(BoardState.empty(v)))
    for cell in layout(v):
        name = v.spaces[cell.indices[0]].name
        lines = [t[4] for t in _texts(cells[cell.indices[0]], "name")]
        assert " ".join(lines) == " ".join(name.split()), (name, lines)
    if variant == "standard":
        assert [t[4] for t in _texts(cells[32], "name")][0] == "Interurban"  # not "Interurba"


def test_issue32_part1_wrap_name_shrinks_to_fit_the_longest_word():
    lines, size = wrap_name("Interurban Transit Company", 54, 60)
    assert lines == ["Interurban", "Transit", "Company"]
    assert len("Interurban") * GLYPH * size <= 54
    # a word too long for the least size stays whole, past the width
    assert wrap_name("Supercalifragilistic Road", 30, 60)[0][0] == "Supercalifragilistic"


@pytest.mark.parametrize("variant", VARIANTS)
def test_issue32_part1_prices_are_11_pixels_at_1024x700(variant):
    v = _variant(variant)
    svg = board_svg(BoardState.empty(v))
    scale = BOARD_AT_1024 / _width(svg)
    prices = _texts(svg, "price")
    street_prices = [p for p in prices if p[4].startswith("$")]
    assert len(street_prices) >= sum(1 for s in v.spaces if "price" in s.data) - 4
    small = [(p[4], round(p[2] * scale, 1)) for p in street_prices if p[2] * scale < 11]
    assert not small, small
    captions = {space_caption(s) for s in v.spaces} - {""}
    assert {p[4] for p in prices} == captions


def _crowded(variant: str, at: int) -> BoardState:
    """Four MEN on space `at`, a game under way."""
    v = _variant(variant)
    seats = tuple(Seat(n, 1000, at, False, 1000) for n in ("Ann", "Bob", "Cat", "Dan"))
    return dataclasses.replace(BoardState.empty(v), players=seats, turn=3)


def _box(x: float, y: float, size: float, anchor: str, text: str,
         glyph: float = GLYPH + 0.08) -> tuple[float, ...]:
    """The (left, top, right, bottom) a text takes, counted generously (bold digits)."""
    width = len(text) * size * glyph
    left = x - width / 2 if anchor == "middle" else (x - width if anchor == "end" else x)
    return left, y - size * 0.5, left + width, y + size * 0.5


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


@pytest.mark.parametrize("variant", VARIANTS)
def test_issue32_part1_men_stand_beside_the_price_not_on_it(variant):
    v = _variant(variant)
    for cell in layout(v):
        for i in cell.indices:
            svg = board_svg(_crowded(variant, i))
            group = _cells(svg)[cell.indices[0]]
            frame = re.search(r'<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
                              r'height="([\d.]+)"', group)
            fx, fy, fw, fh = map(float, frame.groups())
            prices = [_box(*p) for p in _texts(group, "price")]
            names = [_box(*p, glyph=GLYPH) for p in _texts(group, "name")]
            men = [tuple(map(float, m)) for m in re.findall(
                r'<g class="man" data-player="\w+" data-index="' + str(i)
                + r'" transform="translate\(([\d.]+) ([\d.]+)\)"><title>\w+</title>'
                r'<circle r="([\d.]+)"', svg)]
            assert len(men) == 4, (i, men)
            for mx, my, r in men:
                assert r >= 8
                man = (mx - r, my - r, mx + r, my + r)
                assert fx <= man[0] and man[2] <= fx + fw and fy <= man[1] and man[3] <= fy + fh, \
                    (v.spaces[i].name, man, (fx, fy, fw, fh))
                assert not any(_overlap(man, p) for p in prices), (v.spaces[i].name, man, prices)
                if not cell.corner:
                    assert not any(_overlap(man, n) for n in names), (v.spaces[i].name, man)


def test_issue32_part1_owners_houses_subdivisions_mortgages_and_the_centre():
    v = _variant("standard")
    n = len(v.spaces)
    owner = [None] * n
    houses = [0] * n
    mortgaged = [False] * n
    owner[3], houses[3] = 0, 2       # Beacon Street: Ann's, two houses
    owner[15], houses[15] = 1, 5     # Highland Avenue: Bob's Subdivision
    owner[7], mortgaged[7] = 0, True  # Dover Street: Ann's, mortgaged
    seats = (Seat("Ann", 1500, 3, False, 4000), Seat("Bob <b>", 900, 15, False, 3000))
    state = BoardState(v, seats, tuple(owner), tuple(houses), tuple(mortgaged),
                       {"Hospital pot": 500}, (("Special Exemption", "Bob <b>"),), 17, turn=9)
    svg = board_svg(state, me="Ann")
    owners = re.findall(r'class="owner" data-index="(\d+)" data-owner="([^"]+)" '
                        r'data-houses="(\d+)"', svg)
    assert sorted(owners) == [("15", "Bob &lt;b&gt;", "5"), ("3", "Ann", "2"), ("7", "Ann", "0")]
    assert re.search(r'<g class="houses" data-count="2"', svg)
    assert svg.count(">SUBDIVISION<") == 1
    assert 'class="mortgaged" data-index="7"' in svg and ">MORTGAGED<" in svg
    centre = [html.unescape(t) for t in re.findall(r'class="centre">([^<]*)<', svg)]
    assert "● Ann  $1,500  on 3 Beacon Street  (you)" in centre
    assert "● Bob <b>  $900  on 15 Highland Avenue" in centre
    assert "Hospital pot: $500" in centre and "Special Exemption card: Bob <b>" in centre
    assert "<b>" not in svg  # every name escaped
    assert svg.count('<circle class="spot"') == n and '<g class="dice"' in svg
