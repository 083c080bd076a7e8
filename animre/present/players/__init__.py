"""Players: watch an animation in a notebook, frame by frame, at the file's own timing.

A player is an ipywidgets ``Play`` button linked to a frame slider and an
image: a Civ3 FLC direction (:func:`flc_player`, timed by the FLC header
speed), an OMF move (:func:`omf_player`: its sprites with each frame's
collision points, timed by the move's animation string), an FRM sequence
(:func:`sequence_player`) or a GNT4 animation's key curves with a moving time
cursor (:func:`key_curve_player`). Frames are decoded by
:mod:`animre.decode`; this package only composes and shows them.

Pictures are shown at native resolution (:mod:`animre.present.png`): indexed
frames become RGBA, are enlarged by an integer factor with nearest-neighbour
(no smoothing), drawn over a checkerboard where they are transparent, and the
image widget is given its exact pixel size so the browser does not rescale
it. Every image player exports its frames as GIF or APNG
(:meth:`Player.export`).

Examples
--------
>>> from animre.present.players import flc_player
>>> p = flc_player("data/samples/flc/Warrior/Run.flc", direction="S")
>>> len(p.frames), p.durations[0], p.play.interval
(6, 88.0, 88)
"""

from .curves import CURSOR_RGB, CurveCursor, key_curve_player
from .flc import flc_player
from .omf import (
    COLLISION_RGBA,
    OMF_MARGIN,
    OMF_MS_PER_TICK,
    OMF_TABLES,
    OMF_VIEW_PX,
    MoveFrames,
    anim_string_frames,
    move_frames,
    omf_player,
    omf_zoom,
)
from .player import MIN_STEP_MS, Player, image_player, play_steps, sequence_player

__all__ = [
    "Player",
    "play_steps",
    "image_player",
    "flc_player",
    "omf_player",
    "key_curve_player",
    "sequence_player",
    "anim_string_frames",
    "omf_zoom",
    "OMF_VIEW_PX",
    "OMF_MARGIN",
    "COLLISION_RGBA",
    "OMF_MS_PER_TICK",
    "MIN_STEP_MS",
    "CURSOR_RGB",
    "CurveCursor",
    "move_frames",
    "MoveFrames",
    "OMF_TABLES",
]
