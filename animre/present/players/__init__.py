"""Players: watch an animation in a notebook, frame by frame, at the file's own timing.

A player is an ipywidgets ``Play`` button linked to a frame slider and an
image: any frames at their durations (:func:`image_player`), a sequence of
frames with their table rows (:func:`sequence_player`) or key curves with a
moving time cursor (:func:`key_curve_player`). A shipped format's own player
is in its folder (``animre.formats.flc.player.flc_player``,
``animre.formats.omf.player.omf_player``) and builds on these.

Pictures are shown at native resolution (:mod:`animre.present.png`): indexed
frames become RGBA, are enlarged by an integer factor with nearest-neighbour
(no smoothing), drawn over a checkerboard where they are transparent, and the
image widget is given its exact pixel size so the browser does not rescale
it. Every image player exports its frames as GIF or APNG
(:meth:`Player.export`).

Examples
--------
>>> import numpy as np
>>> p = image_player([np.zeros((4, 4, 4), np.uint8)] * 3, [88, 88, 88], title="three frames", scale=1)
>>> len(p.frames), p.durations[0], p.play.interval
(3, 88.0, 88)
"""

from .curves import CURSOR_RGB, CurveCursor, key_curve_player
from .player import MIN_STEP_MS, Player, image_player, play_steps, sequence_player

__all__ = [
    "Player",
    "play_steps",
    "image_player",
    "key_curve_player",
    "sequence_player",
    "MIN_STEP_MS",
    "CURSOR_RGB",
    "CurveCursor",
]
