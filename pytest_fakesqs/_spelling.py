"""Telling a misspelt name the closest real one, for any layer's error texts.

Beside `_lazy` rather than in a layer: the api refuses misspelt error codes, the façade, options,
server and strategies misspelt queue, option and action names, each with the same words.
"""

from __future__ import annotations

from collections.abc import Iterable


def nearest(name: str, candidates: Iterable[str]) -> str | None:
    """The candidate `name` is most likely a typo of, if one is close enough."""
    import difflib  # only when a name is wrong: pytest itself does not import it

    matches = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
    return matches[0] if matches else None


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """`; did you mean 'SendMessage'?` for a misspelt name, or "": said after a list of the
    names there are, where earlier releases ended their texts."""
    close = nearest(name, candidates)
    return "" if close is None else f"; did you mean {close!r}?"
