"""SVG to PNG through cairosvg, the optional extra ``png``."""

from __future__ import annotations

from typing import Any, Callable

from trvendetta.core.errors import TrvError

MISSING = ("--png needs the optional extra 'png' (cairosvg, with the cairo library): "
           "pip install 'trvendetta[png]'; or draw with --svg FILE")


def converter() -> Callable[..., Any]:
    """cairosvg's ``svg2png``; a TrvError naming the extra when it is not installed."""
    try:
        from cairosvg import svg2png  # type: ignore[import-untyped]  # cairosvg ships no types
    except (ImportError, OSError):  # OSError: the package is there but not the cairo library
        raise TrvError(MISSING) from None
    return svg2png


def png(svg_text: str, scale: float = 1.5) -> bytes:
    """The PNG of an SVG document."""
    return converter()(bytestring=svg_text.encode("utf-8"), scale=scale)
