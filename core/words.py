"""Counts in plain English for what the program prints: `1 house`, `2 houses`, `1,000 games`."""

from __future__ import annotations

import re

_SIBILANT = re.compile(r"(s|x|z|ch|sh)$")
_CONSONANT_Y = re.compile(r"[^aeiou]y$")


def plural(noun: str) -> str:
    """The regular English plural of `noun`: house -> houses, loss -> losses, strategy -> strategies."""
    if _CONSONANT_Y.search(noun):
        return noun[:-1] + "ies"
    if _SIBILANT.search(noun):
        return noun + "es"
    return noun + "s"


def count(n: int, word: str) -> str:
    """`n` and the noun in the number it takes: count(1, "game") -> "1 game"."""
    return f"{n:,} {word if n == 1 else plural(word)}"


def noun(n: int, word: str) -> str:
    """The noun alone in the number `n` takes: noun(1, "game") -> "game", noun(0, "game") -> "games"."""
    return word if n == 1 else plural(word)


# --- the person reading: "You have", "your offer" ------------------------------------------
# A text for a person names them as "you": `Bob rejects Ann's offer` read by Ann is `Bob
# rejects your offer`, `Ann has $500` is `You have $500`. The text comes in pieces, each
# either words or a player's name known as one (an event's field, the viewer's name found
# in a refusal's words), so that no other word is taken for a name.

_IRREGULAR = {"has": "have", "is": "are", "was": "were", "does": "do", "goes": "go"}
# words after a name that make it the subject and stay as they are: modals, the past
_SAME_FOR_YOU = frozenset({"may", "can", "cannot", "must", "will", "would", "should", "could",
                           "might", "threw", "rolled", "went", "paid"})
_ES = re.compile(r"(ss|sh|ch|x|z)es$")
_WORD = re.compile(r"^(\s*)([A-Za-z]+)")
_AND_VERB = re.compile(r"\band ([a-z]+)\b")
_THEIR = re.compile(r"\b(their|they|them|themselves)\b")
_CLAUSE_END = re.compile(r"[:;]")
_THEIR_YOU = {"their": "your", "they": "you", "them": "you", "themselves": "yourself"}


def third_person(word: str) -> bool:
    """Whether `word` is a verb in the third person singular (`pays`, `has`, `passes`):
    the word after a player's name that makes the name its subject."""
    return word in _IRREGULAR or (len(word) > 2 and word.endswith("s") and not word.endswith("ss")
                                  and word.islower())


def base_form(verb: str) -> str:
    """The verb as `you` takes it: has -> have, pays -> pay, passes -> pass, carries -> carry."""
    if verb in _IRREGULAR:
        return _IRREGULAR[verb]
    if verb.endswith("ies") and len(verb) > 4:
        return verb[:-3] + "y"
    if _ES.search(verb):
        return verb[:-2]
    return verb[:-1] if verb.endswith("s") else verb


def addressed(pieces: list[tuple[str, bool]]) -> str:
    """The text of `pieces` (words, or True: the reader's own name) with the reader as
    "you": `NAME's` is `your`; `NAME pays` is `you pay` and the verbs joined to it by `and`
    agree (`has ... and owes` -> `have ... and owe`), as do `their`/`they` after it; the
    name elsewhere is `you`. `You` opens the text with a capital."""
    merged: list[tuple[str, bool]] = []
    for text, mine in pieces:  # words next to words are one piece: what follows a name
        if merged and not mine and not merged[-1][1]:
            merged[-1] = (merged[-1][0] + text, False)
        else:
            merged.append((text, mine))
    pieces = merged
    out: list[str] = []
    subject = False
    skip = 0
    for k, (text, mine) in enumerate(pieces):
        if not mine:
            text = text[skip:]
            skip = 0
            if subject:
                text = _agree(text, first=bool(out) and out[-1] in ("You", "you"))
                subject = _CLAUSE_END.search(text) is None  # a new clause has its own subject
            out.append(text)
            continue
        after = pieces[k + 1][0] if k + 1 < len(pieces) and not pieces[k + 1][1] else ""
        start = not "".join(out).strip()
        if after.startswith("'s"):
            out.append("Your" if start else "your")
            skip = 2
            continue
        out.append("You" if start else "you")
        word = _WORD.match(after)
        subject = word is not None and word.group(1) != "" and (
            third_person(word.group(2)) or word.group(2) in _SAME_FOR_YOU)
    return "".join(out)


def _agree(text: str, first: bool) -> str:
    """`text` following the reader as subject: its first verb (when `first`, it comes right
    after the name) and those joined by `and` in the same clause take "you"; their -> your."""
    found = _CLAUSE_END.search(text)
    clause, rest = (text[:found.start()], text[found.start():]) if found else (text, "")
    if first:
        word = _WORD.match(clause)
        if word is not None and third_person(word.group(2)):
            clause = word.group(1) + base_form(word.group(2)) + clause[word.end():]
    clause = _AND_VERB.sub(lambda m: "and " + (base_form(m.group(1)) if third_person(m.group(1))
                                              else m.group(1)), clause)
    text = clause + rest
    return _THEIR.sub(lambda m: _THEIR_YOU[m.group(1)], text)


def second_person(text: str, name: str | None) -> str:
    """`text`, written of the player `name`, for that player to read (see `addressed`).
    The name is found as a whole word (`Ann` is not found in `Annie`)."""
    if not name or name not in text:
        return text
    pattern = re.compile(r"(?<![\w])" + re.escape(name) + r"(?![\w])")
    pieces: list[tuple[str, bool]] = []
    at = 0
    for m in pattern.finditer(text):
        pieces += [(text[at:m.start()], False), (name, True)]
        at = m.end()
    pieces.append((text[at:], False))
    return addressed(pieces)
